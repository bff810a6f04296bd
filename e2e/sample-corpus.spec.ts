import { expect, test } from '@playwright/test';

test('the sample corpus loads with its attribution, and embedding can be paused and resumed', async ({ page }, info) => {
  test.setTimeout(240_000);
  await page.goto('/?em=rag-lab/test-embedder~fp32~wasm~local');
  await expect(page.getByRole('region', { name: 'Models' }).getByText(/TEST MODEL — random vectors/)).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Load sample corpus' }).click();
  const docs = page.getByRole('list', { name: 'Indexed documents' }).locator('li.doc:not(.pending)');
  await expect(docs).toHaveCount(8, { timeout: 120_000 });
  await expect(page.getByRole('list', { name: 'Indexed documents' })).toContainText('Artificial Intelligence Risk Management Framework');
  await expect(page.getByRole('list', { name: 'Indexed documents' })).toContainText('48 pages');

  // Pausing keeps what is embedded; searching still works (BM25 where vectors are missing).
  // ~6,000 units take the test model several seconds: the button is there meanwhile.
  const pause = page.getByRole('button', { name: 'Pause embedding' });
  await pause.click({ timeout: 60_000 });
  await expect(page.getByText('Embedding is paused')).toBeVisible();
  await page.getByLabel('Question', { exact: true }).fill('What are the characteristics of trustworthy AI?');
  await page.getByRole('button', { name: 'Ask' }).click();
  await expect(page.getByRole('region', { name: /^Sentence hits/ }).locator('article.block').first()).toBeVisible();
  await page.screenshot({ path: info.outputPath('paused.png'), fullPage: true });
  await page.getByRole('button', { name: 'Resume embedding' }).click();
  await expect(page.getByRole('list', { name: 'Indexed documents' }).getByText('ready', { exact: true })).toHaveCount(8, { timeout: 180_000 });

  const attribution = await page.request.get('/samples/ATTRIBUTION.md');
  expect(attribution.ok()).toBe(true);
  expect(await attribution.text()).toContain('CC BY 4.0');
});
