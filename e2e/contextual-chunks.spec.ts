import { expect, test, type Page } from '@playwright/test';
import { startContextMock, type ContextMock } from '../src/node/context-mock-server';
import { HARBOUR_LOG } from './fixtures/harbour-log';
import { ORIGIN } from './origin';

/**
 * Contextual retrieval in the page: an OpenAI-compatible endpoint (the mock of
 * src/node/context-mock-server.ts, a real HTTP server on 127.0.0.1, answering slowly) writes a
 * situating context per sentence; the panel says what goes where before anything is sent; the
 * Contextual chunks column shows the contexts and retrieves by them while the run goes on; a
 * cancel halfway keeps what was written, a second run sends only the rest; a context is edited
 * by hand; and everything is still there after a reload.
 */

const DOC = HARBOUR_LOG;

let mock: ContextMock;
test.beforeEach(async () => {
  mock = await startContextMock();
});
test.afterEach(async () => {
  await mock.close();
});

const column = (page: Page, name: string) => page.getByRole('region', { name: new RegExp(`^${name}`) });
const sentChunks = () => mock.requests.map((r) => /<chunk>\n([\s\S]*?)\n<\/chunk>/.exec(r.messages[0]!.content)?.[1] ?? '');

test('an endpoint writes contexts that the Contextual chunks column shows and uses; a cancel keeps them, a second run sends only the rest', async ({ page }) => {
  test.setTimeout(300_000);
  const outside: string[] = [];
  page.context().on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(ORIGIN) && !url.startsWith(mock.url) && !url.startsWith('blob:') && !url.startsWith('data:')) outside.push(url);
  });
  // Contextual chunks over sentences (cu=sentence), BM25 so that the blocks do not wait for vectors.
  await page.goto('/?em=rag-lab/test-embedder~fp32~wasm~local&cu=sentence&r=bm25');
  await page.locator('input[type=file]').setInputFiles([{ name: 'harbour.md', mimeType: 'text/markdown', buffer: Buffer.from(DOC) }]);
  const docs = page.getByRole('list', { name: 'Indexed documents' });
  await expect(docs.getByText('ready')).toHaveCount(1, { timeout: 120_000 });

  const panel = page.getByRole('region', { name: 'Contextual retrieval' });
  await panel.getByLabel('Units').selectOption('sentence');
  await expect(panel.getByText('Choose a generator in the Generator panel first')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Write contexts' })).toBeDisabled();

  // The endpoint, answering each call after 400 ms (model "slow"), so the run can be cancelled halfway.
  const gen = page.getByRole('region', { name: 'Generator' });
  await gen.getByLabel('OpenAI-compatible endpoint').check();
  await gen.getByLabel('Endpoint base URL').fill(`${mock.url}/v1`);
  await gen.getByLabel('Endpoint model').fill('slow');
  const statement = panel.getByLabel('Before writing contexts');
  await expect(statement).toContainText('9 calls to the generator, one per sentence without a context (0 have one), in 1 document', { timeout: 30_000 });
  await expect(statement).toContainText(`${mock.url}/v1/chat/completions`);
  await expect(statement).toContainText('does not leave');
  // The prompt is Anthropic's, and it is visible.
  await panel.getByText('Prompt: see and edit').click();
  await expect(panel.getByLabel('Context prompt')).toHaveValue(/^<document>\n\{document\}\n<\/document>\nHere is the chunk we want to situate within the whole document\n<chunk>\n\{chunk\}\n<\/chunk>\n/);
  expect(mock.requests).toHaveLength(0);

  await panel.getByRole('button', { name: 'Write contexts' }).click();
  await expect(panel.getByLabel('Context writing')).toBeVisible();
  await expect.poll(() => mock.requests.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(3);
  await panel.getByRole('button', { name: 'Cancel (keep what was written)' }).click();
  await expect(panel.getByText(/^Cancelled · /)).toBeVisible({ timeout: 30_000 });
  const firstRun = mock.requests.length;
  expect(firstRun).toBeGreaterThanOrEqual(2);
  expect(firstRun).toBeLessThan(9);
  await expect(panel.getByText('The contexts written are kept; units without one are retrieved by their plain text. Writing again sends only those.')).toBeVisible();

  // The column: contexts on the blocks that have one, the rest plain, and it says how many.
  await page.getByLabel('Question', { exact: true }).fill('ferry engine lighthouse shipyard');
  await page.getByRole('button', { name: 'Ask' }).click();
  const contextual = column(page, 'Contextual chunks');
  await expect(contextual.locator('article.block').first()).toBeVisible({ timeout: 60_000 });
  await expect(contextual).toContainText(/contexts cover \d of 9 sentences: the other \d are retrieved by their plain text/, { timeout: 30_000 });
  const withContext = contextual.getByLabel('Situating context');
  await expect(withContext.first()).toContainText(/this part of "Harbour log The ferry" is about /);
  await expect(withContext.first()).toContainText(`endpoint slow at ${new URL(mock.url).host}`);
  await expect(contextual.getByText('no context: retrieved by its plain text').first()).toBeVisible();

  // A second run sends only the units still without a context.
  await expect(panel.getByLabel('Before writing contexts')).toContainText(/calls? to the generator, one per sentence without a context \(\d have one\)/, { timeout: 30_000 });
  await panel.getByRole('button', { name: 'Write contexts' }).click();
  await expect(panel.getByText(/^Done · /)).toBeVisible({ timeout: 60_000 });
  // Every sentence was sent, and none twice but the one whose call the cancel stopped (its reply was never kept).
  const chunks = sentChunks();
  const times = new Map<string, number>();
  for (const c of chunks) times.set(c, (times.get(c) ?? 0) + 1);
  expect(times.size).toBe(9);
  expect([...times.values()].filter((n) => n > 1).length).toBeLessThanOrEqual(1);
  expect(Math.max(...times.values())).toBeLessThanOrEqual(2);
  await expect(panel.getByLabel('Contexts written')).toContainText('Contexts: 9 of 9 sentences', { timeout: 30_000 });
  await expect(contextual).not.toContainText('contexts cover', { timeout: 30_000 });

  // Used: every context names the document ("Harbour log"), so BM25 finds every sentence by that word in the
  // Contextual chunks column, and only the heading in the plain Sentence hits column.
  await page.getByLabel('Question', { exact: true }).fill('harbour');
  await page.getByRole('button', { name: 'Ask' }).click();
  await expect(contextual.locator('article.block')).toHaveCount(9, { timeout: 30_000 });
  await expect(column(page, 'Sentence hits').locator('article.block')).toHaveCount(1);

  // Edited by hand: the block says so.
  const first = contextual.locator('article.block').first();
  await first.getByRole('button', { name: 'edit' }).click();
  await first.getByLabel(/^Context of this sentence/).fill('Payment records of the ferry company.');
  await first.getByRole('button', { name: 'Save context' }).click();
  await expect(contextual.getByLabel('Situating context').filter({ hasText: 'Payment records of the ferry company.' })).toContainText('edited by you', { timeout: 30_000 });

  // Kept across a reload: nothing is sent again.
  const before = mock.requests.length;
  await page.reload();
  await expect(docs.getByText('ready')).toHaveCount(1, { timeout: 120_000 });
  await page.getByRole('region', { name: 'Contextual retrieval' }).getByLabel('Units').selectOption('sentence');
  // Their vectors too, read back from the browser (contextual-vectors-reload.spec.ts counts that none is embedded again).
  await expect(page.getByRole('region', { name: 'Contextual retrieval' }).getByLabel('Contexts written')).toContainText('Contexts: 9 of 9 sentences (9 embedded)', { timeout: 30_000 });
  expect(mock.requests.length).toBe(before);
  expect(outside).toEqual([]);
});
