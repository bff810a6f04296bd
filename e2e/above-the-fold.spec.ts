import { expect, test } from '@playwright/test';

/**
 * What a new user sees at 1280×800 after a question on the sample corpus: the first results
 * start inside the window without scrolling (the overlap table is one summary line until
 * opened), and each column says which retriever it actually used. The screenshot is kept in
 * test-results/ (explore-1280x800.png).
 */
test('after a question at 1280×800 the first results are visible without scrolling', async ({ page }, info) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/?em=rag-lab/test-embedder~fp32~wasm~local');
  await expect(page.getByRole('region', { name: 'Models' }).getByText(/TEST MODEL — random vectors/)).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Load sample corpus' }).click();
  await expect(page.getByRole('list', { name: 'Indexed documents' }).getByText('ready', { exact: true })).toHaveCount(8, { timeout: 180_000 });
  await page.getByLabel('Question', { exact: true }).fill('What are the characteristics of trustworthy AI?');
  await page.getByRole('button', { name: 'Ask' }).click();
  const first = page.getByRole('region', { name: /^Sentence windows/ }).locator('article.block').first();
  await expect(first).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('details.overlap')).not.toHaveAttribute('open', '');
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = (await first.boundingBox())!;
  // The block's first lines are inside the window: its top is on screen with room to read.
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + 60).toBeLessThanOrEqual(800);
  await page.screenshot({ path: info.outputPath('explore-1280x800.png') });
});
