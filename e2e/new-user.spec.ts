import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Page, type TestInfo } from '@playwright/test';

/**
 * A new user's path through the built app, with the generated test models served from
 * the app's own /models/ folder: choose models, drop a PDF, a Markdown file and a Chinese
 * document, ask, read every column, widen the window, switch headers on, open a block,
 * reload. Screenshots of each step are kept in test-results/. Nothing may leave 127.0.0.1.
 */

import { ORIGIN } from './origin';
const samples = resolve(import.meta.dirname, '../public/samples');
const file = (name: string, mimeType: string) => ({ name, mimeType, buffer: readFileSync(resolve(samples, name)) });

const COLUMNS = ['Sentence hits', 'Sentence windows', 'Auto-merged parents', 'Adaptive windows', 'Relevant segments', 'Hybrid RRF', 'Reranked', 'Naive chunks'];

let step = 0;
async function shot(page: Page, info: TestInfo, name: string): Promise<void> {
  step++;
  await page.screenshot({ path: info.outputPath(`${String(step).padStart(2, '0')}-${name}.png`), fullPage: true });
}

function column(page: Page, name: string) {
  return page.getByRole('region', { name: new RegExp(`^${name}`) });
}

async function chooseModel(page: Page, role: 'Embedding model' | 'Reranker', label: RegExp): Promise<void> {
  const panel = page.getByRole('region', { name: 'Models' });
  const select = panel.getByLabel(role, { exact: true });
  const value = await select.locator('option', { hasText: label }).first().getAttribute('value');
  await select.selectOption(value!);
}

test('a new user indexes three documents, compares every strategy, tunes, and finds the corpus after a reload', async ({ page, context }, info) => {
  test.setTimeout(240_000);
  const outside: string[] = [];
  context.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(ORIGIN) && !url.startsWith('blob:') && !url.startsWith('data:')) outside.push(url);
  });

  // The test models, like any self-hosted model, come from ./models/ (no hub on this machine).
  await page.goto('/?em=rag-lab/test-embedder~fp32~wasm~local&rm=rag-lab/test-reranker~fp32~wasm~local');
  const models = page.getByRole('region', { name: 'Models' });
  await expect(models.getByText(/TEST MODEL — random vectors/)).toHaveCount(2, { timeout: 60_000 });
  await shot(page, info, 'open');

  await page.locator('input[type=file]').setInputFiles([
    file('faa_amt_handbook_p7-45.pdf', 'application/pdf'),
    file('factbook_portugal.md', 'text/markdown'),
    file('prc_personal_information_protection_law.md', 'text/markdown'),
  ]);
  const docs = page.getByRole('list', { name: 'Indexed documents' });
  await expect(docs.locator('li.doc:not(.pending)')).toHaveCount(3, { timeout: 60_000 });
  await expect(docs.getByText('ready')).toHaveCount(3, { timeout: 120_000 });
  await expect(docs).toContainText('zh');
  await shot(page, info, 'indexed');

  await page.getByLabel('Question', { exact: true }).fill('How do self-locking nuts stay tight despite vibration?');
  await page.getByRole('button', { name: 'Ask' }).click();
  for (const name of COLUMNS) {
    const col = column(page, name);
    await expect(col).toBeVisible();
    await expect(col.locator('article.block').first()).toBeVisible();
  }
  for (const name of COLUMNS.filter((c) => c !== 'Naive chunks')) {
    await expect(column(page, name).locator('mark').first()).toBeVisible();
  }
  await expect(column(page, 'Sentence hits').locator('mark').first()).toContainText(/nut/i);
  await expect(column(page, 'Hybrid RRF')).toContainText(/BM25 #\d/);
  await expect(column(page, 'Reranked')).toContainText(/rerank/i);
  // Window coherence: similarity of the window's sentences to the question and to each other.
  await expect(column(page, 'Sentence windows')).toContainText(/coherence: question -?\d\.\d{2}, sentences -?\d\.\d{2}/);
  await expect(column(page, 'Adaptive windows')).toContainText(/grew −\d+\/\+\d+ \(by vector similarity\)/);
  await expect(column(page, 'Relevant segments')).toContainText(/segment value \d/);
  await shot(page, info, 'columns');

  // Widening the window hands over more sentences around the same hit: no re-embedding.
  const windowCol = column(page, 'Sentence windows');
  const firstWindow = windowCol.locator('article.block').first();
  const before = (await firstWindow.innerText()).length;
  await page.getByLabel('Window after').fill('8');
  await page.getByLabel('Window before').fill('8');
  await expect.poll(async () => (await firstWindow.innerText()).length, { timeout: 15_000 }).toBeGreaterThan(before);
  await shot(page, info, 'wider-window');

  // The k-d tree index gives the same vector hits: vectors move over, nothing is re-embedded.
  const firstHit = await column(page, 'Sentence hits').locator('article.block').first().innerText();
  await page.getByLabel('Vector index').selectOption('voy');
  await expect(page).toHaveURL(/ix=voy/);
  await expect.poll(async () => column(page, 'Sentence hits').locator('article.block').first().innerText(), { timeout: 30_000 }).toBe(firstHit);
  await page.getByLabel('Vector index').selectOption('flat');

  // Contextual headers change the embedded text: the worker re-embeds, then blocks carry headers.
  await page.getByLabel('Contextual chunk headers').check();
  await expect(column(page, 'Sentence hits').getByText(/Document context: the following excerpt is from a document titled/).first()).toBeVisible({ timeout: 120_000 });
  await expect(docs.getByText('ready')).toHaveCount(3, { timeout: 120_000 });
  await shot(page, info, 'headers-on');

  // A block opens in the document view, with the hit drawn inside its range.
  await column(page, 'Sentence windows').locator('article.block').first().click();
  const view = page.getByRole('complementary', { name: 'Document view' });
  await expect(view).toBeVisible();
  await expect(view.locator('mark, .range-hit').first()).toBeVisible({ timeout: 15_000 });
  await shot(page, info, 'document-view');

  // Everything is still there after a reload.
  await page.reload();
  await expect(page.getByRole('list', { name: 'Indexed documents' }).locator('li.doc:not(.pending)')).toHaveCount(3, { timeout: 60_000 });
  await expect(page.getByLabel('Question', { exact: true })).toHaveValue('How do self-locking nuts stay tight despite vibration?');
  await expect(column(page, 'Sentence hits').locator('mark').first()).toBeVisible({ timeout: 60_000 });
  await shot(page, info, 'after-reload');

  expect(outside, 'requests that left 127.0.0.1').toEqual([]);
});
