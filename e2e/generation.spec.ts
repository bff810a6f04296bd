import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { FAKE_VARIANTS, startFakeOpenAI, type FakeOpenAI } from './fixtures/openai-server';

/**
 * Generation against a real OpenAI-compatible HTTP server on 127.0.0.1 (streaming SSE, errors,
 * a slow reply that is stopped), and with the in-browser TEST generator: the streamed answer,
 * its citation links to blocks and the document view, the exact prompt that was sent, and that
 * nothing goes anywhere but this site and the endpoint the user typed.
 */

import { ORIGIN } from './origin';
const samples = resolve(import.meta.dirname, '../public/samples');
const QUESTION = 'How do self-locking nuts stay tight despite vibration?';

let fake: FakeOpenAI;
test.beforeEach(async () => {
  fake = await startFakeOpenAI();
});
test.afterEach(async () => {
  await fake.close();
});

/** The FAA handbook excerpt, indexed with the test embedder, and the question asked. */
async function askAboutNuts(page: Page, outside?: string[]): Promise<void> {
  page.context().on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(ORIGIN) && !url.startsWith(fake.url) && !url.startsWith('blob:') && !url.startsWith('data:')) outside?.push(url);
  });
  await page.goto('/?em=rag-lab/test-embedder~fp32~wasm~local');
  await expect(page.getByRole('region', { name: 'Models' }).getByText(/TEST MODEL — random vectors/)).toBeVisible({ timeout: 60_000 });
  await page.locator('input[type=file]').setInputFiles([{ name: 'faa_amt_handbook_p7-45.pdf', mimeType: 'application/pdf', buffer: readFileSync(resolve(samples, 'faa_amt_handbook_p7-45.pdf')) }]);
  await expect(page.getByRole('list', { name: 'Indexed documents' }).getByText('ready')).toHaveCount(1, { timeout: 120_000 });
  await page.getByLabel('Question', { exact: true }).fill(QUESTION);
  await page.getByRole('button', { name: 'Ask' }).click();
  await expect(page.getByRole('region', { name: /^Sentence windows/ }).locator('article.block').first()).toBeVisible({ timeout: 30_000 });
}

async function useEndpoint(page: Page, model: string, baseUrl = `${fake.url}/v1`): Promise<void> {
  const panel = page.getByRole('region', { name: 'Generator' });
  await panel.getByLabel('OpenAI-compatible endpoint').check();
  await panel.getByLabel('Endpoint base URL').fill(baseUrl);
  await panel.getByLabel('Endpoint model').fill(model);
}

function answerPanel(page: Page) {
  return page.getByRole('region', { name: 'Answer', exact: true });
}

test('an endpoint streams a cited answer from the exact prompt shown, and citations open their blocks', async ({ page }) => {
  test.setTimeout(180_000);
  const outside: string[] = [];
  await askAboutNuts(page, outside);
  const panel = answerPanel(page);
  await expect(panel.getByText(/choose a generator/)).toBeVisible();
  await useEndpoint(page, 'fake-rag');

  const prompt = panel.getByRole('group', { name: /^Prompt for Sentence windows/ });
  await expect(prompt.getByText(/blocks fit/)).toBeVisible();
  await expect(prompt.getByText(/counted with approx/)).toBeVisible();
  // What is sent where, before anything is sent.
  await expect(prompt.getByText(`A POST request goes to ${fake.url}/v1/chat/completions asking the model "fake-rag"`, { exact: false })).toBeVisible();
  await expect(prompt.getByText(/does not leave it/)).toBeVisible();
  expect(fake.requests).toHaveLength(0);

  await prompt.getByText(/see, edit, copy/).click();
  const system = await prompt.getByLabel('System message', { exact: true }).inputValue();
  const user = await prompt.getByLabel('User message', { exact: true }).inputValue();
  expect(system).toMatch(/Cite every claim/);
  expect(user).toMatch(/^Sources:\n\n\[1\] faa_amt_handbook|^Sources:\n\n\[1\] /);
  expect(user.endsWith(`Question: ${QUESTION}`)).toBe(true);

  await panel.getByRole('button', { name: 'Generate answer' }).click();
  const answer = panel.getByRole('region', { name: /^Answer from Sentence windows/ });
  // Streaming shows a partial answer before the whole one.
  await expect(answer).toContainText('Self-locking nuts stay tight because');
  await expect(answer.getByText(/^Done · fake-rag at 127\.0\.0\.1/)).toBeVisible({ timeout: 15_000 });
  await expect(answer).toContainText('Self-locking nuts stay tight because their fibre or metal insert grips the thread');
  await expect(answer).toContainText('the server counted 321 prompt and 27 answer tokens');

  // Exactly the shown prompt went to the endpoint, streamed, without a key.
  expect(fake.requests).toHaveLength(1);
  const sent = fake.requests[0]!;
  expect(sent.path).toBe('/v1/chat/completions');
  expect(sent.authorization).toBeNull();
  expect(sent.model).toBe('fake-rag');
  expect(sent.body?.stream).toBe(true);
  expect(sent.messages).toEqual([
    { role: 'system', content: system },
    { role: 'user', content: user },
  ]);

  // [1] and [2] are links; [9] names no source and is flagged, not dropped.
  const sourceCount = (user.match(/^\[\d+\] /gm) ?? []).length;
  expect(sourceCount).toBeGreaterThanOrEqual(2);
  expect(sourceCount).toBeLessThan(9);
  await expect(answer.getByText('[9?]')).toBeVisible();
  const firstBlock = page.getByRole('region', { name: /^Sentence windows/ }).locator('article.block').first();
  const firstText = ((await firstBlock.locator('.block-text').textContent()) ?? '').trim();
  await expect(answer.getByRole('button', { name: /^Source 1: AMT General Handbook/ })).toBeVisible();
  await answer.getByRole('button', { name: /^Source 1: / }).click();
  // Source 1 is the column's first block: selected there, and shown in its document.
  await expect(firstBlock).toHaveAttribute('aria-current', 'true');
  const view = page.getByRole('complementary', { name: 'Document view' });
  await expect(view).toContainText('AMT General Handbook');
  await expect(view).toContainText('from “Sentence windows');
  await expect(view).toContainText(firstText.split(/\n\s*\n/)[0]!.slice(0, 80));
  // The sources list says which were cited.
  const sources = answer.getByRole('list', { name: 'Sources' });
  await expect(sources.locator('li')).toHaveCount(sourceCount);
  await expect(sources.locator('li.cited')).toHaveCount(2);

  // An edited prompt is sent as edited.
  await prompt.getByLabel('User message', { exact: true }).fill(`${user}\nAnswer in one sentence.`);
  await expect(prompt.getByText('Prompt (edited): see, edit, copy')).toBeVisible();
  await panel.getByRole('button', { name: 'Generate answer' }).click();
  await expect(answer.getByText(/^Done · /)).toBeVisible({ timeout: 15_000 });
  expect(fake.requests.at(-1)!.messages[1]?.content).toBe(`${user}\nAnswer in one sentence.`);

  expect(outside).toEqual([]);
});

test('stop ends a slow stream; a refused key, a too-long prompt and a dead endpoint each say so and keep the retrieval', async ({ page }) => {
  test.setTimeout(180_000);
  await askAboutNuts(page);
  const panel = answerPanel(page);
  const columns = page.getByRole('region', { name: /^Sentence windows/ }).locator('article.block');
  const blocksBefore = await columns.count();

  await useEndpoint(page, 'slow');
  await panel.getByRole('button', { name: 'Generate answer' }).click();
  const answer = panel.getByRole('region', { name: /^Answer from Sentence windows/ });
  await expect(answer).toContainText('word2');
  await panel.getByRole('button', { name: 'Stop' }).click();
  await expect(answer.getByText(/^Stopped · slow at/)).toBeVisible();
  const sentWords = await fake.slowClosed;
  expect(sentWords).toBeLessThan(100);
  const shown = (await answer.locator('.a-text').innerText()).trim();
  expect(shown).toMatch(/^word0 word1 word2/);

  // A wrong key: the server's 401, in words, and no key in the message.
  const gen = page.getByRole('region', { name: 'Generator' });
  await gen.getByLabel('Endpoint model').fill('fake-rag');
  await gen.getByLabel('API key').fill('wrong-key');
  await panel.getByRole('button', { name: 'Generate answer' }).click();
  await expect(answer.getByRole('alert')).toContainText(`the endpoint at ${fake.url}/v1/chat/completions refused the key (HTTP 401: Incorrect API key provided)`);
  await expect(answer.getByRole('alert')).not.toContainText('wrong-key');
  expect(fake.requests.at(-1)!.authorization).toBe('Bearer wrong-key');
  // The key is not stored unless asked.
  expect(await page.evaluate(() => localStorage.getItem('rag-lab:generation'))).not.toContain('wrong-key');

  await gen.getByLabel('API key').fill('good-key');
  await gen.getByLabel('Endpoint model').fill('too-long');
  await panel.getByRole('button', { name: 'Generate answer' }).click();
  await expect(answer.getByRole('alert')).toContainText('the prompt is longer than the context of the model "too-long"');

  // Nothing listens on port 9 of this machine.
  await gen.getByLabel('Endpoint base URL').fill('http://127.0.0.1:9/v1');
  await gen.getByLabel('Endpoint model').fill('fake-rag');
  await panel.getByRole('button', { name: 'Generate answer' }).click();
  await expect(answer.getByRole('alert')).toContainText('could not reach http://127.0.0.1:9/v1/chat/completions');

  // A plain-http endpoint on another machine is refused by the page's own policy.
  await gen.getByLabel('Endpoint base URL').fill('http://192.0.2.10:11434/v1');
  await panel.getByRole('button', { name: 'Generate answer' }).click();
  await expect(answer.getByRole('alert')).toContainText('plain-http endpoints only on this machine');

  // The retrieval view is untouched by every failure.
  await expect(columns).toHaveCount(blocksBefore);

  // Remembering the key keeps it across a reload; the key field is otherwise empty after one.
  await gen.getByLabel('Endpoint base URL').fill(`${fake.url}/v1`);
  await gen.getByLabel('Remember the key in this browser').check();
  expect(await page.evaluate(() => localStorage.getItem('rag-lab:generation'))).toContain('good-key');
  await page.reload();
  await expect(page.getByRole('region', { name: 'Generator' }).getByLabel('API key')).toHaveValue('good-key');
  await page.getByRole('region', { name: 'Generator' }).getByLabel('Remember the key in this browser').uncheck();
  await page.reload();
  await expect(page.getByRole('region', { name: 'Generator' }).getByLabel('API key')).toHaveValue('');
  await expect(page.getByRole('region', { name: 'Generator' }).getByLabel('Endpoint model')).toHaveValue('fake-rag');
});

test('side by side: the same question answered from two strategies’ contexts', async ({ page }) => {
  test.setTimeout(180_000);
  await askAboutNuts(page);
  await useEndpoint(page, 'fake-rag');
  const panel = answerPanel(page);
  const compare = panel.getByLabel('Compare with strategy');
  const naive = await compare.locator('option', { hasText: /^Naive chunks/ }).getAttribute('value');
  await compare.selectOption(naive!);
  await expect(panel.getByRole('group', { name: /^Prompt for Naive chunks/ })).toBeVisible();
  await panel.getByRole('button', { name: 'Generate answer' }).click();
  for (const name of [/^Answer from Sentence windows/, /^Answer from Naive chunks/]) {
    await expect(panel.getByRole('region', { name }).getByText(/^Done · /)).toBeVisible({ timeout: 15_000 });
  }
  expect(fake.requests).toHaveLength(2);
  const users = fake.requests.map((r) => r.messages.at(-1)!.content).sort();
  expect(users[0]).not.toBe(users[1]);
  // A naive-chunk citation opens its block in the naive column.
  await panel.getByRole('region', { name: /^Answer from Naive chunks/ }).getByRole('button', { name: /^Source 2: / }).click();
  await expect(page.getByRole('region', { name: /^Naive chunks/ }).locator('article.block').nth(1)).toHaveAttribute('aria-current', 'true');
});

test('multi-query: the endpoint rewrites the question, and the query-transformation column shows the variants and which found each block', async ({ page }) => {
  test.setTimeout(180_000);
  await askAboutNuts(page);
  const fusion = page.getByRole('region', { name: /^Query transformation/ });
  await expect(fusion.getByText(/A query transformation needs an LLM/)).toBeVisible();
  await useEndpoint(page, 'fake-rag');
  const generator = page.getByRole('region', { name: 'Generator' });
  await generator.getByLabel('Query transformation').selectOption('multiquery');
  await generator.getByLabel('Query variants').selectOption('3');
  await page.getByRole('button', { name: 'Ask' }).click();
  const queries = fusion.getByRole('list', { name: 'Queries of this column' });
  await expect(queries.locator('li')).toHaveCount(4, { timeout: 30_000 });
  await expect(queries).toContainText(QUESTION);
  for (const v of FAKE_VARIANTS) await expect(queries).toContainText(v);
  const asked = fake.requests.find((r) => r.messages.some((m) => m.content.includes('Generate 3 search queries')));
  expect(asked?.messages.at(-1)?.content).toContain(QUESTION);
  // Each block says which of the four queries found it.
  const blocks = fusion.locator('article.block');
  await expect(blocks.first()).toBeVisible();
  await expect(blocks.first()).toContainText(/found by: .+ \(\d of 4\)/);
  // The variants are written once per question: moving a slider re-fuses without asking again.
  const before = fake.requests.length;
  await page.getByRole('button', { name: 'Ask' }).click();
  await expect(queries.locator('li')).toHaveCount(4);
  expect(fake.requests.length).toBe(before);
});

test('the in-browser TEST generator loads from the site’s models folder, counts with its own tokenizer, and streams a cited answer', async ({ page }) => {
  test.setTimeout(180_000);
  const outside: string[] = [];
  await askAboutNuts(page, outside);
  const gen = page.getByRole('region', { name: 'Generator' });
  await gen.getByLabel('In this browser').check();
  const select = gen.getByLabel('Generator model');
  const testModel = await select.locator('option', { hasText: /^TEST MODEL/ }).getAttribute('value');
  await select.selectOption(testModel!);
  await expect(gen.getByLabel('Generator source')).toHaveValue('local');
  await gen.getByRole('button', { name: 'Load model' }).click();
  await expect(gen.getByText('Ready: rag-lab/test-generator')).toBeVisible({ timeout: 60_000 });
  await expect(gen.getByText(/TEST MODEL — writes a fixed sentence/)).toBeVisible();

  const panel = answerPanel(page);
  const prompt = panel.getByRole('group', { name: /^Prompt for Sentence windows/ });
  await expect(prompt.getByText(/of 2,048 tokens, counted with .*tokenizer/)).toBeVisible();
  await expect(prompt.getByText(/Nothing is sent anywhere/)).toBeVisible();
  await panel.getByRole('button', { name: 'Generate answer' }).click();
  const answer = panel.getByRole('region', { name: /^Answer from Sentence windows/ });
  await expect(answer.getByText(/^Done · rag-lab\/test-generator in this browser \(WASM\)/)).toBeVisible({ timeout: 60_000 });
  await expect(answer.locator('.a-text')).toHaveText('test model answer: the sources say so [1].');
  await answer.getByRole('button', { name: /^Source 1: / }).click();
  await expect(page.getByRole('region', { name: /^Sentence windows/ }).locator('article.block').first()).toHaveAttribute('aria-current', 'true');
  expect(fake.requests).toHaveLength(0);
  expect(outside).toEqual([]);
});
