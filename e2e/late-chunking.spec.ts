import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';

/**
 * Late chunking in the page (docs/context-techniques.md): the structure switch makes the
 * late-chunked vectors in the background, the vector and hybrid columns say they use them, a
 * reload keeps the switch and the vectors (nothing embedded again), switching back to plain
 * embeds nothing, and the evaluation lab compares late chunking off and on, each with its interval.
 */
const DOC = [
  '# Harbour log',
  '',
  'The ferry left the northern pier at dawn. Gulls followed the wake for an hour.',
  'The captain logged a strong westerly wind. Cargo included apples and copper wire.',
  '',
  '## Repairs',
  '',
  'At noon the engine overheated near the lighthouse. A tug towed the ferry to the shipyard.',
  'Repairs took three days. The owners paid the mechanics in silver coins.',
].join('\n');

/** One article of XQuAD as a SQuAD-format set, made at test time from the shared data (not shipped). */
function smallSquad(): Buffer {
  const shared = process.env.RAG_LAB_SHARED_DATA ?? resolve(import.meta.dirname, '../../shared/data');
  const xquad = JSON.parse(readFileSync(resolve(shared, 'xquad/xquad.en.json'), 'utf8')) as { data: { paragraphs: unknown[] }[] };
  const article = xquad.data[0]!;
  return Buffer.from(JSON.stringify({ version: 'e2e', data: [{ ...article, paragraphs: article.paragraphs.slice(0, 4) }] }));
}

const banner = (page: Page) => page.getByRole('banner');
const notes = (page: Page, column: RegExp) => page.getByRole('region', { name: column }).getByRole('list', { name: 'Notes' });
const LATE_NOTE = /late-chunked vectors: each unit's vector pools its own tokens/;

test('late chunking: made in the background, said in the columns, kept across a reload, compared off and on in the evaluation lab', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto('/?em=rag-lab/test-embedder~fp32~wasm~local');
  const models = page.getByRole('region', { name: 'Models' });
  await expect(models.getByText('Ready: rag-lab/test-embedder · 128 dimensions')).toBeVisible({ timeout: 60_000 });
  await page.locator('input[type=file]').setInputFiles([{ name: 'harbour.md', mimeType: 'text/markdown', buffer: Buffer.from(DOC) }]);
  const docs = page.getByRole('list', { name: 'Indexed documents' });
  await expect(docs.getByText('ready', { exact: true })).toHaveCount(1, { timeout: 120_000 });
  await expect(page.getByRole('button', { name: 'Pause embedding' })).toHaveCount(0, { timeout: 120_000 });
  await page.getByLabel('Question', { exact: true }).fill('What towed the ferry?');
  await page.getByRole('button', { name: 'Ask' }).click();
  const hits = page.getByRole('region', { name: /^Sentence hits/ });
  await expect(hits.locator('article.block').first()).toBeVisible({ timeout: 60_000 });
  await expect(hits).not.toContainText(LATE_NOTE);

  // On: the late-chunked vectors are made in the background, then the columns use them and say so.
  const late = page.getByLabel('Late chunking', { exact: true });
  await expect(late).toBeEnabled();
  await late.check();
  await expect(notes(page, /^Sentence hits/)).toContainText(LATE_NOTE, { timeout: 60_000 });
  await expect(notes(page, /^Hybrid RRF/)).toContainText(LATE_NOTE);
  await expect(page.getByRole('button', { name: 'Pause embedding' })).toHaveCount(0, { timeout: 120_000 });
  await expect(docs.getByText('ready', { exact: true })).toHaveCount(1);
  await expect(hits).not.toContainText(/vector search covers|BM25 results only/, { timeout: 30_000 });
  await expect(hits.locator('article.block').first()).toBeVisible();
  await expect(page.getByRole('region', { name: /^Hybrid RRF/ }).locator('article.block').first()).toBeVisible();
  expect(new URL(page.url()).searchParams.get('lc')).toBe('1');

  // A reload keeps the switch and the late vectors: nothing to embed again.
  await page.reload();
  await expect(banner(page)).toContainText('nothing to embed again', { timeout: 60_000 });
  await expect(late).toBeChecked();
  await page.getByRole('button', { name: 'Ask' }).click();
  await expect(notes(page, /^Sentence hits/)).toContainText(LATE_NOTE, { timeout: 60_000 });
  await expect(hits).not.toContainText(/vector search covers|BM25 results only/);

  // Back to plain: its vectors were kept, so nothing is embedded and the note goes.
  await late.uncheck();
  await expect(hits).not.toContainText(LATE_NOTE, { timeout: 30_000 });
  await expect(hits).not.toContainText(/vector search covers|BM25 results only/);
  await expect(banner(page)).toContainText('Embedded since: 0 units');
  await late.check();
  await expect(notes(page, /^Sentence hits/)).toContainText(LATE_NOTE, { timeout: 30_000 });

  // The evaluation lab: one XQuAD article (it becomes the corpus), naive chunks and sentence hits, late chunking off then on.
  await page.getByRole('tab', { name: 'Evaluate on a labelled set' }).click();
  const lab = page.getByRole('region', { name: 'Evaluation lab' });
  await lab.getByLabel('Labelled set').setInputFiles({ name: 'small-squad.json', mimeType: 'application/json', buffer: smallSquad() });
  await expect(lab).toContainText('small-squad.json');
  const strategies = lab.getByRole('group', { name: 'Strategies' }).getByRole('checkbox');
  for (let i = 2; i < (await strategies.count()); i++) await strategies.nth(i).uncheck();
  const sweep = lab.getByRole('group', { name: 'Sweep' });
  for (const box of await sweep.getByRole('checkbox').all()) if (!(await box.isDisabled())) await box.uncheck();
  await lab.getByLabel('Budgets (tokens)').fill('256');
  await sweep.getByLabel(/Late chunking off and on/).check();
  await expect(lab.getByLabel('Estimate')).toContainText('(late chunking off, then on)');
  await lab.getByRole('button', { name: 'Run evaluation' }).click();
  const table = lab.getByRole('table', { name: 'Variants compared' });
  await expect(table).toBeVisible({ timeout: 180_000 });
  for (const strategy of ['naive chunks', 'sentence hits']) {
    for (const variant of ['late chunking off', 'late chunking on']) {
      const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: strategy, exact: true }) }).filter({ hasText: variant });
      // One best point per strategy, budget and variant, with its 95 % interval.
      await expect(row).toHaveCount(1);
      await expect(row).toContainText(/\d\.\d{3}–\d\.\d{3}/);
    }
  }
  // The 'on' rows carry their paired difference from the same point with plain vectors.
  await expect(table.getByRole('row').filter({ hasText: 'late chunking on' }).first()).toContainText(/[+−±]\d\.\d{3} to [+−±]\d\.\d{3}/);

  // A static model gives no token vectors: both switches are off and disabled, with its reason.
  await page.goto('/?em=rag-lab/test-static-embedder~fp32~wasm~local&lc=1');
  await expect(models.getByText('Ready: rag-lab/test-static-embedder · 128 dimensions')).toBeVisible({ timeout: 60_000 });
  await expect(late).toBeDisabled();
  await expect(late).not.toBeChecked();
  await expect(page.getByRole('note', { name: 'Late chunking not available' })).toHaveText(/^Late chunking is not available for rag-lab\/test-static-embedder: it is a static model/);
  await page.getByRole('tab', { name: 'Evaluate on a labelled set' }).click();
  await expect(lab.getByRole('group', { name: 'Sweep' }).getByLabel(/Late chunking off and on/)).toBeDisabled();
  await expect(lab.getByRole('group', { name: 'Sweep' })).toContainText('it is a static model');
});
