import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { axeOn } from './axe';
import { ORIGIN } from './origin';

/**
 * The embedder picker shows what a model will be run with (a preset's prefixes and pooling,
 * guesses marked for any other id), and the generated static (Model2Vec-shaped) test model
 * indexes and answers in the page through the same path as a real potion-* model. Settings
 * changed in the picker make a vector set of their own, kept across a reload; going back to
 * the preset re-uses the preset's vectors.
 */
const samples = resolve(import.meta.dirname, '../public/samples');

test('presets show their settings, another id its guesses; the static test model answers', async ({ page, context }) => {
  test.setTimeout(240_000);
  const outside: string[] = [];
  context.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(ORIGIN) && !url.startsWith('blob:') && !url.startsWith('data:')) outside.push(url);
  });
  await page.goto('/?em=rag-lab/test-static-embedder~fp32~wasm~local');
  const models = page.getByRole('region', { name: 'Models' });
  await expect(models.getByText(/TEST MODEL — random vectors/)).toBeVisible({ timeout: 60_000 });
  await expect(models.getByText('Ready: rag-lab/test-static-embedder · 128 dimensions')).toBeVisible();
  const settings = models.getByTestId('embedder-settings');
  await expect(settings).toContainText('static (Model2Vec) · query prefix none · passage prefix none · max 512 tokens · 128 dims');

  await page.locator('input[type=file]').setInputFiles([{ name: 'factbook_portugal.md', mimeType: 'text/markdown', buffer: readFileSync(resolve(samples, 'factbook_portugal.md')) }]);
  const docs = page.getByRole('list', { name: 'Indexed documents' });
  await expect(docs.getByText('ready')).toHaveCount(1, { timeout: 120_000 });
  await page.getByLabel('Question', { exact: true }).fill('What is the capital of Portugal?');
  await page.getByRole('button', { name: 'Ask' }).click();
  const hits = page.getByRole('region', { name: /^Sentence hits/ });
  await expect(hits.locator('article.block').first()).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('region', { name: /^Hybrid RRF/ })).toContainText(/BM25 #\d/);

  const select = models.getByLabel('Embedding model', { exact: true });
  await select.selectOption('Xenova/bge-small-en-v1.5');
  await expect(settings).toContainText('pooling cls · query prefix "Represent this sentence for searching relevant passages: " · passage prefix none · max 512 tokens · 384 dims');
  await select.selectOption('nomic-ai/nomic-embed-text-v1.5');
  await expect(settings).toContainText('can be cut to 768, 512, 256, 128, 64 dims');
  // A Matryoshka preset offers its sizes, the full one first and chosen.
  const size = models.getByLabel('Output size');
  await expect(size).toHaveValue('768');
  await expect(size.locator('option')).toHaveText(['768 dimensions (full size)', '512 dimensions', '256 dimensions', '128 dimensions', '64 dimensions']);
  await size.selectOption('256');
  await expect(models.getByTestId('embedder-settings-line')).toContainText('· 256 dims · changed from the preset: 256 of 768 dims');

  await models.getByLabel('Other Hugging Face model id').fill('someone/new-embedder');
  await models.getByRole('button', { name: 'Use this id' }).click();
  await expect(select).toHaveValue('someone/new-embedder');
  await expect(settings).toContainText('pooling mean (guessed) · query prefix none (guessed) · passage prefix none (guessed) · max 512 tokens (guessed)');
  await expect(settings.getByRole('note')).toContainText('Not a preset');
  expect(outside).toEqual([]);
});

const banner = (page: Page) => page.getByRole('banner');
const num = (text: string) => Number(text.replace(/,/g, ''));

test('a changed passage prefix is applied on Load: its own vectors, said in the settings line, kept after a reload; back to the preset re-embeds no unit', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto('/?em=rag-lab/test-embedder~fp32~wasm~local');
  const models = page.getByRole('region', { name: 'Models' });
  await expect(models.getByText('Ready: rag-lab/test-embedder · 128 dimensions')).toBeVisible({ timeout: 60_000 });
  await page.locator('input[type=file]').setInputFiles([{ name: 'factbook_portugal.md', mimeType: 'text/markdown', buffer: readFileSync(resolve(samples, 'factbook_portugal.md')) }]);
  const docs = page.getByRole('list', { name: 'Indexed documents' });
  await expect(docs.getByText('ready', { exact: true })).toHaveCount(1, { timeout: 120_000 });
  await expect(page.getByRole('button', { name: 'Pause embedding' })).toHaveCount(0, { timeout: 120_000 });
  // From storage, the preset's vectors: how many there are.
  await page.reload();
  await expect(banner(page)).toContainText('nothing to embed again', { timeout: 60_000 });
  const plainVectors = /Restored: ([\d,]+) vectors/.exec((await banner(page).textContent()) ?? '')![1]!;

  const line = models.getByTestId('embedder-settings-line');
  await expect(line).toHaveText('pooling mean · query prefix none · passage prefix none · max 512 tokens · 128 dims');
  await models.getByText('Change settings').click();
  await models.getByLabel('Passage prefix').fill('doc: ');
  await expect(models.getByText('Passage prefix (changed)')).toBeVisible();
  await expect(line).toHaveText('pooling mean · query prefix none · passage prefix "doc: " · max 512 tokens · 128 dims · changed from the preset: passage prefix');
  await models.getByRole('button', { name: 'Load', exact: true }).click();
  // Another vector set: its own key, nothing restored for it, every unit embedded again.
  await expect(models.getByText('Ready: rag-lab/test-embedder#255de47a · 128 dimensions')).toBeVisible({ timeout: 60_000 });
  await expect(banner(page)).toContainText('Restored: 0 vectors; left to make:', { timeout: 30_000 });
  const left = /left to make: ([\d,]+) units/.exec((await banner(page).textContent()) ?? '')![1]!;
  expect(num(left)).toBeGreaterThan(0);
  // Semantic chunks are cut last, from the new sentence vectors: the job has ended when they are.
  await expect(banner(page)).toContainText(`Embedded since: ${left} units; semantic chunks cut for 1 document.`, { timeout: 120_000 });
  expect(new URL(page.url()).searchParams.get('es')).toBe('{"p":"doc: "}');

  // A reload keeps the choice, and its vectors come from storage.
  await page.reload();
  await expect(models.getByText('Ready: rag-lab/test-embedder#255de47a · 128 dimensions')).toBeVisible({ timeout: 60_000 });
  await expect(line).toHaveText('pooling mean · query prefix none · passage prefix "doc: " · max 512 tokens · 128 dims · changed from the preset: passage prefix');
  await expect(models.getByLabel('Passage prefix')).toHaveValue('doc: ');
  await expect(banner(page)).toContainText('nothing to embed again. Embedded since: 0 units', { timeout: 60_000 });

  // Back to the preset: its own vectors again, nothing embedded.
  await models.getByRole('button', { name: 'Reset to preset' }).click();
  await expect(line).toHaveText('pooling mean · query prefix none · passage prefix none · max 512 tokens · 128 dims');
  await models.getByRole('button', { name: 'Load', exact: true }).click();
  await expect(models.getByText('Ready: rag-lab/test-embedder · 128 dimensions')).toBeVisible({ timeout: 60_000 });
  // Every unit's vector comes back from storage; only the semantic chunks are cut again (storage keeps one model's per document).
  await expect(banner(page)).toContainText(/Restored: [\d,]+ vectors; left to make: 0 units, semantic chunks of 1 document\. Embedded since: 0 units; semantic chunks cut for 1 document\./, { timeout: 60_000 });
  const back = /Restored: ([\d,]+) vectors/.exec((await banner(page).textContent()) ?? '')![1]!;
  expect(num(back)).toBeGreaterThan(0);
  expect(num(back)).toBeLessThanOrEqual(num(plainVectors));
  expect(new URL(page.url()).searchParams.get('es')).toBeNull();
});

test('the settings editor: guesses marked, a bad length said in words with Load refused; no serious axe finding in the Models panel', async ({ browser }, info) => {
  test.setTimeout(120_000);
  // The page's CSP forbids axe's injected script otherwise.
  const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto('/?em=rag-lab/test-static-embedder~fp32~wasm~local');
  const models = page.getByRole('region', { name: 'Models' });
  await expect(models.getByText('Ready: rag-lab/test-static-embedder · 128 dimensions')).toBeVisible({ timeout: 60_000 });
  await models.getByLabel('Other Hugging Face model id').fill('someone/new-embedder');
  await models.getByRole('button', { name: 'Use this id' }).click();
  // Guesses are to be checked: the editor is open, each guess marked.
  await expect(models.getByLabel('Query prefix (guessed)')).toHaveValue('');
  await expect(models.getByLabel('Pooling (guessed)')).toHaveValue('mean');
  await models.getByLabel('Pooling (guessed)').selectOption('cls');
  await expect(models.getByLabel('Pooling (changed)')).toHaveValue('cls');
  await models.getByLabel(/^Maximum length/).fill('12x');
  await expect(models.getByRole('alert')).toHaveText('Maximum length: "12x" is not a whole number of tokens from 8 to 131,072.');
  await expect(models.getByRole('button', { name: 'Load', exact: true })).toBeDisabled();
  await models.getByLabel(/^Maximum length/).fill('2048');
  await expect(models.getByRole('button', { name: 'Load', exact: true })).toBeEnabled();
  await expect(models.getByTestId('embedder-settings-line')).toHaveText('pooling cls · query prefix none (guessed) · passage prefix none (guessed) · max 2048 tokens · changed from the guesses: pooling, maximum length');
  const result = await axeOn(page).include('section.models').analyze();
  await models.screenshot({ path: info.outputPath('settings-editor.png') });
  expect(result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await context.close();
});
