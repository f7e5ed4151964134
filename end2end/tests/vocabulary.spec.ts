import { test, expect } from './fixtures';
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

// The `vocabulary` setting chooses the words the UI uses, not only the answers'.
// A second real server on the shared data directory speaks RunWhen's vocabulary
// (Skill Template, Tool, Monitor); the default server keeps ours.
let server: ChildProcess | undefined;
let url = '';

test.beforeAll(async () => {
  const bin = process.env.REGISTRY_CHAT_BIN ?? resolve(__dirname, '../../target/release/registry-chat');
  const dataDir = process.env.REGISTRY_CHAT_E2E_DATA;
  if (!dataDir) throw new Error('REGISTRY_CHAT_E2E_DATA is not set: global setup did not run');
  server = spawn(bin, ['serve', '--addr', '127.0.0.1:0', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, REGISTRY_CHAT_VOCABULARY: 'skill-template', REGISTRY_CHAT_LOG_LEVEL: 'warn' },
  });
  url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error('server did not start within 30s')), 30_000);
    let out = '';
    server!.stdout!.on('data', (d) => {
      out += d.toString();
      const m = out.match(/running at (http:\/\/\S+?)\/?\s/);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    });
    server!.on('exit', (code) => fail(new Error(`server exited early with code ${code}`)));
  });
});

test.afterAll(() => {
  server?.kill('SIGTERM');
});

test('the UI speaks the configured vocabulary: Skill Templates, Tools and Monitors', async ({ page }) => {
  await page.goto(url + '/');
  await expect(page.getByTestId('empty-state')).toContainText('Skill Templates that fit, the Tools to run first');
  await page.getByTestId('question-input').fill('pods in payments keep restarting, where do I start?');
  await page.getByTestId('question-input').press('Enter');
  const ex = page.getByTestId('exchange').first();
  await expect(ex).toHaveAttribute('data-done', 'true', { timeout: 30_000 });
  await expect(ex.getByTestId('request-button')).toHaveText('Request a Skill Template');
  await ex.getByTestId('card-details').first().click();
  const drawer = page.getByTestId('drawer');
  await expect(drawer.getByTestId('drawer-tasks').locator('h3')).toContainText('Tools');
  await page.keyboard.press('Escape');
  await ex.getByTestId('request-button').click();
  await expect(page.locator('#request-title')).toHaveText('Request a Skill Template');
});

test('the default server keeps our words', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('empty-state')).toContainText('codebundles that fit, the tasks to run first');
  const health = await (await page.request.get('/health')).json();
  expect(health.vocabulary).toBe('codebundle');
});
