import { expect, test, type Page } from '@playwright/test';
import { startOpenAIFixture, type OpenAIFixture } from '../src/node/openai-fixture';
import { rewriter } from '../src/node/rewriter-fixture';
import { loadTestGenerator, useEndpoint } from './fixtures/generator';

/**
 * Asking in parts, in the page: a compound question on two documents, split by the generator
 * into sub-questions each routed to a tool (the project's OpenAI-compatible fixture on 127.0.0.1
 * with its deterministic rewriter); the Query transformation column shows them with their tools,
 * holds both answers, and says which sub-question found each block; a reload asks nothing again.
 * The in-browser TEST generator's fixed reply is no sub-question list: the column says so and
 * retrieves the question as asked.
 */

const FILLER = (topic: string) => Array.from({ length: 6 }, (_, i) => `This sentence ${i + 1} about ${topic} says nothing that anyone would ask about.`).join(' ');
const PLAGUE = `# Black Death\n\nThe Black Death was a bubonic plague pandemic in Europe from 1346 to 1353. ${FILLER('the plague')} Historians think the plague came from Central Asia, travelling along the Silk Road. ${FILLER('the pandemic')} Fleas on rats carried the bacterium Yersinia pestis.\n`;
const ROCK = `# Sedimentary rock\n\nSedimentary rocks form from deposits of sand, mud and shells. ${FILLER('rocks')} Under heat and pressure, sedimentary rock can turn into metamorphic rock. ${FILLER('stones')} Limestone becomes marble and shale becomes slate.\n`;
const QUESTION = 'Where did the Black Death come from and what can sedimentary rock turn into?';

let fixture: OpenAIFixture;
test.beforeAll(async () => {
  fixture = await startOpenAIFixture({ chat: rewriter });
});
test.afterAll(async () => {
  await fixture.close();
});

async function twoDocuments(page: Page): Promise<void> {
  await page.goto('/?em=rag-lab/test-embedder~fp32~wasm~local');
  await expect(page.getByRole('region', { name: 'Models' }).getByText(/TEST MODEL — random vectors/)).toBeVisible({ timeout: 60_000 });
  await page.locator('input[type=file]').setInputFiles([
    { name: 'plague.md', mimeType: 'text/markdown', buffer: Buffer.from(PLAGUE) },
    { name: 'rock.md', mimeType: 'text/markdown', buffer: Buffer.from(ROCK) },
  ]);
  await expect(page.getByRole('list', { name: 'Indexed documents' }).getByText('ready', { exact: true })).toHaveCount(2, { timeout: 120_000 });
}

test('a compound question in parts: sub-questions with their tools, both answers in the column, nothing asked again after a reload; the TEST generator’s reply falls back', async ({ page }) => {
  test.setTimeout(240_000);
  await twoDocuments(page);
  const generator = page.getByRole('region', { name: 'Generator' });
  await useEndpoint(page, `${fixture.url}/v1`, 'rewriter');
  await generator.getByLabel('Query transformation').selectOption('subquestions');
  await expect(generator.getByLabel('Tools as JSON')).toHaveValue(/keyword_search[\s\S]*semantic_search/);
  await page.getByLabel('Question', { exact: true }).fill(QUESTION);
  await page.getByRole('button', { name: 'Ask' }).click();

  const column = page.getByRole('region', { name: /^Query transformation/ });
  const queries = column.getByRole('list', { name: 'Queries of this column' });
  await expect(queries.locator('li')).toHaveCount(2, { timeout: 30_000 });
  await expect(queries.locator('li').nth(0)).toHaveText('sub-question 1 → keyword_search (BM25) Where did the Black Death come from?');
  await expect(queries.locator('li').nth(1)).toHaveText('sub-question 2 → semantic_search (vector) what can sedimentary rock turn into?');
  // Both answers are handed over; the blocks take turns (each sub-question's best before any second-best) and say which found them.
  await expect(column.locator('.column-blocks')).toContainText('came from Central Asia');
  await expect(column.locator('.column-blocks')).toContainText('can turn into metamorphic rock');
  await expect(column.locator('article.block').nth(0)).toContainText(/found by: sub-question 1 → keyword_search/);
  await expect(column.locator('article.block').nth(1)).toContainText(/found by: sub-question 2 → semantic_search/);
  expect(fixture.chatRequests()).toHaveLength(1);
  expect(fixture.chatRequests()[0]!.body!.response_format).toMatchObject({ type: 'json_schema' });

  // A reload: the rewrite comes from this browser's cache, nothing is asked again.
  await page.reload();
  await expect(page.getByRole('list', { name: 'Indexed documents' }).getByText('ready', { exact: true })).toHaveCount(2, { timeout: 120_000 });
  await page.getByLabel('Question', { exact: true }).fill(QUESTION);
  await page.getByRole('button', { name: 'Ask' }).click();
  await expect(column.getByRole('list', { name: 'Queries of this column' }).locator('li')).toHaveCount(2, { timeout: 30_000 });
  expect(fixture.chatRequests()).toHaveLength(1);

  // Evaluate: a compound set imported, sub-questions measured beside the question as asked; the rewrites planned first, then written.
  const set = [
    { id: 'origin-turn', question: QUESTION, answers: [{ doc: 'plague.md', text: 'Central Asia' }, { doc: 'rock.md', text: 'metamorphic rock' }], needs: 'all' },
    { id: 'shale', question: 'What does shale become under pressure?', answers: [{ doc: 'rock.md', text: 'slate' }] },
  ];
  await page.getByRole('tab', { name: 'Evaluate on a labelled set' }).click();
  const lab = page.getByRole('region', { name: 'Evaluation lab' });
  await lab.getByLabel('Import a question set').setInputFiles({ name: 'compound.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(set.map((x) => JSON.stringify(x)).join('\n')) });
  await expect(lab.getByText('The question set (2 questions)')).toBeVisible({ timeout: 30_000 });
  const strategies = lab.getByRole('group', { name: 'Strategies' }).getByRole('checkbox');
  for (let i = 0; i < (await strategies.count()); i++) await strategies.nth(i).setChecked((await strategies.nth(i).locator('xpath=..').innerText()).trim() === 'sentence windows');
  for (const r of ['vector', 'hybrid RRF']) await lab.getByRole('group', { name: 'Retrievers' }).getByLabel(r, { exact: true }).setChecked(false);
  const sweep = lab.getByRole('group', { name: 'Sweep' }).getByRole('checkbox');
  for (let i = 0; i < (await sweep.count()); i++) await sweep.nth(i).setChecked(false);
  await lab.getByRole('group', { name: 'Query transformations' }).getByLabel(/sub-questions routed to tools/).check();
  await lab.getByRole('button', { name: 'Run evaluation' }).click();
  const before = lab.getByLabel('Before the query transformations');
  await expect(before).toContainText('2 rewrites to write (sub-questions routed to tools): 1 kept in this browser, 1 call to make', { timeout: 30_000 });
  await expect(before).toContainText(`A POST request goes to ${fixture.url}/v1/chat/completions`);
  expect(fixture.chatRequests()).toHaveLength(1);
  await before.getByRole('button', { name: 'Write the rewrites and run (1 call)' }).click();
  await expect(lab.getByLabel('Recommendation')).toContainText(/At 256 tokens the best is/, { timeout: 120_000 });
  expect(fixture.chatRequests()).toHaveLength(2);
  await expect(lab.getByRole('table', { name: 'Best point per strategy and budget' })).toBeVisible();
  await expect(lab.getByRole('table', { name: 'Routing precision' })).toContainText('sub-questions routed to tools');

  // The TEST generator answers one fixed sentence: not a list of sub-questions, said, and the question retrieved as asked.
  await page.getByRole('tab', { name: 'Explore a question' }).click();
  await loadTestGenerator(page);
  await page.getByRole('button', { name: 'Ask' }).click();
  await expect(column.getByRole('list', { name: 'Notes' })).toContainText('the reply holds no sub-questions as JSON: "test model answer: the sources say so [1].": the question is retrieved as asked', { timeout: 60_000 });
  await expect(column.getByRole('list', { name: 'Queries of this column' }).locator('li')).toHaveText([`question ${QUESTION}`]);
});
