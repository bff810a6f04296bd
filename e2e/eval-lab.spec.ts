import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';

/** A small SQuAD-format set made at test time from the shared XQuAD data (not shipped). */
function smallSquad(): Buffer {
  const shared = process.env.RAG_LAB_SHARED_DATA ?? resolve(import.meta.dirname, '../../shared/data');
  const xquad = JSON.parse(readFileSync(resolve(shared, 'xquad/xquad.en.json'), 'utf8')) as { data: unknown[] };
  return Buffer.from(JSON.stringify({ version: 'e2e', data: xquad.data.slice(0, 2) }));
}

test('import a SQuAD-format set, run a sweep, see the charts and the recommendation, drill into a question', async ({ page }, info) => {
  test.setTimeout(240_000);
  await page.goto('/?em=rag-lab/test-embedder~fp32~wasm~local');
  await expect(page.getByRole('region', { name: 'Models' }).getByText(/TEST MODEL — random vectors/)).toBeVisible({ timeout: 60_000 });
  await page.getByRole('tab', { name: 'Evaluate on a labelled set' }).click();
  const lab = page.getByRole('region', { name: 'Evaluation lab' });
  await lab.getByLabel('Labelled set').setInputFiles({ name: 'small-squad.json', mimeType: 'application/json', buffer: smallSquad() });
  await expect(lab).toContainText('small-squad.json');
  await expect(page.getByRole('list', { name: 'Indexed documents' }).locator('li.doc:not(.pending)')).toHaveCount(2, { timeout: 60_000 });
  await expect(page.getByRole('list', { name: 'Indexed documents' }).getByText('ready', { exact: true })).toHaveCount(2, { timeout: 120_000 });

  await lab.getByRole('button', { name: 'Run evaluation' }).click();
  const recommendation = lab.getByLabel('Recommendation');
  await expect(recommendation).toContainText(/At 256 tokens the best is/, { timeout: 180_000 });
  await expect(recommendation).toContainText(/over the best naive chunks/);
  await expect(lab.getByRole('figure', { name: /vs window size/ }).locator('svg').first()).toBeVisible();
  await expect(lab.getByRole('figure', { name: /Strategies at equal budget/ }).locator('svg').first()).toBeVisible();
  await page.screenshot({ path: info.outputPath('eval-lab.png'), fullPage: true });

  // Drill into one question: each strategy's best point, replayed, says whether it found the answer.
  await lab.getByRole('list', { name: 'Questions' }).getByRole('button').first().click();
  const drill = lab.getByLabel('Question drill-down');
  await expect(drill.getByRole('region').first()).toBeVisible({ timeout: 30_000 });
  await expect(drill).toContainText(/[✓✗]/);
  await expect(drill.locator('article.eval-block').first()).toBeVisible();

  // Export stays on this machine: a download, not a request.
  const download = page.waitForEvent('download');
  await lab.getByRole('button', { name: 'Export CSV' }).click();
  const csv = readFileSync((await (await download).path())!, 'utf8');
  expect(csv.split('\n')[0]).toMatch(/strategy/);
  expect(csv.split('\n').length).toBeGreaterThan(10);
});
