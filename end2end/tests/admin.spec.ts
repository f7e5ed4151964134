import { test, expect } from './fixtures';
import type { Page } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The admin console at /admin. Self-sufficient: it makes its own turns, feedback
// and request through the public API first, so it does not depend on chat.spec.

const shots = join(__dirname, '..', 'screenshots');
mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: false });

const TOKEN_KEY = 'registry-chat-admin-token';
// A word no other test uses, so a search finds exactly this turn.
const KNOWN = 'pods in the flamingo namespace keep restarting, where do I start?';
const NO_MATCH = 'how do I rotate kafka broker certificates in strimzi';

function adminToken(): string {
  const t = process.env.REGISTRY_CHAT_E2E_ADMIN_TOKEN;
  if (!t) throw new Error('REGISTRY_CHAT_E2E_ADMIN_TOKEN is not set: global setup did not run');
  return t;
}

function serverUrl(): string {
  const u = process.env.REGISTRY_CHAT_URL;
  if (!u) throw new Error('REGISTRY_CHAT_URL is not set: global setup did not run');
  return u;
}

/** The questions below are asked as one browser: conversations belong to theirs. */
const OWNER = 'rc_owner=e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0';

/** Asks one question through `POST /api/chat` (SSE) and returns the `done` event. */
async function askApi(question: string): Promise<any> {
  const res = await fetch(`${serverUrl()}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', cookie: OWNER },
    body: JSON.stringify({ question }),
  });
  expect(res.status).toBe(200);
  const body = await res.text();
  const events = body
    .split('\n')
    .filter((l) => l.startsWith('data:'))
    .map((l) => {
      try {
        return JSON.parse(l.slice(5).trim());
      } catch {
        return null;
      }
    })
    .filter(Boolean);
  const done = events.find((e: any) => e.type === 'done');
  if (!done) throw new Error(`no done event for "${question}": ${body.slice(-500)}`);
  return done;
}

async function serverFn(name: string, args: unknown): Promise<any> {
  const res = await fetch(`${serverUrl()}/api/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: OWNER },
    body: JSON.stringify(args),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`/api/${name} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

/** Opens an admin page already signed in (the token is in sessionStorage). */
async function open(page: Page, path: string) {
  await page.addInitScript(([key, token]) => sessionStorage.setItem(key, token), [TOKEN_KEY, adminToken()]);
  await page.goto(path);
  await expect(page.getByTestId('admin-console')).toBeVisible();
}

async function traceTotal(page: Page): Promise<number> {
  return Number(await page.getByTestId('trace-total').getAttribute('data-value'));
}

let known: any;
let noMatch: any;
let requestRef = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  known = await askApi(KNOWN);
  noMatch = await askApi(NO_MATCH);
  expect(noMatch.no_match).toBe(true);
  await serverFn('feedback', { feedback: { turn_id: known.turn_id, value: 1 } });
  await serverFn('feedback', {
    feedback: { turn_id: noMatch.turn_id, value: -1, note: 'we need a strimzi bundle' },
  });
  const saved = await serverFn('create_request', {
    input: {
      problem: 'rotate kafka broker certificates in strimzi (admin e2e)',
      platform: 'kafka',
      healthy: 'broker certificates rotate before they expire, without downtime',
      context: 'strimzi operator on kubernetes',
      contact: 'admin-e2e-team',
      closest: [],
    },
  });
  requestRef = saved.request.reference;
  expect(requestRef).toMatch(/^REQ-\d{4}$/);
});

test('the admin area asks for a token, rejects a wrong one and signs in with the right one', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('admin-link').click();
  await expect(page).toHaveURL(/\/admin$/);
  const input = page.getByTestId('admin-token');
  await expect(input).toBeVisible();
  await expect(input).toHaveAttribute('type', 'password');

  await input.fill('not-the-right-token-000');
  await page.getByTestId('admin-login').click();
  await expect(page.getByTestId('admin-error')).toHaveText('That token is not valid.');
  await expect(page.getByTestId('admin-console')).toHaveCount(0);
  expect(await page.evaluate((k) => sessionStorage.getItem(k), TOKEN_KEY)).toBeNull();

  await input.fill(adminToken());
  await input.press('Enter');
  await expect(page.getByTestId('admin-console')).toBeVisible();
  await expect(page.getByTestId('tab-quality')).toHaveAttribute('aria-selected', 'true');
  expect(await page.evaluate((k) => sessionStorage.getItem(k), TOKEN_KEY)).toBe(adminToken());

  // Kept for the session: a reload stays signed in; "Sign out" forgets it.
  await page.reload();
  await expect(page.getByTestId('admin-console')).toBeVisible();
  await page.getByTestId('admin-logout').click();
  await expect(page.getByTestId('admin-token')).toBeVisible();
  expect(await page.evaluate((k) => sessionStorage.getItem(k), TOKEN_KEY)).toBeNull();

  // The API itself refuses a wrong token with the documented error body.
  const res = await fetch(`${serverUrl()}/api/admin/check`, { headers: { authorization: 'Bearer nope-nope-nope-nope' } });
  expect(res.status).toBe(401);
  expect((await res.json()).code).toBe('unauthorized');
});

test('quality shows the figures, latency per stage, worst queries and the golden set', async ({ page }) => {
  await open(page, '/admin');
  const turns = page.getByTestId('quality-turns');
  await expect(turns).toBeVisible();
  expect(Number(await turns.getAttribute('data-value'))).toBeGreaterThan(0);
  for (const id of ['quality-no-match', 'quality-follow-up-failures', 'quality-errors', 'quality-avg-cards', 'quality-avg-confidence']) {
    await expect(page.getByTestId(id)).toBeVisible();
  }
  expect(Number(await page.getByTestId('quality-thumbs-up').getAttribute('data-value'))).toBeGreaterThan(0);
  expect(Number(await page.getByTestId('quality-thumbs-down').getAttribute('data-value'))).toBeGreaterThan(0);
  expect(Number(await page.getByTestId('quality-no-match').getAttribute('data-value'))).toBeGreaterThan(0);
  const latency = page.getByTestId('quality-latency');
  await expect(latency).toBeVisible();
  await expect(latency).toContainText('total');
  expect(await page.getByTestId('latency-row').count()).toBeGreaterThan(1);
  await shot(page, '10-admin-quality');

  // The golden set: this window's thumbs-down and no-match turns as JSON lines.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('golden-download').click()]);
  expect(download.suggestedFilename()).toBe('golden-from-feedback.jsonl');
  const lines = readFileSync(await download.path(), 'utf8').split('\n').filter((l) => l.trim());
  expect(lines.length).toBeGreaterThan(0);
  const parsed = lines.map((l) => JSON.parse(l));
  expect(JSON.stringify(parsed)).toContain('strimzi');
  await expect(page.getByTestId('golden-status')).toContainText('golden-from-feedback.jsonl');

  // A worst query opens its trace.
  const worst = page.getByTestId('worst-query').filter({ hasText: 'strimzi' }).first();
  await expect(worst).toBeVisible();
  await worst.getByRole('button').click();
  await expect(page).toHaveURL(new RegExp(`/admin/traces/${noMatch.turn_id}$`));
  await expect(page.getByTestId('tab-traces')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('trace-detail')).toBeVisible();
  await expect(page.getByTestId('trace-question')).toHaveText(NO_MATCH);
  await expect(page.getByTestId('trace-feedback')).toContainText('we need a strimzi bundle');
});

test('traces can be searched and filtered, and a row opens its full trace', async ({ page }) => {
  await open(page, '/admin/traces');
  await expect(page.getByTestId('trace-row').first()).toBeVisible();

  await page.getByTestId('trace-search').fill('flamingo');
  await page.getByTestId('trace-search').press('Enter');
  await expect.poll(() => traceTotal(page)).toBe(1);
  const row = page.getByTestId('trace-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('flamingo');
  await shot(page, '11-admin-traces');

  await row.click();
  await expect(page).toHaveURL(new RegExp(`/admin/traces/${known.turn_id}$`));
  const detail = page.getByTestId('trace-detail');
  await expect(detail).toBeVisible();
  await expect(detail.getByTestId('trace-question')).toHaveText(KNOWN);
  await expect(detail.getByTestId('trace-rewritten')).not.toBeEmpty();
  await expect(detail.getByTestId('trace-answer')).not.toBeEmpty();
  await expect(detail.getByTestId('trace-searches')).toBeVisible();
  await expect(detail.getByTestId('trace-timings')).toContainText('total');
  expect(await detail.getByTestId('timing-row').count()).toBeGreaterThan(1);
  await expect(detail.getByTestId('trace-raw')).toContainText('Raw trace');
  await shot(page, '12-admin-trace-detail');
  await page.keyboard.press('Escape');
  await expect(detail).toHaveCount(0);
  await expect(page).toHaveURL(/\/admin\/traces$/);

  // The no-match filter narrows the list to no-match turns.
  await page.getByTestId('trace-search').fill('');
  await page.getByTestId('trace-search').press('Enter');
  await expect.poll(() => traceTotal(page)).toBeGreaterThan(1);
  const all = await traceTotal(page);
  await page.getByTestId('filter-no-match').check();
  await expect.poll(() => traceTotal(page)).toBeLessThan(all);
  const narrowed = await traceTotal(page);
  expect(narrowed).toBeGreaterThan(0);
  const rows = page.getByTestId('trace-row');
  await expect(rows.filter({ hasText: 'strimzi' }).first()).toBeVisible();
  await expect(rows.filter({ hasText: 'flamingo' })).toHaveCount(0);
  const shown = await rows.count();
  expect(await page.getByTestId('trace-no-match').count()).toBe(shown);
});

test('a test query answers with its trace and is not saved', async ({ page }) => {
  await open(page, '/admin/traces');
  await expect(page.getByTestId('trace-total')).toBeVisible();
  const before = await traceTotal(page);

  await page.getByTestId('tab-test').click();
  await expect(page).toHaveURL(/\/admin\/test$/);
  await page.getByTestId('test-question').fill('what about its SLIs?');
  await page.getByTestId('test-history').fill('pods in payments keep restarting, where do I start?');
  await page.getByTestId('test-run').click();
  const result = page.getByTestId('test-result');
  await expect(result).toBeVisible({ timeout: 30_000 });
  await expect(result.getByTestId('test-answer')).not.toBeEmpty();
  await expect(result.getByTestId('test-rewrites').locator('li')).toHaveCount(1);
  await expect(result.getByTestId('test-source')).not.toBeEmpty();
  await expect(result.getByTestId('test-elapsed')).toHaveText(/\d/);
  await expect(result.getByTestId('trace-timings')).toContainText('total');
  await shot(page, '13-admin-test-query');

  await page.getByTestId('tab-traces').click();
  await expect(page.getByTestId('trace-total')).toBeVisible();
  expect(await traceTotal(page)).toBe(before);
});

test('the index lists the sample collections and a reindex runs to done', async ({ page }) => {
  test.setTimeout(180_000);
  await open(page, '/admin/index');
  const rows = page.getByTestId('collection-row');
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBeGreaterThanOrEqual(3);
  for (const name of ['cloud-ops', 'kube-ops', 'platform-ops']) {
    await expect(page.locator(`[data-testid="collection-row"][data-name="${name}"]`)).toBeVisible();
  }
  await expect(page.getByTestId('index-embedder')).toContainText('vectors');

  // Note whether the progress bar ever shows (a fast run may finish between polls).
  await page.evaluate(() => {
    (window as any).__progressSeen = false;
    new MutationObserver(() => {
      if (document.querySelector('[data-testid="reindex-progress"]')) (window as any).__progressSeen = true;
    }).observe(document.body, { subtree: true, childList: true });
  });
  await page.getByTestId('reindex').click();
  const state = page.getByTestId('reindex-state');
  await expect(state).toHaveAttribute('data-state', 'done', { timeout: 150_000 });
  await expect(state).toContainText('Done');
  await expect(page.getByTestId('reindex')).toBeEnabled();
  console.log(`reindex progress bar seen: ${await page.evaluate(() => (window as any).__progressSeen)}`);
  expect(await rows.count()).toBeGreaterThanOrEqual(3);
  await shot(page, '14-admin-index');
});

test('requests can be triaged, filtered and exported', async ({ page }) => {
  await open(page, '/admin/requests');
  const row = page.locator(`[data-testid="request-row"][data-reference="${requestRef}"]`);
  await expect(row).toBeVisible();
  await expect(row).toContainText('strimzi');
  await expect(row).toContainText('kafka');
  await expect(row.getByTestId('request-status')).toHaveValue('open');

  await row.getByTestId('request-status').selectOption('planned');
  await expect(row.getByTestId('request-saved-tick')).toBeVisible();
  await shot(page, '15-admin-requests');
  await page.reload();
  await expect(row.getByTestId('request-status')).toHaveValue('planned');

  await page.getByTestId('request-filter').selectOption('planned');
  await expect(row).toBeVisible();
  await page.getByTestId('request-filter').selectOption('done');
  await expect(row).toHaveCount(0);
  await page.getByTestId('request-filter').selectOption('');
  await expect(row).toBeVisible();

  const [download] = await Promise.all([page.waitForEvent('download'), row.getByTestId('request-export').click()]);
  expect(download.suggestedFilename()).toBe(`${requestRef.toLowerCase()}.md`);
  const md = readFileSync(await download.path(), 'utf8');
  expect(md).toContain(`# CodeBundle request ${requestRef}`);
  expect(md).toContain('strimzi');
  expect(md).toContain('admin-e2e-team');
});

test('at phone width the console stays usable and tables scroll sideways', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, '/admin/traces');
  await expect(page.getByTestId('trace-row').first()).toBeVisible();
  // The page does not scroll sideways; the table's own container does.
  const overflow = await page.locator('.admin-page').evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow).toBeLessThanOrEqual(1);
  const scroller = page.locator('.table-scroll').first();
  const widths = await scroller.evaluate((el) => [el.scrollWidth, el.clientWidth]);
  expect(widths[0]).toBeGreaterThan(widths[1]);
  await page.getByTestId('trace-row').first().click();
  await expect(page.getByTestId('trace-detail')).toBeInViewport();
});
