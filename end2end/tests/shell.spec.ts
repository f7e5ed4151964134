import { test, expect } from './fixtures';

test('the page loads with the product name, a question box and example questions from the catalog', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle('Registry Chat');
  await expect(page.locator('.brand')).toHaveText('Registry Chat');
  await expect(page.getByTestId('question-input')).toBeVisible();
  await expect(page.getByTestId('empty-state')).toBeVisible();
  await expect(page.getByTestId('question')).toHaveCount(0);
  // Examples are phrased from real bundles ("Which codebundle …?").
  const examples = page.getByTestId('example');
  await expect(examples.first()).toBeVisible();
  expect(await examples.count()).toBeGreaterThanOrEqual(3);
  await expect(examples.first()).toContainText('?');
  await expect(page.getByTestId('health-banner')).toHaveCount(0);
});

test('Shift+Enter adds a newline instead of sending, and / focuses the question box', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('heading', { name: 'What are you troubleshooting?' }).click();
  await page.keyboard.press('/');
  await expect(page.getByTestId('question-input')).toBeFocused();
  const input = page.getByTestId('question-input');
  await input.fill('first line');
  await input.press('Shift+Enter');
  await input.pressSequentially('second line');
  await expect(input).toHaveValue('first line\nsecond line');
  await expect(page.getByTestId('question')).toHaveCount(0);
});

test('the health endpoint reports JSON', async ({ request, baseURL }) => {
  const res = await request.get(`${baseURL}/health`);
  expect(res.status()).toBe(200);
  const body = await res.json();
  expect(body.status).toBe('ok');
  expect(body.database.ok).toBe(true);
  expect(body.index.bundles).toBeGreaterThan(40);
  expect(body.llm.configured).toBe(false);
});
