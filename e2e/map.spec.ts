import { expect, test } from '@playwright/test';

test('the map of the corpus shows the query and what each strategy retrieved; a point opens its document', async ({ page }, info) => {
  test.setTimeout(300_000);
  await page.goto('/?em=rag-lab/test-embedder~fp32~wasm~local');
  await expect(page.getByRole('region', { name: 'Models' }).getByText(/TEST MODEL — random vectors/)).toBeVisible({ timeout: 60_000 });

  // Before any document: the map says what it needs.
  await page.getByRole('tab', { name: 'Map of the corpus' }).click();
  await expect(page.getByRole('region', { name: 'Map of the corpus' }).getByRole('status')).toContainText('The map needs documents');

  await page.getByRole('tab', { name: 'Explore a question' }).click();
  await page.getByRole('button', { name: 'Load sample corpus' }).click();
  const docs = page.getByRole('list', { name: 'Indexed documents' });
  await expect(docs.locator('li.doc:not(.pending)')).toHaveCount(8, { timeout: 120_000 });
  await expect(docs.getByText('ready', { exact: true })).toHaveCount(8, { timeout: 180_000 });
  await page.getByLabel('Question', { exact: true }).fill('What are the characteristics of trustworthy AI?');
  await page.getByRole('button', { name: 'Ask' }).click();
  await expect(page.getByRole('region', { name: /^Sentence windows/ }).locator('article.block').first()).toBeVisible({ timeout: 30_000 });

  await page.getByRole('tab', { name: 'Map of the corpus' }).click();
  const map = page.getByRole('region', { name: 'Map of the corpus' });
  await expect(map.getByText('A projection distorts distances')).toBeVisible();
  const canvas = map.getByRole('img', { name: /^Map of [\d,]+ sentences \(PCA\), with the query as a black star/ });
  await expect(canvas).toBeVisible({ timeout: 60_000 });
  await expect(canvas).toHaveAttribute('aria-label', /Sentence windows · BM25|Sentence windows · vector|Sentence windows · hybrid/);
  const legend = map.getByRole('list', { name: 'Strategies on the map' });
  await expect(legend.getByText(/^Sentence windows · \w+: \d+ sentences/)).toBeVisible();
  await expect(map.getByText(/exact PCA projection of the query vector/)).toBeVisible();

  // Toggling a strategy off removes it from the canvas's description; on again brings it back.
  await legend.getByRole('checkbox').first().uncheck();
  await expect(canvas).not.toHaveAttribute('aria-label', /Sentence hits · \w+: \d+ sentences/);
  await legend.getByRole('checkbox').first().check();

  // Hover a highlighted hit: its sentence, document and true cosine show; click opens the document view there.
  await canvas.scrollIntoViewIfNeeded();
  const target = await page.evaluate(() => {
    const m = window.__ragLabMap!;
    const h = m.highlighted().find((x) => x.column === 'window') ?? m.highlighted()[0]!;
    const index = h.hits[0]!;
    return { index, ...m.point(index)! };
  });
  expect(target.x, JSON.stringify(target)).toBeGreaterThan(0);
  expect(await page.evaluate(() => window.__ragLabMap!.query())).not.toBeNull();
  await page.mouse.move(target.x, target.y);
  const hover = map.getByRole('status', { name: 'Hovered sentence' });
  await expect(hover).toContainText(/true cosine to the query -?\d\.\d{3}/, { timeout: 10_000 });
  const sentence = ((await hover.locator('.map-hover-text').textContent()) ?? '').replace(/^“|”$/g, '').trim();
  expect(sentence.length).toBeGreaterThan(3);
  await page.mouse.click(target.x, target.y);
  const docview = page.getByRole('complementary', { name: 'Document view' });
  await expect(docview).toBeVisible();
  await expect(docview.locator('.range-hit').first()).toContainText(sentence.slice(0, 40), { timeout: 20_000 });
  await page.screenshot({ path: info.outputPath('map-pca.png'), fullPage: true });

  // UMAP: progress, then the refined view with the query placed by its nearest sentences.
  await map.getByLabel('Projection').selectOption('umap');
  await expect(map.getByRole('img', { name: /\(UMAP\), with the query/ })).toBeVisible({ timeout: 120_000 });
  await expect(map.getByText(/weighted mean of the positions of its 10 nearest sentences/)).toBeVisible();
  await map.getByLabel('Colour by').selectOption('language');
  await expect(map.getByText('Colours: language')).toBeVisible();
  await page.screenshot({ path: info.outputPath('map-umap.png'), fullPage: true });
});
