import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { FAKE_DOC_SUMMARY, FAKE_DOC_TITLE, startFakeOpenAI, type FakeOpenAI } from './fixtures/openai-server';
import { ApproxTokenCounter } from '../src/core/segment/tokens';
import { countWords } from '../src/core/generate/doc-context';
import { loadDocument } from '../src/core/documents/load';

/**
 * dsRAG's AutoContext in the page: a document's header title and summary written by an
 * OpenAI-compatible endpoint (a real HTTP server on 127.0.0.1), streamed into editable fields,
 * saved into its contextual headers (re-embedded, seen on the blocks), and dropped again. The
 * endpoint gets dsRAG's prompts with the document's text cut to the budget, and nothing else
 * goes anywhere.
 */

import { ORIGIN } from './origin';
const samples = resolve(import.meta.dirname, '../public/samples');
const QUESTION = 'How do self-locking nuts stay tight despite vibration?';
const approx = new ApproxTokenCounter();

let fake: FakeOpenAI;
test.beforeEach(async () => {
  fake = await startFakeOpenAI();
});
test.afterEach(async () => {
  await fake.close();
});

function column(page: Page, name: string) {
  return page.getByRole('region', { name: new RegExp(`^${name}`) });
}

/** The document's text in a chat message: what follows the prompt's "DOCUMENT" line (and the name line). */
function sentDocument(content: string): string {
  const after = content.slice(content.indexOf('\nDOCUMENT\n') + '\nDOCUMENT\n'.length);
  return after.startsWith('Document name: ') ? after.slice(after.indexOf('\n\n') + 2) : after;
}

test('an endpoint writes a title and summary that go into the headers, and the own title comes back', async ({ page }) => {
  test.setTimeout(240_000);
  const outside: string[] = [];
  page.context().on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(ORIGIN) && !url.startsWith(fake.url) && !url.startsWith('blob:') && !url.startsWith('data:')) outside.push(url);
  });
  await page.goto('/?em=rag-lab/test-embedder~fp32~wasm~local');
  await expect(page.getByRole('region', { name: 'Models' }).getByText(/TEST MODEL — random vectors/)).toBeVisible({ timeout: 60_000 });
  await page.locator('input[type=file]').setInputFiles([{ name: 'faa_amt_handbook_p7-45.pdf', mimeType: 'application/pdf', buffer: readFileSync(resolve(samples, 'faa_amt_handbook_p7-45.pdf')) }]);
  const docs = page.getByRole('list', { name: 'Indexed documents' });
  await expect(docs.getByText('ready')).toHaveCount(1, { timeout: 120_000 });
  const item = docs.locator('li.doc:not(.pending)').first();
  const ownTitle = ((await item.locator('.doc-title').textContent()) ?? '').trim();
  expect(ownTitle.length).toBeGreaterThan(0);

  // Closed by default; open, it says there is none, that headers are off, and that no generator is chosen.
  const editor = item.getByRole('group', { name: `Header title and summary of ${ownTitle}` });
  await expect(editor).toBeHidden();
  await item.getByText('Header title & summary').click();
  await expect(editor).toBeVisible();
  await expect(editor).toContainText(`Current: none: headers use the document’s own title ‘${ownTitle}’`);
  await expect(editor.getByText(/Contextual headers are off in the parameters/)).toBeVisible();
  await expect(editor.getByText('To write them with an LLM, choose one in the Generator panel.')).toBeVisible();
  await expect(editor.getByRole('button', { name: 'Write with a generator' })).toBeDisabled();
  await expect(editor.getByRole('button', { name: 'Use the document’s own title' })).toBeDisabled();

  // Headers on: the worker re-embeds and the blocks carry the document's own title.
  await page.getByLabel('Contextual chunk headers').check();
  await expect(editor.getByText(/Contextual headers are off/)).toBeHidden();
  await expect(docs.getByText('ready')).toHaveCount(1, { timeout: 120_000 });
  await page.getByLabel('Question', { exact: true }).fill(QUESTION);
  await page.getByRole('button', { name: 'Ask' }).click();
  const firstHeader = column(page, 'Sentence windows').locator('article.block').first().locator('.block-header');
  await expect(firstHeader).toContainText(`Document context: the following excerpt is from a document titled '${ownTitle}'.`, { timeout: 120_000 });
  const ownHeader = (await firstHeader.innerText()).trim();

  // The endpoint, with a small context so that the document is cut: min(4000, 1000 − 600) = 400 approx tokens.
  const gen = page.getByRole('region', { name: 'Generator' });
  await gen.getByLabel('OpenAI-compatible endpoint').check();
  await gen.getByLabel('Endpoint base URL').fill(`${fake.url}/v1`);
  await gen.getByLabel('Endpoint model').fill('fake-rag');
  await gen.getByLabel('Endpoint context tokens').fill('1000');
  await expect(editor.getByText(/choose one in the Generator panel/)).toBeHidden();
  expect(fake.requests).toHaveLength(0);

  const label = `fake-rag at ${new URL(fake.url).host}`;
  await editor.getByRole('button', { name: `Write with ${label}` }).click();
  const title = editor.getByLabel('Header title');
  const summary = editor.getByLabel('Header summary');
  await expect(title).toHaveValue(FAKE_DOC_TITLE, { timeout: 15_000 });
  await expect(summary).toHaveValue(FAKE_DOC_SUMMARY, { timeout: 15_000 });
  await expect(editor.getByText(/^Written: check and edit the fields/)).toBeVisible();
  // Not saved yet: the header still has the document's own title.
  await expect(editor).toContainText(`Current: none: headers use the document’s own title`);

  // Two requests: dsRAG's title prompt, then its summary prompt naming the new title; both with the document's start, cut to 400 tokens.
  expect(fake.requests).toHaveLength(2);
  const [titleReq, summaryReq] = fake.requests;
  for (const r of [titleReq!, summaryReq!]) {
    expect(r.path).toBe('/v1/chat/completions');
    expect(r.model).toBe('fake-rag');
    expect(r.body?.stream).toBe(true);
    expect(r.messages).toHaveLength(1);
    expect(r.messages[0]!.role).toBe('user');
  }
  const titlePrompt = titleReq!.messages[0]!.content;
  const summaryPrompt = summaryReq!.messages[0]!.content;
  expect(titlePrompt.startsWith('INSTRUCTIONS\nWhat is the title of the following document?\n\nYour response MUST be the title of the document, and nothing else.')).toBe(true);
  expect(summaryPrompt.startsWith('INSTRUCTIONS\nWhat is the following document, and what is it about? \n')).toBe(true);
  expect(summaryPrompt).toContain(`\nDOCUMENT\nDocument name: ${FAKE_DOC_TITLE}\n\n`);
  const sent = sentDocument(titlePrompt);
  expect(sentDocument(summaryPrompt)).toBe(sent);
  const tokens = approx.count(sent);
  expect(tokens).toBeLessThanOrEqual(400);
  expect(tokens).toBeGreaterThan(380);
  expect(titlePrompt).toContain(`Also note that the document text provided below is just the first ~${countWords(sent)} words of the document.`);

  // What was sent is the start of the document's own text, as the same loader reads it here in Node.
  const own = await loadDocument({ name: 'faa_amt_handbook_p7-45.pdf', bytes: new Uint8Array(readFileSync(resolve(samples, 'faa_amt_handbook_p7-45.pdf'))) });
  const squash = (t: string) => t.replace(/\s+/g, ' ').trim();
  expect(squash(own.text).startsWith(squash(sent))).toBe(true);

  // Saved: the blocks are embedded again and their headers carry the new title and summary.
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor).toContainText(`Current: written by ${label}`, { timeout: 60_000 });
  await expect(firstHeader).toContainText(`Document context: the following excerpt is from a document titled '${FAKE_DOC_TITLE}'. ${FAKE_DOC_SUMMARY}`, { timeout: 120_000 });
  await expect(column(page, 'Sentence hits').locator('.block-header').first()).toContainText(`titled '${FAKE_DOC_TITLE}'`);

  // The document's own title again: the header is what it was.
  await editor.getByRole('button', { name: 'Use the document’s own title' }).click();
  await expect(editor).toContainText(`Current: none: headers use the document’s own title ‘${ownTitle}’`, { timeout: 60_000 });
  await expect(title).toHaveValue('');
  await expect(summary).toHaveValue('');
  await expect.poll(async () => (await firstHeader.innerText()).trim(), { timeout: 120_000 }).toBe(ownHeader);

  // A user's own title is "set by you".
  await title.fill('My hardware notes');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor).toContainText('Current: set by you', { timeout: 60_000 });
  await expect(firstHeader).toContainText(`titled 'My hardware notes'.`, { timeout: 120_000 });

  // Nothing else went to the endpoint, and nothing anywhere else.
  expect(fake.requests).toHaveLength(2);
  expect(outside).toEqual([]);

  // Stop keeps what was written so far; a failure is shown for this document only.
  await gen.getByLabel('Endpoint model').fill('slow');
  await editor.getByRole('button', { name: /^Write with slow at / }).click();
  await expect(title).toHaveValue(/^word0 word1/, { timeout: 15_000 });
  await editor.getByRole('button', { name: 'Stop' }).click();
  await expect(editor.getByText('Stopped: the fields hold what was written so far.')).toBeVisible();
  expect(await fake.slowClosed).toBeLessThan(100);
  await expect(title).toHaveValue(/^word0 word1/);
  await gen.getByLabel('Endpoint model').fill('too-long');
  await editor.getByRole('button', { name: /^Write with too-long at / }).click();
  await expect(editor.getByRole('alert')).toContainText(/context/i, { timeout: 15_000 });
  await expect(page.getByRole('alert').filter({ hasText: /maximum context length|context/i })).toHaveCount(1);
  await expect(editor).toContainText('Current: set by you');
});
