import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';

/**
 * Take the tuned design out of the lab and bring it back: export the sample corpus and a
 * column from the app (a .zip download), check it in PostgreSQL inside the tab (PGlite +
 * pgvector in a worker), clear everything, import the zip: the same question gives the same
 * blocks in every column, with nothing re-embedded. A damaged zip is refused with one
 * message and changes nothing; after a reload the imported corpus is still there, embedded.
 * Nothing may leave 127.0.0.1.
 */

import { ORIGIN } from './origin';
const QUESTION = 'What are the characteristics of trustworthy AI?';

const docList = (page: Page) => page.getByRole('list', { name: 'Indexed documents' });
const indexed = (page: Page) => docList(page).locator('li.doc:not(.pending)');
const exportPanel = (page: Page) => page.getByRole('region', { name: 'Export' });

/**
 * Every column's label and its blocks in order: each block's name (rank and document) and its whole text. A long
 * column draws some blocks light (windowing.ts), and which ones depends on where the strip was when the answer came
 * (a column answered as before keeps how it was drawn): the text read here is the same either way.
 */
async function columnsText(page: Page): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const col of await page.locator('section.column').all()) {
    const label = (await col.getAttribute('aria-label')) ?? '?';
    out[label] = await col.locator('article.block').evaluateAll((blocks) => blocks.map((b) => `${b.getAttribute('aria-label')}\n${b.querySelector('.block-text')?.textContent ?? ''}`));
  }
  return out;
}

/**
 * The columns' text once the page is at rest: no column, block or the strip busy (a block's text past its head joins
 * a frame after it, a long column's last blocks a few frames after the first), read twice alike. A column can search
 * again by itself between two reads (vectors arriving), and a read in the middle would see blocks with only their heads.
 */
async function settledText(page: Page): Promise<Record<string, string[]>> {
  let last: Record<string, string[]> | null = null;
  await expect
    .poll(
      async () => {
        await expect(page.getByRole('group', { name: 'Strategy columns' })).toHaveAttribute('aria-busy', 'false');
        await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
        const now = await columnsText(page);
        const same = last !== null && JSON.stringify(now) === JSON.stringify(last);
        last = now;
        return same;
      },
      { timeout: 60_000, intervals: [250, 500, 1_000] },
    )
    .toBe(true);
  return last!;
}

async function ask(page: Page): Promise<Record<string, string[]>> {
  await page.getByLabel('Question', { exact: true }).fill(QUESTION);
  await page.getByRole('button', { name: 'Ask' }).click();
  await expect(page.getByRole('region', { name: /^Sentence hits/ }).locator('article.block').first()).toBeVisible({ timeout: 30_000 });
  return settledText(page);
}

/**
 * ask() until no column is still waiting for vectors: semantic chunks are cut after the other
 * kinds are embedded (after an import too: a bundle does not carry them), and a column says so
 * in a note until they and their vectors are there.
 */
async function askSettled(page: Page): Promise<Record<string, string[]>> {
  await expect
    .poll(
      async () => {
        await ask(page);
        return page.locator('section.column', { hasText: /embedding continues|vectors yet/ }).count();
      },
      { timeout: 180_000, intervals: [1_000, 2_000, 5_000] },
    )
    .toBe(0);
  return settledText(page);
}

test('export the sample corpus as a bundle, verify it in Postgres in the tab, clear, import it: the same blocks', async ({ page, context }, info) => {
  test.setTimeout(420_000);
  const outside: string[] = [];
  context.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(ORIGIN) && !url.startsWith('blob:') && !url.startsWith('data:')) outside.push(url);
  });
  page.on('dialog', (d) => void d.accept());
  const timings: Record<string, number> = {};
  const time = async <T,>(name: string, f: () => Promise<T>): Promise<T> => {
    const t = Date.now();
    const r = await f();
    timings[name] = Date.now() - t;
    return r;
  };

  await page.goto('/?em=rag-lab/test-embedder~fp32~wasm~local');
  await expect(page.getByRole('region', { name: 'Models' }).getByText(/TEST MODEL — random vectors/)).toBeVisible({ timeout: 60_000 });
  await time('load and embed the sample corpus', async () => {
    await page.getByRole('button', { name: 'Load sample corpus' }).click();
    await expect(indexed(page)).toHaveCount(8, { timeout: 120_000 });
    await expect(docList(page).getByText('ready', { exact: true })).toHaveCount(8, { timeout: 240_000 });
  });
  const before = await askSettled(page);
  expect(Object.keys(before).length).toBeGreaterThanOrEqual(8);
  expect(before[Object.keys(before).find((k) => k.startsWith('Sentence windows'))!]!.length).toBeGreaterThan(0);

  // Export the hybrid RRF column (sentence windows over BM25 + vectors; the first column is
  // the default) with the current question and one more.
  const panel = exportPanel(page);
  await expect(panel.getByLabel('Column to export')).toHaveValue('sentence');
  await panel.getByLabel('Column to export').selectOption('hybrid');
  // The sample corpus brings its question set, which the golden run would take by default.
  await panel.getByLabel('Golden run questions from').selectOption({ label: 'The current question and typed ones' });
  await panel.getByLabel('Golden run: more to ask, one per line').fill('How should AI risks be measured?');
  const download = await time('export', async () => {
    const waiting = page.waitForEvent('download', { timeout: 180_000 });
    await panel.getByRole('button', { name: 'Export bundle' }).click();
    return waiting;
  });
  expect(download.suggestedFilename()).toMatch(/^rag-lab-bundle-\d{4}-\d{2}-\d{2}\.zip$/);
  const zipPath = info.outputPath(download.suggestedFilename());
  await download.saveAs(zipPath);
  const zip = readFileSync(zipPath);
  expect(zip.subarray(0, 2).toString()).toBe('PK');
  const summary = panel.getByLabel('Exported bundle');
  await expect(summary).toContainText(/8 documents/);
  await expect(summary).toContainText(/vectors: sentences, leaves, naive chunks, sentence-packed chunks \(rag-lab\/test-embedder\)/);
  await expect(summary).toContainText(/2 golden questions × 12 runs/);
  await expect(summary).toContainText(/Verified by this project's tests:.*PostgreSQL \+ pgvector/);
  await expect(summary).toContainText(/Generated only:.*Haystack/);

  // The check in PostgreSQL, in a worker of this tab, on the very zip that was downloaded.
  await time('verify in Postgres', async () => {
    await panel.getByRole('button', { name: 'Verify in Postgres' }).click();
    await expect(panel.getByLabel('Postgres check').getByRole('status')).toContainText('Agreement: 100 %', { timeout: 180_000 });
  });
  const report = panel.getByLabel('Postgres check');
  await expect(report.locator('tbody tr')).toHaveCount(12);
  for (const row of await report.locator('tbody tr').all()) {
    // Same ranked ids and same blocks for both questions, in every run.
    await expect(row.locator('td').nth(0)).toHaveText('2/2');
    await expect(row.locator('td').nth(1)).toHaveText('2/2');
  }
  await expect(report).toContainText(/PostgreSQL 1\d\.\d+ with pgvector 0\.\d/);
  // The sidebar scrolls within the window: a tall window shows the whole panel.
  await page.setViewportSize({ width: 1400, height: 3200 });
  await panel.screenshot({ path: info.outputPath('export-panel-verified.png') });
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.screenshot({ path: info.outputPath('export-verified-page.png'), fullPage: true });

  // Clear everything, then bring the bundle back by dropping it on Documents.
  await page.getByRole('button', { name: 'Clear everything' }).click();
  await expect(page.getByRole('region', { name: 'Documents' }).getByText('No documents yet.')).toBeVisible();
  await time('import', async () => {
    // The saved file by its path: Playwright hands a local browser the path, where a buffer of 14 MB travels through
    // its protocol (6.5 s of this step's 7.8 s).
    await page.locator('input[type=file]').setInputFiles(zipPath);
    await expect(page.getByRole('region', { name: 'Documents' }).getByText(/Imported rag-lab-bundle-.*8 documents added.*nothing re-embedded/)).toBeVisible({ timeout: 120_000 });
  });
  await expect(indexed(page)).toHaveCount(8);
  // Every unit already has its vector: nothing waits to be embedded.
  await expect(docList(page).getByText('ready', { exact: true })).toHaveCount(8, { timeout: 5_000 });
  const after = await askSettled(page);
  expect(after).toEqual(before);
  await page.screenshot({ path: info.outputPath('after-import.png'), fullPage: true });

  // A damaged bundle is refused with one message; the corpus stays as it is.
  const damaged = info.outputPath('damaged.zip');
  writeFileSync(damaged, zip.subarray(0, Math.floor(zip.length / 2)));
  await page.locator('input[type=file]').setInputFiles(damaged);
  await expect(page.getByRole('region', { name: 'Documents' }).getByRole('alert')).toContainText(/damaged\.zip: the zip cannot be read: .*; the corpus is unchanged\./);
  await expect(indexed(page)).toHaveCount(8);
  expect(await askSettled(page)).toEqual(before);

  // The imported documents and vectors are kept like indexed ones: after a reload they are back, embedded.
  await page.reload();
  await expect(indexed(page)).toHaveCount(8, { timeout: 60_000 });
  await expect(docList(page).getByText('ready', { exact: true })).toHaveCount(8, { timeout: 60_000 });
  expect(await askSettled(page)).toEqual(before);

  expect(outside, 'requests that left 127.0.0.1').toEqual([]);
  info.annotations.push({ type: 'timings (ms)', description: JSON.stringify(timings) });
  console.log('export.spec timings (ms):', JSON.stringify(timings), 'zip bytes:', zip.length);
});
