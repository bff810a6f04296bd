import { expect, test } from '@playwright/test';
import { documentFromText } from '../src/core/documents/load';
import { RetrievalEngine } from '../src/core/engine';
import { exportBundle } from '../src/core/export/bundle';
import { zipBundle } from '../src/worker/bundle-zip';
import { ORIGIN } from './origin';

const md = (name: string, body: string) => ({ name, mimeType: 'text/markdown', buffer: Buffer.from(`# ${name}\n\n${body}`) });

test('the worker crashes mid-indexing: it is restarted, indexed documents are kept, the failed files can be retried', async ({ page }) => {
  test.setTimeout(120_000);
  // #faults: a file named __crash__ makes the first worker throw while indexing it.
  await page.goto('/?em=none#faults');
  await page.locator('input[type=file]').setInputFiles([
    md('alpha.md', 'Alpha documents mention the word quokka.'),
    md('beta.md', 'Beta documents mention the word axolotl.'),
    md('__crash__.md', 'This file brings the worker down.'),
    md('gamma.md', 'Gamma documents mention the word pangolin.'),
  ]);
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('the worker stopped', { timeout: 30_000 });
  await expect(alert).toContainText('the documents indexed before are kept');
  await expect(alert).toContainText('Not indexed: __crash__.md, gamma.md');
  const list = page.getByRole('list', { name: 'Indexed documents' });
  await expect(list.locator('li.doc:not(.pending)')).toHaveCount(2, { timeout: 30_000 });
  await expect(list).toContainText('alpha.md');
  await expect(list).toContainText('beta.md');

  // The restarted worker answers questions over what was kept.
  await page.getByLabel('Question', { exact: true }).fill('axolotl');
  await page.getByRole('button', { name: 'Ask' }).click();
  await expect(page.getByRole('region', { name: /^Sentence hits/ }).locator('mark').first()).toContainText('axolotl');

  // Retry: the new worker has no fault injection, so both files go in.
  await page.getByRole('button', { name: 'Retry 2 files' }).click();
  await expect(list.locator('li.doc:not(.pending)')).toHaveCount(4, { timeout: 30_000 });
  await expect(list).toContainText('gamma.md');
});

test('a file over the size limit is refused before it is read, with the limit stated', async ({ page }) => {
  await page.goto('/?em=none');
  // 101 MB of zeros, made in the page: nothing this size is sent to the worker.
  await page.evaluate(() => {
    const input = document.querySelector('input[type=file]') as HTMLInputElement;
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(101 * 1024 * 1024)], 'huge.txt', { type: 'text/plain' }));
    dt.items.add(new File(['Small files still go in.'], 'small.txt', { type: 'text/plain' }));
    input.files = dt.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await expect(page.getByRole('alert')).toContainText('huge.txt: the file is 101.0 MB; the limit is 100 MB');
  await expect(page.getByRole('list', { name: 'Indexed documents' }).locator('li.doc:not(.pending)')).toHaveCount(1);
});

test('with a storage quota of one byte the app keeps working in memory and says persistence is off', async ({ page, context }) => {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: ORIGIN, quotaSize: 1 });
  await page.goto('/?em=none');
  await page.locator('input[type=file]').setInputFiles([md('kept.md', 'Quolls are marsupials that live in Australia and New Guinea.')]);
  await expect(page.getByRole('banner')).toContainText('Persistence is off (the browser storage quota is full): work is kept in memory only.', { timeout: 30_000 });
  await page.getByLabel('Question', { exact: true }).fill('Where do quolls live?');
  await page.getByRole('button', { name: 'Ask' }).click();
  await expect(page.getByRole('region', { name: /^Sentence hits/ }).locator('mark').first()).toContainText('Quolls');
});

test('the tab closes while a bundle import is being stored: after a reload the page names it, and what was stored before is kept', async ({ page }) => {
  test.setTimeout(120_000);
  // A small BM25-only bundle, made in Node the way the app exports one.
  const engine = new RetrievalEngine();
  engine.addDocuments([documentFromText('# Bundled\n\nBundled documents mention the word okapi.', 'bundled.md', 'md')]);
  const { files } = await exportBundle(engine, { strategy: 'window', params: { retriever: 'bm25' }, questions: [{ question: 'okapi' }], labVersion: 'e2e' });
  const zip = Buffer.from(await (await zipBundle(files)).arrayBuffer());

  // #faults: a bundle named __crash__ is read and adopted, then never stored, as if the tab closed then.
  await page.goto('/?em=none#faults');
  await page.locator('input[type=file]').setInputFiles([md('kept.md', 'Kept documents mention the word quokka.')]);
  const list = page.getByRole('list', { name: 'Indexed documents' });
  await expect(list.locator('li.doc:not(.pending)')).toHaveCount(1, { timeout: 30_000 });
  await page.locator('input[type=file]').setInputFiles([{ name: '__crash__bundle.zip', mimeType: 'application/zip', buffer: zip }]);
  // The import's corpus is searchable while it is being stored.
  await expect(list.locator('li.doc:not(.pending)')).toHaveCount(2, { timeout: 30_000 });
  await page.reload();
  await expect(page.getByText("The bundle '__crash__bundle.zip' was still being stored when the page closed: drop it again.")).toBeVisible({ timeout: 30_000 });
  await expect(list.locator('li.doc:not(.pending)')).toHaveCount(1, { timeout: 30_000 });
  await expect(list).toContainText('kept.md');

  // Dropped again, it is imported and kept; the notice goes.
  await page.locator('input[type=file]').setInputFiles([{ name: 'bundle.zip', mimeType: 'application/zip', buffer: zip }]);
  await expect(page.locator('.bundle-import')).toContainText('Imported bundle.zip', { timeout: 30_000 });
  await expect(page.getByText('was still being stored')).toHaveCount(0);
  await page.reload();
  await expect(list.locator('li.doc:not(.pending)')).toHaveCount(2, { timeout: 30_000 });
  await expect(page.getByText('was still being stored')).toHaveCount(0);
});
