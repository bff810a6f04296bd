import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { ORIGIN } from './origin';

/**
 * The embedder picker shows what a model will be run with (a preset's prefixes and pooling,
 * guesses marked for any other id), and the generated static (Model2Vec-shaped) test model
 * indexes and answers in the page through the same path as a real potion-* model.
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
  await page.getByLabel('Question').fill('What is the capital of Portugal?');
  await page.getByRole('button', { name: 'Ask' }).click();
  const hits = page.getByRole('region', { name: /^Sentence hits/ });
  await expect(hits.locator('article.block').first()).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('region', { name: /^Hybrid RRF/ })).toContainText(/BM25 #\d/);

  const select = models.getByLabel('Embedding model', { exact: true });
  await select.selectOption('Xenova/bge-small-en-v1.5');
  await expect(settings).toContainText('pooling cls · query prefix "Represent this sentence for searching relevant passages: " · passage prefix none · max 512 tokens · 384 dims');
  await select.selectOption('nomic-ai/nomic-embed-text-v1.5');
  await expect(settings).toContainText('can be cut to 768, 512, 256, 128, 64 dims');

  await models.getByLabel('Other Hugging Face model id').fill('someone/new-embedder');
  await models.getByRole('button', { name: 'Use this id' }).click();
  await expect(select).toHaveValue('someone/new-embedder');
  await expect(settings).toContainText('pooling mean (guessed) · query prefix none (guessed) · passage prefix none (guessed) · max 512 tokens (guessed)');
  await expect(settings.getByRole('note')).toContainText('Not a preset');
  expect(outside).toEqual([]);
});
