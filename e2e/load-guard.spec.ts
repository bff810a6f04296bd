import { expect, test, type Page } from '@playwright/test';
import { documentFromText } from '../src/core/documents/load';
import { RetrievalEngine } from '../src/core/engine';
import { exportBundle } from '../src/core/export/bundle';
import { zipBundle } from '../src/worker/bundle-zip';

/**
 * Bad input, nothing lost: a corpus too large for the tab is refused before it is loaded, with
 * what it needs and what the tab has; what is indexed stays and answers. Loading can be cancelled.
 */

type Upload = { name: string; mimeType: string; buffer: Buffer };
const md = (name: string, body: string): Upload => ({ name, mimeType: 'text/markdown', buffer: Buffer.from(`# ${name}\n\n${body}`) });

const indexed = (page: Page) => page.getByRole('list', { name: 'Indexed documents' }).locator('li.doc:not(.pending)');
const problems = (page: Page) => page.getByRole('region', { name: 'Documents' }).getByRole('alert');
const drop = (page: Page, files: Upload[]) => page.locator('input[type=file]').setInputFiles(files);

/** Asks a question and returns the first sentence hit's highlighted words. */
async function firstHit(page: Page, question: string) {
  await page.getByLabel('Question', { exact: true }).fill(question);
  await page.getByRole('button', { name: 'Ask' }).click();
  return page.getByRole('region', { name: /^Sentence hits/ }).locator('mark').first();
}

/** A small BM25-only bundle, made in Node the way the app exports one; `edit` changes its manifest. */
async function bundleZip(edit: (manifest: Record<string, unknown>) => void = () => undefined): Promise<Buffer> {
  const engine = new RetrievalEngine();
  engine.addDocuments([documentFromText('# Bundled\n\nBundled documents mention the word okapi.', 'bundled.md', 'md')]);
  const { files } = await exportBundle(engine, { strategy: 'window', params: { retriever: 'bm25' }, questions: [{ question: 'okapi' }], labVersion: 'e2e' });
  const out = files.map((f) => {
    if (f.name !== 'manifest.json') return f;
    const manifest = JSON.parse(new TextDecoder().decode(f.bytes)) as Record<string, unknown>;
    edit(manifest);
    return { name: f.name, bytes: new TextEncoder().encode(JSON.stringify(manifest)) };
  });
  return Buffer.from(await (await zipBundle(out)).arrayBuffer());
}

/** Indexes one document and checks it answers. */
async function keepOne(page: Page): Promise<void> {
  await drop(page, [md('kept.md', 'Kept documents mention the word quokka.')]);
  await expect(indexed(page)).toHaveCount(1, { timeout: 30_000 });
  await expect(await firstHit(page, 'quokka')).toContainText('quokka');
}

test('a bundle too large for the tab is refused from its manifest with what it needs and what the tab has; what is indexed still answers', async ({ page }) => {
  test.setTimeout(120_000);
  // A manifest claiming 50 million sentences: the refusal must come from it, before any table is read.
  const huge = await bundleZip((m) => {
    (m.corpus as Record<string, number>).sentences = 50_000_000;
    (m.corpus as Record<string, number>).leaves = 16_000_000;
    (m.corpus as Record<string, number>).chunks = 12_000_000;
  });
  await page.goto('/?em=none');
  await keepOne(page);
  await drop(page, [{ name: 'huge.zip', mimeType: 'application/zip', buffer: huge }]);
  await expect(problems(page)).toContainText("'huge.zip' needs about", { timeout: 30_000 });
  const text = (await problems(page).locator('li').first().textContent()) ?? '';
  expect(text).toMatch(
    /^'huge\.zip' needs about [\d.]+ GB in this tab while it loads \([\d.]+ GB once loaded: 50,000,000 sentences\); this tab can hold about [\d.]+ GB \((3\/4 of the [\d.]+ GB of memory this device reports|assumed: this browser does not say how much memory the device has)\) and already holds [\d.]+ kB\. Nothing was loaded; what is indexed stays\.$/,
  );
  test.info().annotations.push({ type: 'refusal', description: text });
  await expect(indexed(page)).toHaveCount(1);
  await expect(await firstHit(page, 'quokka')).toContainText('quokka');

  // Load anyway, on purpose: the real tables are small, so it loads.
  await page.getByRole('button', { name: 'Load huge.zip anyway' }).click();
  await expect(indexed(page)).toHaveCount(2, { timeout: 30_000 });
  await expect(await firstHit(page, 'okapi')).toContainText('okapi');
});

test('a dropped file too large for the tab is refused alone, estimated from its size; the others of the drop go in', async ({ page }) => {
  // #budget= sets the tab's budget on purpose (only from the address's hash): 1 MB here.
  await page.goto('/?em=none#budget=1MB');
  const big = { name: 'big.txt', mimeType: 'text/plain', buffer: Buffer.from('The harbour logbook lists ships and tides. '.repeat(10_000)) };
  await drop(page, [big, md('small.md', 'Small files mention the word axolotl.')]);
  await expect(problems(page)).toContainText("'big.txt' needs about", { timeout: 30_000 });
  // 430,000 bytes of text: 100 characters a sentence.
  await expect(problems(page)).toContainText('(3.3 MB once loaded: about 4,300 sentences, estimated from its 430.0 kB file)');
  await expect(problems(page)).toContainText('this tab can hold about 1.0 MB (the budget set by #budget= in the address) and holds nothing yet. Nothing was loaded; what is indexed stays.');
  await expect(indexed(page)).toHaveCount(1, { timeout: 30_000 });
  await expect(await firstHit(page, 'axolotl')).toContainText('axolotl');
});

test('cancelling a bundle import leaves the corpus as it was, answering, with nothing half-stored', async ({ page }) => {
  test.setTimeout(120_000);
  const zip = await bundleZip();
  // #faults: a bundle named __slow__ has its table reads held back until it is cancelled (at most a minute).
  await page.goto('/?em=none#faults');
  await keepOne(page);
  await drop(page, [{ name: '__slow__bundle.zip', mimeType: 'application/zip', buffer: zip }]);
  await expect(page.getByRole('status').filter({ hasText: 'Importing __slow__bundle.zip' })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Cancel loading __slow__bundle.zip' }).click();
  await expect(problems(page)).toContainText("Loading '__slow__bundle.zip' cancelled; nothing was added.", { timeout: 15_000 });
  await expect(page.getByRole('button', { name: /^Cancel loading/ })).toHaveCount(0);
  await expect(indexed(page)).toHaveCount(1);
  await expect(await firstHit(page, 'quokka')).toContainText('quokka');

  // After a reload: the same corpus from storage, and no "still being stored" notice.
  await page.reload();
  await expect(indexed(page)).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByText('was still being stored when the page closed')).toHaveCount(0);
  await expect(await firstHit(page, 'quokka')).toContainText('quokka');
});
