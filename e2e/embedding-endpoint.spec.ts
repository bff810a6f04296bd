import { expect, test } from '@playwright/test';
import { startEmbeddingMockServer, type MockEmbeddingServer } from '../src/cli/embedding-mock-server';

/**
 * "Your own endpoint" in the page, against the mock embeddings server started here on
 * 127.0.0.1: nothing is sent before the page has said what goes where and the user confirmed;
 * a model the server lacks is one message naming it; the sample corpus is embedded there and
 * answers in the vector and hybrid columns; after a reload no unit's text is sent again.
 */
let mock: MockEmbeddingServer;
test.beforeAll(async () => {
  mock = await startEmbeddingMockServer({ dim: 48 });
});
test.afterAll(async () => {
  await mock.close();
});

const QUESTION = 'What are the characteristics of trustworthy AI?';
const texts = (from = 0) => mock.requests.slice(from).flatMap((r) => r.texts);

test('the mock endpoint embeds the sample corpus after consent, and a reload sends no text again', async ({ page }, info) => {
  test.setTimeout(300_000);
  await page.goto('/?em=none');
  const models = page.getByRole('region', { name: 'Models' });
  // The lab has started (and applied the URL's choice) before the picker is used.
  await expect(models.getByText('BM25 results are shown meanwhile: no embedding model is chosen.')).toBeVisible({ timeout: 60_000 });
  await models.getByLabel('Embedding model', { exact: true }).selectOption({ label: 'Your own endpoint (OpenAI-compatible)' });
  await models.getByLabel('Embedding endpoint base URL').fill(`${mock.url}/v1`);
  await models.getByLabel('Embedding endpoint model').fill('no-such-model');
  await models.getByRole('button', { name: 'Load', exact: true }).click();
  const consent = models.getByRole('alertdialog', { name: 'Send text to the embedding endpoint?' });
  await expect(consent).toContainText(`All 0 units' text (~0 tokens, estimated) will be sent to ${mock.url}/v1/embeddings (model no-such-model).`);
  expect(mock.requests).toHaveLength(0);
  await consent.getByRole('button', { name: 'Send and embed' }).click();
  // A model the server does not have: one message naming the endpoint and the model.
  await expect(models.getByText(`no embeddings at ${mock.url}/v1/embeddings, or no model "no-such-model" there (HTTP 404`)).toBeVisible({ timeout: 30_000 });

  await page.getByRole('button', { name: 'Load sample corpus' }).click();
  const docs = page.getByRole('list', { name: 'Indexed documents' });
  await expect(docs.locator('li.doc:not(.pending)')).toHaveCount(8, { timeout: 120_000 });

  await models.getByLabel('Embedding endpoint model').fill('mock-embed');
  await models.getByRole('button', { name: 'Load', exact: true }).click();
  const headline = consent.locator('.m-consent-head');
  await expect(headline).toHaveText(new RegExp(`^All ([\\d,]+) units' text \\(~[\\d,]+ tokens, estimated\\) will be sent to ${mock.url.replace(/\./g, '\\.')}/v1/embeddings \\(model mock-embed\\)\\.$`), { timeout: 60_000 });
  const units = Number((await headline.textContent())!.match(/All ([\d,]+) units/)![1]!.replace(/,/g, ''));
  expect(units).toBeGreaterThan(1000);
  await expect(consent).toContainText('No API key is sent.');
  await expect(consent).toContainText('The endpoint is on this machine, so the text does not leave it.');
  await models.screenshot({ path: info.outputPath('consent.png') });
  const before = mock.requests.length;
  // A server of limited speed, so progress, pause and resume can be seen.
  mock.options.limitPerSecond = 1500;
  await consent.getByRole('button', { name: 'Send and embed' }).click();

  await expect(models.getByText(/^Ready: mock-embed at .* · 48 dimensions$/)).toBeVisible({ timeout: 30_000 });
  const progress = models.getByTestId('endpoint-progress');
  await expect(progress).toContainText(/[\d,]+ of [\d,]+ units · [\d,.]+ units\/s · about \d+ (s|min) left/, { timeout: 30_000 });
  await progress.getByRole('button', { name: 'Pause' }).click();
  await expect(progress).toContainText(/Paused at [\d,]+ of [\d,]+ units: the vectors made are kept and searched/);
  await page.waitForTimeout(1500);
  const paused = mock.requests.length;
  await page.waitForTimeout(1500);
  expect(mock.requests.length).toBe(paused);
  delete mock.options.limitPerSecond;
  await progress.getByRole('button', { name: 'Resume' }).click();
  await expect(models.getByTestId('endpoint-progress')).toContainText(/All [\d,]+ units have vectors from this endpoint/, { timeout: 240_000 });
  const sent = texts(before).filter((t) => t !== 'dimension probe');
  // Every unit the page counted went there (and then the semantic chunks found from them), each once.
  expect(sent.length).toBeGreaterThanOrEqual(units);
  expect(sent.some((t) => t.includes('LISBON (capital)'))).toBe(true);

  await page.getByLabel('Question', { exact: true }).fill(QUESTION);
  await page.getByRole('button', { name: 'Ask' }).click();
  const sentences = page.getByRole('region', { name: /^Sentence hits/ });
  const hybrid = page.getByRole('region', { name: /^Hybrid RRF/ });
  await expect(sentences.locator('article.block').first()).toBeVisible({ timeout: 60_000 });
  await expect(sentences).not.toContainText('ranked by BM25 only');
  await expect(hybrid).toContainText(/vector #\d/);
  await expect(hybrid).not.toContainText('ranked by BM25 only');
  await models.screenshot({ path: info.outputPath('embedded.png') });
  expect(texts(before)).toContain(QUESTION);

  // A reload restores the vectors from this browser: only the fixed probe and the question go out.
  const beforeReload = mock.requests.length;
  await page.reload();
  await expect(models.getByText(/^Ready: mock-embed at .* · 48 dimensions$/)).toBeVisible({ timeout: 60_000 });
  await expect(models.getByRole('alertdialog')).toHaveCount(0);
  await expect(page.getByRole('region', { name: /^Hybrid RRF/ })).toContainText(/vector #\d/, { timeout: 60_000 });
  await expect(page.getByRole('region', { name: /^Sentence hits/ })).not.toContainText('ranked by BM25 only');
  await expect(models.getByTestId('endpoint-progress')).toContainText(/All [\d,]+ units have vectors from this endpoint/);
  // Only the fixed probe and the question: no unit's text. (The question may go twice: the page's
  // start-up search and the search after the model loads can both embed it before either caches it.)
  expect([...new Set(texts(beforeReload))].sort()).toEqual(['dimension probe', QUESTION].sort());
});
