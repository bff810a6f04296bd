import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { strFromU8, unzipSync } from 'fflate';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startFakeOpenAI, type FakeOpenAI } from './fixtures/openai-server';
import { ORIGIN } from './origin';

/**
 * Generating a question set in the page: with the in-browser TEST question writer (one fixed
 * JSON question: one kept, the rest near-duplicates) and with a mock OpenAI-compatible endpoint
 * (structured outputs sent; prose, "unknown" and copied questions rejected with their reasons);
 * the kept questions join the question set. Each run's summary line is printed (calls, time,
 * kept, rejected per filter).
 */

const samples = resolve(import.meta.dirname, '../public/samples');
// English prose: the test question writer's answer, "the", is in nearly every passage (a fact-list page like the factbook's is not).
const DOCS = ['faa_amt_handbook_p7-45.pdf', 'NIST.AI.100-1.pdf'];
const N = 50;

let fake: FakeOpenAI;
test.beforeEach(async () => {
  fake = await startFakeOpenAI();
});
test.afterEach(async () => {
  await fake.close();
});

async function loadDocs(page: Page, outside: string[]): Promise<void> {
  page.on('pageerror', (e) => console.log(`[page error] ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && console.log(`[console] ${m.text()}`));
  page.context().on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(ORIGIN) && !url.startsWith(fake.url) && !url.startsWith('blob:') && !url.startsWith('data:')) outside.push(url);
  });
  await page.goto('/?em=rag-lab/test-embedder~fp32~wasm~local');
  await expect(page.getByRole('region', { name: 'Models' }).getByText(/TEST MODEL — random vectors/)).toBeVisible({ timeout: 60_000 });
  await page.locator('input[type=file]').first().setInputFiles(DOCS.map((name) => ({ name, mimeType: 'application/pdf', buffer: readFileSync(resolve(samples, name)) })));
  await expect(page.getByRole('list', { name: 'Indexed documents' }).locator('li.doc:not(.pending)')).toHaveCount(DOCS.length, { timeout: 120_000 });
}

function dialog(page: Page) {
  return page.getByRole('dialog', { name: 'Generate questions' });
}

/** Opens the dialog in the Evaluate tab and asks for `n` questions of one kind, seed 1. */
async function openDialog(page: Page, n = N): Promise<void> {
  await page.getByRole('tab', { name: 'Evaluate on a labelled set' }).click();
  const open = page.getByRole('button', { name: 'Generate questions…' });
  if (await open.isVisible()) await open.click();
  const d = dialog(page);
  await d.getByLabel('How many questions').fill(String(n));
  await d.getByLabel('Seed').fill('1');
}

/** Runs the plan and returns the summary line once the run has ended. */
async function runAndSummarise(page: Page, label: string): Promise<string> {
  const d = dialog(page);
  await expect(d.getByRole('button', { name: 'Start generating' })).toBeEnabled({ timeout: 20_000 });
  await d.getByRole('button', { name: 'Start generating' }).click();
  // The run started: its progress, or already its summary.
  await expect(d.getByLabel('Generation progress').or(d.getByLabel('Generation summary'))).toBeVisible();
  const summary = d.getByLabel('Generation summary').locator('.q-summary');
  await expect(summary).toBeVisible({ timeout: 180_000 });
  const text = (await summary.textContent()) ?? '';
  console.log(`[question generation] ${label}: ${text}`);
  return text;
}

test('the in-browser TEST question writer: one question kept, the other 14 rejected as near-duplicates, and the kept one joins the set', async ({ page }) => {
  test.setTimeout(300_000);
  const outside: string[] = [];
  await loadDocs(page, outside);
  const gen = page.getByRole('region', { name: 'Generator' });
  await gen.getByLabel('In this browser').check();
  await gen.getByLabel('Generator model').selectOption('rag-lab/test-question-writer');
  await expect(gen.getByLabel('Generator model').locator('option:checked')).toHaveText(/TEST MODEL/);
  await gen.getByRole('button', { name: 'Load model' }).click();
  await expect(gen.getByText('Ready: rag-lab/test-question-writer')).toBeVisible({ timeout: 60_000 });

  // 15 calls of the in-browser model are enough to see the near-duplicates go (the mock endpoint below answers 50).
  const N = 15;
  await openDialog(page, N);
  const d = dialog(page);
  await expect(d.getByText(/TEST MODEL: it writes one fixed question/)).toBeVisible();
  // Stated before starting: passages, calls, time, and that nothing leaves the tab.
  const before = d.getByLabel('Before starting');
  await expect(before).toContainText(`${N} passages from 2 documents (seed 1) · ${N} calls to the generator`);
  await expect(before).not.toContainText('tokens (');
  await expect(before.getByText(/^Nothing is sent anywhere/)).toBeVisible();

  const summary = await runAndSummarise(page, 'test question writer in the browser');
  // "the" is in nearly every passage of English prose: the rest are near-duplicates of the first (a passage without "the" is rejected before).
  const m = new RegExp(`^1 kept of ${N} asked · ${N - 1} rejected \\((?:answer not in the passage (\\d+), )?near-duplicate (\\d+)\\) · ${N} calls in [\\d.]+ s`).exec(summary);
  expect(m, summary).not.toBeNull();
  expect(Number(m![2])).toBeGreaterThanOrEqual(N - 5);
  await expect(d.getByRole('list', { name: 'Kept questions' }).locator('li')).toHaveCount(1);
  await expect(d.getByRole('list', { name: 'Kept questions' })).toContainText('what does the passage say?');
  const rejected = d.getByRole('list', { name: 'Rejected questions' }).locator('li');
  await expect(rejected).toHaveCount(N - 1);
  await expect(rejected.first()).toContainText('near-duplicate of "what does the passage say?"');

  await d.getByRole('button', { name: 'Add 1 question to the question set' }).click();
  await expect(d.getByText('Added 1 question to the question set.')).toBeVisible();
  expect(fake.requests).toHaveLength(0);
  expect(outside).toEqual([]);
});

test('a mock endpoint: structured outputs are requested, prose, "unknown" and copied questions are rejected with their reasons', async ({ page }) => {
  test.setTimeout(300_000);
  const outside: string[] = [];
  await loadDocs(page, outside);
  const gen = page.getByRole('region', { name: 'Generator' });
  await gen.getByLabel('OpenAI-compatible endpoint').check();
  await gen.getByLabel('Endpoint base URL').fill(`${fake.url}/v1`);
  await gen.getByLabel('Endpoint model').fill('question-writer');

  await openDialog(page);
  const d = dialog(page);
  const before = d.getByLabel('Before starting');
  await expect(before).toContainText(new RegExp(`${N} calls to the generator, one per question · about [\\d,]+ tokens`));
  await expect(before.getByText(`A POST request goes to ${fake.url}/v1/chat/completions asking the model "question-writer"`, { exact: false })).toBeVisible();
  expect(fake.requests).toHaveLength(0);

  const summary = await runAndSummarise(page, 'mock endpoint');
  expect(fake.requests).toHaveLength(N);
  for (const r of fake.requests) {
    expect(r.body).toMatchObject({ response_format: { type: 'json_schema', json_schema: { name: 'question_answer' } } });
  }
  // Every 5th reply is prose; every 7th (and any for a passage of under six words) says "unknown"; every 3rd question copies.
  expect(summary).toMatch(new RegExp(`^\\d+ kept of ${N} asked · \\d+ rejected \\(not JSON 10, model said “unknown” \\d+, (near-duplicate \\d+, )?copies the passage \\d+\\) · ${N} calls in`));
  const rejected = d.getByRole('list', { name: 'Rejected questions' });
  await expect(rejected).toContainText('not JSON');
  await expect(rejected).toContainText('the model said the passage has no answer');
  await expect(rejected).toContainText(/\d+ % of its content words are in the passage \(> 80 %\)/);

  // Moving the copy-share threshold to 100 % keeps the copied questions too.
  const kept = Number(/^(\d+) kept/.exec(summary)![1]);
  const copied = Number(/copies the passage (\d+)/.exec(summary)![1]);
  await d.getByLabel('Copy-share threshold').fill('1');
  await expect(d.getByRole('list', { name: 'Kept questions' }).locator('li')).toHaveCount(kept + copied);
  await d.getByLabel('Copy-share threshold').fill('0.8');
  await expect(d.getByRole('list', { name: 'Kept questions' }).locator('li')).toHaveCount(kept);

  await d.getByRole('button', { name: `Add ${kept} questions to the question set` }).click();
  await expect(d.getByText(`Added ${kept} questions to the question set.`)).toBeVisible();
  expect(outside).toEqual([]);
});

test('the question set is exported in every format from a blob: URL and imported back: the same questions return', async ({ page }) => {
  test.setTimeout(300_000);
  const outside: string[] = [];
  await loadDocs(page, outside);
  const gen = page.getByRole('region', { name: 'Generator' });
  await gen.getByLabel('OpenAI-compatible endpoint').check();
  await gen.getByLabel('Endpoint base URL').fill(`${fake.url}/v1`);
  await gen.getByLabel('Endpoint model').fill('question-writer');
  await openDialog(page);
  await dialog(page).getByLabel('How many questions').fill('20');
  await expect(dialog(page).getByLabel('Before starting')).toContainText('20 passages from 2 documents');
  const summary = await runAndSummarise(page, 'mock endpoint, 20 for the file round trip');
  const kept = Number(/^(\d+) kept/.exec(summary)![1]);
  expect(kept).toBeGreaterThan(3);
  const keptTexts = await dialog(page).getByRole('list', { name: 'Kept questions' }).locator('li .q-q').allTextContents();
  await dialog(page).getByRole('button', { name: `Add ${kept} questions to the question set` }).click();
  await expect(dialog(page).getByText(`Added ${kept} questions to the question set.`)).toBeVisible();

  const files = page.getByRole('group', { name: 'Question set files' });
  const expected: Record<string, string> = {
    jsonl: 'question-set.jsonl',
    squad: 'question-set.squad.json',
    beir: 'question-set.beir.zip',
    ragas: 'question-set.ragas.jsonl',
    llamaindex: 'question-set.llamaindex.json',
  };
  // Every format exported from the same set first, then each imported back.
  const saved: Record<string, string> = {};
  // A folder of this test's own: test-results/ is emptied by any other Playwright run that starts meanwhile.
  const folder = mkdtempSync(join(tmpdir(), 'rag-lab-question-files-'));
  for (const [format, fileName] of Object.entries(expected)) {
    await files.getByLabel('Question set format').selectOption(format);
    const downloading = page.waitForEvent('download');
    await files.getByRole('button', { name: `Export ${kept} questions` }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(fileName);
    expect(download.url()).toMatch(/^blob:/);
    saved[format] = join(folder, fileName);
    await download.saveAs(saved[format]);
  }
  for (const [format, fileName] of Object.entries(expected)) {
    await files.getByLabel('Import a question set').setInputFiles(saved[format]!);
    const done = files.getByLabel('Imported question set');
    await expect(done.getByRole('status')).toContainText(`from ${fileName},`);
    const line = (await done.getByRole('status').textContent()) ?? '';
    const skipped = await done.getByRole('list', { name: 'Skipped lines' }).locator('li').allTextContents();
    console.log(`[question files] ${format}: ${line}${skipped.length ? `\n  ${skipped.slice(0, 5).join('\n  ')}` : ''}`);
    // The same questions come back (SQuAD groups them by document: compared as sets), none skipped; the format was detected from the file.
    expect((await done.getByRole('list', { name: 'Imported questions', includeHidden: true }).locator('li').allTextContents()).sort()).toEqual([...keptTexts].sort());
    expect(line).toMatch(new RegExp(`^Imported ${kept} questions from ${fileName.replace(/\./g, '\\.')}, read as .*; 0 skipped\\.$`));
  }

  // A bundle export carries the question set as its golden questions, with their gold spans: metrics too.
  const exportPanel = page.getByRole('region', { name: 'Export' });
  await expect(exportPanel.getByLabel('Golden run questions from')).toHaveValue('question-set');
  // The kept questions, and the copies of them imported from the four span formats (BEIR's are document-level: no spans).
  const total = await answerableCount(page);
  expect(total).toBe(5 * kept);
  await expect(exportPanel.getByText(`Golden run: the ${total} questions of the question set with gold spans`)).toBeVisible();
  const waiting = page.waitForEvent('download', { timeout: 180_000 });
  await exportPanel.getByRole('button', { name: 'Export bundle' }).click();
  const bundle = await waiting;
  const zipPath = join(folder, 'bundle.zip');
  await bundle.saveAs(zipPath);
  await expect(exportPanel.getByLabel('Exported bundle')).toContainText(`${total} golden questions`);
  const golden = JSON.parse(strFromU8(unzipSync(readFileSync(zipPath), { filter: (f) => f.name === 'golden.json' })['golden.json']!)) as {
    questions: { question: string; answers: string[]; targets: { spans?: unknown[] }[] }[];
    runs: { metrics: Record<string, number> | null }[];
  };
  expect(golden.questions).toHaveLength(total);
  expect(golden.questions.slice(0, kept).map((q) => q.question)).toEqual(keptTexts);
  expect(golden.questions.every((q) => q.answers.length > 0 && q.targets.every((t) => (t.spans?.length ?? 0) > 0))).toBe(true);
  expect(golden.runs.length).toBeGreaterThan(0);
  for (const r of golden.runs) expect(r.metrics).not.toBeNull();

  expect(fake.requests.every((r) => r.path === '/v1/chat/completions')).toBe(true);
  expect(outside).toEqual([]);
});

/** Questions of the set the worker holds that have gold spans (the golden run's source). */
async function answerableCount(page: Page): Promise<number> {
  const text = (await page.getByRole('region', { name: 'Export' }).getByLabel('Golden run questions from').locator('option:checked').textContent()) ?? '';
  return Number(/\((\d+) with answers\)/.exec(text)?.[1] ?? 0);
}

test('pause holds the run, cancel stops it and keeps what was made', async ({ page }) => {
  test.setTimeout(300_000);
  const outside: string[] = [];
  await loadDocs(page, outside);
  const gen = page.getByRole('region', { name: 'Generator' });
  await gen.getByLabel('OpenAI-compatible endpoint').check();
  await gen.getByLabel('Endpoint base URL').fill(`${fake.url}/v1`);
  await gen.getByLabel('Endpoint model').fill('question-writer-slow');
  await openDialog(page);
  const d = dialog(page);
  await expect(d.getByRole('button', { name: 'Start generating' })).toBeEnabled({ timeout: 20_000 });
  await d.getByRole('button', { name: 'Start generating' }).click();
  const progress = d.getByLabel('Generation progress').getByRole('status');
  await expect(progress).toContainText(/^[3-9] of 50 asked|^\d\d of 50 asked/, { timeout: 30_000 });
  await d.getByRole('button', { name: 'Pause' }).click();
  await expect(progress).toContainText(/^Paused · /);
  // The call in flight ends; then nothing more is asked while paused.
  await page.waitForTimeout(1000);
  const held = fake.requests.length;
  await page.waitForTimeout(1500);
  expect(fake.requests.length).toBe(held);
  await d.getByRole('button', { name: 'Resume' }).click();
  await expect.poll(() => fake.requests.length, { timeout: 10_000 }).toBeGreaterThan(held + 1);
  await d.getByRole('button', { name: 'Cancel (keep what was made)' }).click();
  const summary = d.getByLabel('Generation summary').locator('.q-summary');
  await expect(summary).toContainText(/^Cancelled: \d+ kept of \d+ asked/);
  const text = (await summary.textContent()) ?? '';
  console.log(`[question generation] cancelled run: ${text}`);
  const [, kept, asked] = /^Cancelled: (\d+) kept of (\d+) asked/.exec(text)!.map(Number);
  expect(asked).toBeLessThan(50);
  expect(asked).toBeGreaterThan(held);
  await expect(d.getByRole('list', { name: 'Kept questions' }).locator('li')).toHaveCount(kept!);
  if (kept) {
    await d.getByRole('button', { name: new RegExp(`^Add ${kept} questions? to the question set$`) }).click();
    await expect(d.getByText(new RegExp(`^Added ${kept} questions? to the question set\\.$`))).toBeVisible();
  }
  expect(outside).toEqual([]);
});

test('a rate-limited endpoint (429 with Retry-After) is waited for and asked again: no question is lost', async ({ page }) => {
  test.setTimeout(240_000);
  const outside: string[] = [];
  await loadDocs(page, outside);
  const gen = page.getByRole('region', { name: 'Generator' });
  await gen.getByLabel('OpenAI-compatible endpoint').check();
  await gen.getByLabel('Endpoint base URL').fill(`${fake.url}/v1`);
  await gen.getByLabel('Endpoint model').fill('question-writer-429');
  await openDialog(page);
  await dialog(page).getByLabel('How many questions').fill('4');
  await expect(dialog(page).getByLabel('Before starting')).toContainText('4 passages from 2 documents');
  const summary = await runAndSummarise(page, 'mock endpoint, first call rate-limited');
  // The replies of requests 0–3 (see questionReply): all JSON, none "unknown"; the 3rd copies its passage.
  expect(summary).toMatch(/^3 kept of 4 asked · 1 rejected \(copies the passage 1\) · 4 calls in/);
  // Five requests for four calls: the first was answered 429 and asked again after its Retry-After.
  expect(fake.requests).toHaveLength(5);
  expect(new Set(fake.requests.map((r) => r.messages.at(-1)?.content)).size).toBe(4);
  expect(outside).toEqual([]);
});
