import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { startOpenAIFixture, type ChatCall, type OpenAIFixture } from '../src/node/openai-fixture';
import { extractiveReader } from '../src/node/reader-fixture';
import { loadTestGenerator, useEndpoint } from './fixtures/generator';

/**
 * Judge by the answer, in the page: the sample corpus with its question set, a sweep of window
 * sizes that keeps its contexts, and an answer run — with the project's OpenAI-compatible
 * fixture on 127.0.0.1 (an extractive reader) and with the in-browser TEST generator. The plan says what goes where before anything is sent; a
 * repeated run sends nothing; pause and resume; the window curve, the lists and the Ragas file.
 */

let fixture: OpenAIFixture;
test.beforeAll(async () => {
  fixture = await startOpenAIFixture({ chat: (c: ChatCall) => extractiveReader(c) });
});
test.afterAll(async () => {
  await fixture.close();
});

async function sampleCorpusInEvaluate(page: Page): Promise<Locator> {
  await page.goto('/?em=rag-lab/test-embedder~fp32~wasm~local');
  await expect(page.getByRole('region', { name: 'Models' }).getByText(/TEST MODEL — random vectors/)).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Load sample corpus' }).click();
  await expect(page.getByRole('list', { name: 'Indexed documents' }).locator('li.doc:not(.pending)')).toHaveCount(8, { timeout: 120_000 });
  await page.getByRole('tab', { name: 'Evaluate on a labelled set' }).click();
  const lab = page.getByRole('region', { name: 'Evaluation lab' });
  // The sample's own question set came with it, said as such.
  await expect(lab.getByText('The question set (17 questions)')).toBeVisible({ timeout: 30_000 });
  await expect(lab.getByText('2 unanswerable questions: kept and counted')).toBeVisible();
  return lab;
}

/** Run settings: BM25 alone, the given strategies, one budget, answers kept. */
async function chooseRun(lab: Locator, strategies: string[], sweepWindows: boolean): Promise<void> {
  const boxes = lab.getByRole('group', { name: 'Strategies' }).getByRole('checkbox');
  for (let i = 0; i < (await boxes.count()); i++) {
    const box = boxes.nth(i);
    const label = (await box.locator('xpath=..').innerText()).trim();
    await box.setChecked(strategies.includes(label));
  }
  for (const r of ['vector', 'hybrid RRF']) await lab.getByRole('group', { name: 'Retrievers' }).getByLabel(r, { exact: true }).setChecked(false);
  const sweep = lab.getByRole('group', { name: 'Sweep' });
  for (let i = 0; i < (await sweep.getByRole('checkbox').count()); i++) await sweep.getByRole('checkbox').nth(i).setChecked(false);
  if (sweepWindows) await sweep.getByLabel(/Window sizes/).check();
  await lab.getByLabel('Budgets (tokens)').fill('256');
  await lab.getByLabel(/Answer each point’s context with the generator/).check();
}

test('answer runs with a mock endpoint and the TEST generator: planned, answered, charted, exported; a repeat sends nothing; pause and resume', async ({ page }) => {
  test.setTimeout(300_000);
  const lab = await sampleCorpusInEvaluate(page);
  await chooseRun(lab, ['naive chunks', 'sentence windows'], true);
  await lab.getByRole('button', { name: 'Run evaluation' }).click();
  const answers = lab.getByRole('region', { name: '4 · Answers' });
  await expect(answers.getByText(/Choose a generator in the Generator panel first/)).toBeVisible({ timeout: 120_000 });
  expect(fixture.chatRequests()).toHaveLength(0);

  await useEndpoint(page, `${fixture.url}/v1`, 'reader');
  const plan = answers.getByLabel('Before answering');
  await expect(plan).toContainText(/\d+ answers to score \(37 points × their questions\) share \d+ distinct prompts: 0 answered from this browser’s cache, \d+ calls to make/, { timeout: 60_000 });
  await expect(plan).toContainText(`A POST request goes to ${fixture.url}/v1/chat/completions asking the model "reader"`);
  const calls = Number(/(\d+) calls to make/.exec((await plan.textContent())!)![1]);
  expect(fixture.chatRequests()).toHaveLength(0);
  await answers.getByRole('button', { name: `Start answering (${calls} calls)` }).click();
  await expect(answers.getByRole('status')).toContainText(new RegExp(`^Answered: ${calls} calls, 0 from the cache, 0 failed`), { timeout: 120_000 });
  expect(fixture.chatRequests()).toHaveLength(calls);

  const judged = lab.getByRole('region', { name: '5 · Judged by the answer' });
  await expect(judged.getByLabel('Recommendation by the answers')).toContainText(/At 256 tokens, by the answers, the best is .* with answer F1 0\.\d{3}/);
  await expect(judged.getByLabel('Recommendation by the answers')).toContainText(/Judged by answer in context, (the same point is best|the best would be)/);
  await expect(judged.getByRole('figure', { name: /answer F1 and answer in context vs window size/ }).locator('svg').first()).toBeVisible();
  await expect(judged.getByRole('figure', { name: /answer F1 vs prompt tokens/ }).locator('svg').first()).toBeVisible();
  await expect(judged.getByRole('table', { name: 'Best answered point per strategy and budget' })).toContainText('sentence windows');
  await expect(judged.getByText(/^The answer was in the context, but the model missed it \(\d+\)$/)).toBeVisible();
  await expect(judged.getByText(/^Answered right without the answer in the context \(\d+\)$/)).toBeVisible();

  const download = page.waitForEvent('download');
  await judged.getByRole('button', { name: 'Export this point for Ragas' }).click();
  const rows = readFileSync((await (await download).path())!, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(rows.length).toBeGreaterThan(10);
  expect(Object.keys(rows[0]!).sort()).toEqual(['reference', 'response', 'retrieved_contexts', 'user_input']);
  expect(Array.isArray(rows[0]!.retrieved_contexts)).toBe(true);

  // The same run again: every answer is in the cache, scored at once, nothing sent.
  await lab.getByRole('button', { name: 'Run evaluation' }).click();
  await expect(answers.getByRole('status')).toContainText(new RegExp(`^Answered: 0 calls, ${calls} from the cache, 0 failed`), { timeout: 120_000 });
  expect(fixture.chatRequests()).toHaveLength(calls);


  // The in-browser TEST generator on one point (sentence windows ±3): planned, paused, resumed.
  await chooseRun(lab, ['sentence windows'], false);
  await loadTestGenerator(page);
  await lab.getByRole('button', { name: 'Run evaluation' }).click();
  await expect(answers.getByText(/TEST MODEL: it gives one fixed answer/)).toBeVisible();
  await expect(plan).toContainText(/17 answers to score \(1 point × their questions\) share 17 distinct prompts: 0 answered from this browser’s cache, 17 calls to make/, { timeout: 60_000 });
  await expect(plan).toContainText(/Nothing is sent anywhere/);
  await answers.getByRole('button', { name: 'Start answering (17 calls)' }).click();
  await expect(answers.getByRole('status')).toContainText(/^Answering: [1-9]\d* of 17/, { timeout: 30_000 });
  await answers.getByRole('button', { name: 'Pause' }).click();
  await expect(answers.getByRole('status')).toContainText(/^Paused · Answering: (\d+) of 17/);
  // The call in flight at the pause finishes; none starts while paused.
  await page.waitForTimeout(1500);
  const pausedAt = await answers.getByRole('status').textContent();
  await page.waitForTimeout(1000);
  await expect(answers.getByRole('status')).toHaveText(pausedAt!);
  await answers.getByRole('button', { name: 'Resume' }).click();
  await expect(answers.getByRole('status')).toContainText(/^Answered: \d+ calls, 0 from the cache, 0 failed/, { timeout: 120_000 });
  // Its one fixed answer is never a reference: exact match 0, and the drill-down shows it.
  await expect(judged.getByRole('table', { name: 'Best answered point per strategy and budget' })).toContainText('0.000');
  await judged.getByText(/^Every question at this point \(17 answers\)$/).click();
  await expect(judged.getByRole('list', { name: 'Every answer at this point' }).locator('li').first()).toContainText('answered “test model answer: the sources say so.”');
  expect(fixture.chatRequests()).toHaveLength(calls);
});
