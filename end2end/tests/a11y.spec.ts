import { test, expect } from './fixtures';
import type { Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

// axe-core on the main views: the empty chat, an answer with cards and next
// questions, the details drawer, the request form and the admin sign-in. No
// serious or critical violation may appear; lesser ones are printed.

async function audit(page: Page, view: string) {
  const result = await new AxeBuilder({ page }).analyze();
  for (const v of result.violations) {
    console.log(`${view}: [${v.impact}] ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  }
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(bad, `${view}: serious or critical accessibility violations`).toEqual([]);
}

test('the main views have no serious or critical accessibility violations', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('example').first()).toBeVisible();
  await audit(page, 'empty chat');

  await page.getByTestId('question-input').fill('pods in payments keep restarting, where do I start?');
  await page.getByTestId('question-input').press('Enter');
  const ex = page.getByTestId('exchange').first();
  await expect(ex).toHaveAttribute('data-done', 'true', { timeout: 30_000 });
  await expect(ex.getByTestId('suggestion').first()).toBeVisible();
  await audit(page, 'answer');

  await ex.getByTestId('card-details').first().click();
  await expect(page.getByTestId('drawer-readme')).toBeVisible();
  await audit(page, 'details drawer');
  await page.keyboard.press('Escape');

  await ex.getByTestId('request-button').click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await audit(page, 'request form');
  await page.keyboard.press('Escape');

  await page.goto('/admin');
  await expect(page.locator('main, [role="main"]').first()).toBeVisible();
  await audit(page, 'admin sign-in');
});
