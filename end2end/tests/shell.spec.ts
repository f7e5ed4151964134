import { test, expect } from './fixtures';

test('the page loads with the product name, a question box and an empty conversation', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle('Registry Chat');
  await expect(page.locator('.brand')).toHaveText('Registry Chat');
  await expect(page.getByTestId('question-input')).toBeVisible();
  await expect(page.getByTestId('empty-state')).toBeVisible();
  await expect(page.getByTestId('question')).toHaveCount(0);
  await expect(page.getByTestId('health-banner')).toHaveCount(0);
});

test('a question streams an answer that arrives in more than one step', async ({ page }) => {
  await page.goto('/');
  // Record every distinct text the answer shows, from the browser side.
  await page.evaluate(() => {
    (window as any).__seen = [];
    new MutationObserver(() => {
      const el = document.querySelector('[data-testid="answer-text"]');
      const text = el?.textContent ?? '';
      const seen = (window as any).__seen as string[];
      if (text && seen[seen.length - 1] !== text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });

  await page.getByTestId('question-input').fill('pods in payments keep restarting, where do I start?');
  await page.getByTestId('question-input').press('Enter');

  await expect(page.getByTestId('question')).toHaveText('pods in payments keep restarting, where do I start?');
  const answer = page.getByTestId('answer');
  await expect(answer).toHaveAttribute('data-done', 'true');
  await expect(page.getByTestId('answer-text')).toContainText('index is empty');

  const seen: string[] = await page.evaluate(() => (window as any).__seen);
  expect(seen.length).toBeGreaterThan(2);
  // Each step extends the previous one: tokens are appended, not replaced.
  for (let i = 1; i < seen.length; i++) expect(seen[i].startsWith(seen[i - 1])).toBeTruthy();
});

test('Shift+Enter adds a newline instead of sending', async ({ page }) => {
  await page.goto('/');
  const input = page.getByTestId('question-input');
  await input.fill('first line');
  await input.press('Shift+Enter');
  await input.type('second line');
  await expect(input).toHaveValue('first line\nsecond line');
  await expect(page.getByTestId('question')).toHaveCount(0);
});

test('the health endpoint reports JSON', async ({ request, baseURL }) => {
  const res = await request.get(`${baseURL}/health`);
  expect(res.status()).toBe(200);
  const body = await res.json();
  expect(body.status).toBe('ok');
  expect(body.database.ok).toBe(true);
  expect(body.llm.configured).toBe(false);
});
