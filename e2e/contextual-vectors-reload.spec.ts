import { expect, test } from '@playwright/test';
import { startEmbeddingMockServer, type MockEmbeddingServer } from '../src/cli/embedding-mock-server';
import { startContextMock, type ContextMock } from '../src/node/context-mock-server';
import { HARBOUR_LOG } from './fixtures/harbour-log';

/**
 * Contextual vectors survive a reload (issue 29): the embedding model is the mock embeddings
 * endpoint (src/cli/embedding-mock-server.ts, on 127.0.0.1), which records every text it is
 * sent, and the contexts are written by the context mock. Each contextual text is sent to the
 * embedding endpoint once; after a reload the contexts are all embedded again in the page's
 * count, and not one contextual text is sent (they come from IndexedDB, rag-lab-contexts).
 */

const DOC = HARBOUR_LOG;

let contexts: ContextMock;
let embeddings: MockEmbeddingServer;
test.beforeEach(async () => {
  contexts = await startContextMock();
  embeddings = await startEmbeddingMockServer({ dim: 48 });
});
test.afterEach(async () => {
  await contexts.close();
  await embeddings.close();
});

/** Texts sent to the embedding endpoint from request `from` on that carry a context written by the mock. */
const contextualTexts = (from = 0) => embeddings.requests.slice(from).flatMap((r) => r.texts).filter((t) => t.includes('" is about '));

test('a reload restores every contextual vector: 0 contextual texts embedded again', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto('/?em=none&cu=sentence&r=bm25');
  const models = page.getByRole('region', { name: 'Models' });
  await expect(models.getByText('BM25 results are shown meanwhile: no embedding model is chosen.')).toBeVisible({ timeout: 60_000 });
  await page.locator('input[type=file]').setInputFiles([{ name: 'harbour.md', mimeType: 'text/markdown', buffer: Buffer.from(DOC) }]);
  const docs = page.getByRole('list', { name: 'Indexed documents' });
  await expect(docs.locator('li.doc:not(.pending)')).toHaveCount(1, { timeout: 60_000 });

  // The embedding model: the mock endpoint, after consent.
  await models.getByLabel('Embedding model', { exact: true }).selectOption({ label: 'Your own endpoint (OpenAI-compatible)' });
  await models.getByLabel('Embedding endpoint base URL').fill(`${embeddings.url}/v1`);
  await models.getByLabel('Embedding endpoint model').fill('mock-embed');
  await models.getByRole('button', { name: 'Load', exact: true }).click();
  await models.getByRole('alertdialog', { name: 'Send text to the embedding endpoint?' }).getByRole('button', { name: 'Send and embed' }).click();
  await expect(models.getByText(/^Ready: mock-embed at .* · 48 dimensions$/)).toBeVisible({ timeout: 30_000 });
  await expect(models.getByTestId('endpoint-progress')).toContainText(/All [\d,]+ units have vectors from this endpoint/, { timeout: 60_000 });

  // Contexts for every sentence, by the context mock.
  const panel = page.getByRole('region', { name: 'Contextual retrieval' });
  await panel.getByLabel('Units').selectOption('sentence');
  const gen = page.getByRole('region', { name: 'Generator' });
  await gen.getByLabel('OpenAI-compatible endpoint').check();
  await gen.getByLabel('Endpoint base URL').fill(`${contexts.url}/v1`);
  await gen.getByLabel('Endpoint model').fill('mock-writer');
  await expect(panel.getByLabel('Before writing contexts')).toContainText('9 calls to the generator, one per sentence without a context (0 have one)', { timeout: 30_000 });
  await panel.getByRole('button', { name: 'Write contexts' }).click();
  await expect(panel.getByText(/^Done · /)).toBeVisible({ timeout: 60_000 });
  const written = panel.getByLabel('Contexts written');
  await expect(written).toContainText('Contexts: 9 of 9 sentences (9 embedded)', { timeout: 30_000 });
  // Each contextual text went to the endpoint once.
  const sent = contextualTexts();
  expect(sent).toHaveLength(9);
  expect(new Set(sent).size).toBe(9);
  // Stored as each slice is made; a moment for the write to end before the page goes.
  await page.waitForTimeout(1000);

  const beforeReload = embeddings.requests.length;
  await page.reload();
  await expect(models.getByText(/^Ready: mock-embed at .* · 48 dimensions$/)).toBeVisible({ timeout: 60_000 });
  await page.getByRole('region', { name: 'Contextual retrieval' }).getByLabel('Units').selectOption('sentence');
  await expect(page.getByRole('region', { name: 'Contextual retrieval' }).getByLabel('Contexts written')).toContainText('Contexts: 9 of 9 sentences (9 embedded)', { timeout: 30_000 });
  // Longer than the contexts' settle time (400 ms) after the model loaded: anything missing would have been sent by now.
  await page.waitForTimeout(2000);
  expect(contextualTexts(beforeReload)).toEqual([]);
  // Nothing but the endpoint's fixed probe: no unit's text, plain or contextual.
  expect([...new Set(embeddings.requests.slice(beforeReload).flatMap((r) => r.texts))]).toEqual(['dimension probe']);
});
