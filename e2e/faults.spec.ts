import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { minimalPdf } from './fixtures/pdf';

/**
 * The fault matrix, as the user sees it: whatever is dropped, the page keeps working,
 * says what went wrong with which file, keeps everything else, and sends nothing anywhere.
 */

import { ORIGIN } from './origin';
const fixtures = resolve(import.meta.dirname, 'fixtures');

type Upload = { name: string; mimeType: string; buffer: Buffer };
const md = (name: string, text: string): Upload => ({ name, mimeType: 'text/markdown', buffer: Buffer.from(text) });

function docList(page: Page) {
  return page.getByRole('list', { name: 'Indexed documents' });
}
function indexed(page: Page) {
  return docList(page).locator('li.doc:not(.pending)');
}
/** The corpus panel's list of problems (the results area has its own alert). */
function problems(page: Page) {
  return page.getByRole('region', { name: 'Documents' }).getByRole('alert');
}
function column(page: Page, name: string) {
  return page.getByRole('region', { name: new RegExp(`^${name}`) });
}
async function drop(page: Page, files: Upload[]): Promise<void> {
  await page.locator('input[type=file]').setInputFiles(files);
}
async function ask(page: Page, question: string): Promise<void> {
  await page.getByLabel('Question', { exact: true }).fill(question);
  await page.getByRole('button', { name: 'Ask' }).click();
}
/** Indexing of the last drop has finished (the cancel button is gone, nothing pending). */
async function indexingDone(page: Page, timeout = 60_000): Promise<void> {
  await expect(page.getByRole('button', { name: 'Cancel indexing' })).toHaveCount(0, { timeout });
}

const safeDecode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

const TEA = md('tea.md', '# Tea\n\nGreen tea is made from unoxidised leaves. Black tea is fully oxidised before drying.');

test('a password-protected PDF is named and refused; the good file dropped with it is indexed', async ({ page }) => {
  await page.goto('/?em=none');
  await drop(page, [{ name: 'password-protected.pdf', mimeType: 'application/pdf', buffer: readFileSync(resolve(fixtures, 'password-protected.pdf')) }, TEA]);
  await expect(problems(page)).toContainText(/password-protected\.pdf: the PDF is password-protected/);
  await expect(indexed(page)).toHaveCount(1);
  await expect(indexed(page)).toContainText('tea.md');
  await indexingDone(page);
  await expect(docList(page).locator('li.doc.pending')).toHaveCount(0);
  await ask(page, 'Is black tea fully oxidised?');
  await expect(column(page, 'Sentence hits').locator('mark').first()).toContainText('Black tea is fully oxidised');
});

test('a scanned PDF page with no text, not even for OCR, says so', async ({ page }) => {
  await page.goto('/?em=none');
  await drop(page, [{ name: 'scan.pdf', mimeType: 'application/pdf', buffer: Buffer.from(minimalPdf({ drawingOnly: true })) }, TEA]);
  await expect(problems(page)).toContainText('scan.pdf: no text found, not even by OCR', { timeout: 60_000 });
  await expect(indexed(page)).toHaveCount(1);
  await expect(indexed(page)).not.toContainText('scan.pdf');
});

test('a binary file renamed .txt is named and called binary', async ({ page }) => {
  await page.goto('/?em=none');
  const bytes = Buffer.alloc(4096);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 131 + 7) % 256; // NULs and every other byte value
  bytes.write('Looks like text at first. ', 0, 'latin1');
  await drop(page, [{ name: 'holiday-photo.txt', mimeType: 'text/plain', buffer: bytes }, TEA]);
  await expect(problems(page)).toContainText(/holiday-photo\.txt: this looks like a binary file/);
  await expect(indexed(page)).toHaveCount(1);
  await expect(indexed(page)).not.toContainText('holiday-photo.txt');
});

test('UTF-16 LE (with BOM) and Latin-1 text files are decoded with their accents', async ({ page }) => {
  await page.goto('/?em=none');
  const utf16 = 'O Coração do Porto bate forte na Ribeira.\r\nAs pontes sobre o Douro ligam as duas margens.\r\n';
  const latin1 = 'O café é servido às três horas em São Tomé.\nA pastelaria fica ao lado da estação.\n';
  await drop(page, [
    { name: 'porto-utf16.txt', mimeType: 'text/plain', buffer: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(utf16, 'utf16le')]) },
    { name: 'cafe-latin1.txt', mimeType: 'text/plain', buffer: Buffer.from(latin1, 'latin1') },
  ]);
  await expect(indexed(page)).toHaveCount(2);
  await expect(problems(page)).toHaveCount(0);
  const hits = column(page, 'Sentence hits');
  await ask(page, 'Coração do Porto');
  await expect(hits.locator('mark').first()).toHaveText('O Coração do Porto bate forte na Ribeira.');
  // Typed without accents, the accented words are still found (and shown with them).
  await ask(page, 'cafe servido as tres horas em Sao Tome');
  await expect(hits.locator('mark').first()).toHaveText('O café é servido às três horas em São Tomé.');
  await expect(hits).not.toContainText('\uFFFD');
});

test('1,000 small Markdown files are all indexed, with the page answering questions meanwhile', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto('/?em=none');
  const files = Array.from({ length: 1000 }, (_, i) =>
    md(`note-${String(i).padStart(4, '0')}.md`, `# Note ${i}\n\nThis note records the fact zqn${i} for the archive. It was written on day ${i % 365}.`),
  );
  await drop(page, files);
  // While the files are being indexed, a question already gets answered from what is in.
  await expect(indexed(page).first()).toBeVisible({ timeout: 60_000 });
  await ask(page, 'Which note records zqn0?');
  await expect(column(page, 'Sentence hits').locator('mark').first()).toContainText('zqn0', { timeout: 30_000 });
  await expect(indexed(page)).toHaveCount(1000, { timeout: 240_000 });
  await indexingDone(page);
  await expect(docList(page).locator('li.doc.pending')).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(0);
  // The last file is searchable too, and typing still works.
  await ask(page, 'What does note zqn999 record?');
  await expect(column(page, 'Sentence hits').locator('mark').first()).toContainText('zqn999', { timeout: 30_000 });
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('the same file twice, in one drop and in a second one, is indexed once with a message', async ({ page }) => {
  await page.goto('/?em=none');
  const text = '# Planets\n\nMercury is the closest planet to the Sun. Venus is the hottest planet.';
  await drop(page, [md('planets.md', text), md('planets (copy).md', text)]);
  await expect(problems(page)).toContainText('planets (copy).md: the same content is already in the corpus');
  await expect(indexed(page)).toHaveCount(1);
  await indexingDone(page);
  await drop(page, [md('planets.md', text)]);
  await expect(problems(page).locator('li')).toHaveCount(2);
  await expect(problems(page).locator('li').nth(1)).toHaveText('planets.md: the same content is already in the corpus');
  await indexingDone(page);
  await expect(docList(page).locator('li.doc')).toHaveCount(1);
  // The text is in the index once: one hit for its one sentence about Venus.
  await ask(page, 'Which is the hottest planet, Venus?');
  const hits = column(page, 'Sentence hits');
  await expect(hits.locator('mark').first()).toHaveText('Venus is the hottest planet.');
  await expect(hits.locator('article.block').filter({ hasText: 'Venus' })).toHaveCount(1);
});

test('a 10,000-character question is answered and the page does not freeze', async ({ page }) => {
  await page.goto('/?em=none');
  await drop(page, [TEA]);
  await expect(indexed(page)).toHaveCount(1);
  const filler = 'what about the leaves and their oxidation and drying process in detail ';
  const question = `How is black tea made? ${filler.repeat(200)}`.slice(0, 10_000);
  expect(question.length).toBe(10_000);
  await ask(page, question);
  const hits = column(page, 'Sentence hits');
  await expect(hits.locator('article.block').first()).toBeVisible({ timeout: 30_000 });
  await expect(hits.locator('mark').first()).toContainText('tea');
  await expect(page.getByRole('alert')).toHaveCount(0);
  // Still responsive: the question box takes typing at once, and a new question is answered.
  const box = page.getByLabel('Question', { exact: true });
  await box.fill('');
  await box.pressSequentially('green tea', { delay: 10, timeout: 5_000 });
  await expect(box).toHaveValue('green tea', { timeout: 5_000 });
  await page.getByRole('button', { name: 'Ask' }).click();
  await expect(hits.locator('mark').first()).toContainText('Green tea is made from unoxidised leaves.', { timeout: 10_000 });
});

test('HTML and PDF files carrying <script>, onerror= and javascript: show them as text and run nothing', async ({ page }) => {
  await page.goto('/?em=none');
  const html = `<!doctype html><html><head><title>Harbour notes</title><script>window.__pwned = true</script></head><body>
    <h1>Harbour notes</h1>
    <p>The harbour opens at dawn for the fishing fleet. <script>window.__pwned = true</script><img src=x onerror="window.__pwned = true">
    Visitors can read the <a href="javascript:window.__pwned=true">harbour timetable</a> at the gate.</p>
    <p>The sign literally says &lt;script&gt;window.__pwned = true&lt;/script&gt; in the harbour office.</p>
    <svg onload="window.__pwned = true"><script>window.__pwned = true</script></svg>
  </body></html>`;
  const pdfLines = [
    'The lighthouse keeper typed <script>window.__pwned = true</script> into the log.',
    'He also typed <img src=x onerror="window.__pwned = true"> in the lighthouse log.',
    'And a lighthouse link javascript:window.__pwned=true at the end.',
  ];
  await drop(page, [
    { name: 'harbour.html', mimeType: 'text/html', buffer: Buffer.from(html) },
    { name: 'lighthouse.pdf', mimeType: 'application/pdf', buffer: Buffer.from(minimalPdf({ text: pdfLines })) },
  ]);
  await expect(indexed(page)).toHaveCount(2);
  await expect(problems(page)).toHaveCount(0);

  const hits = column(page, 'Sentence hits');
  await ask(page, 'What did the lighthouse keeper type into the lighthouse log?');
  await expect(hits.locator('.block-text').filter({ hasText: '<script>window.__pwned = true</script> into the log.' })).toHaveCount(1);
  await expect(hits.locator('.block-text').filter({ hasText: '<img src=x onerror="window.__pwned = true">' })).toHaveCount(1);
  await expect(hits.locator('.block-text').filter({ hasText: 'javascript:window.__pwned=true' })).toHaveCount(1);

  await ask(page, 'harbour office sign timetable dawn');
  // The HTML's visible text is shown; its script and attributes were never text.
  await expect(hits).toContainText('The harbour opens at dawn for the fishing fleet.');
  await expect(hits).toContainText('Visitors can read the harbour timetable at the gate.');
  await expect(hits).toContainText('The sign literally says <script>window.__pwned = true</script> in the harbour office.');
  await expect(hits).not.toContainText('onerror');

  // The document view shows the text as text too.
  await hits.locator('article.block').first().click();
  const view = page.getByRole('complementary', { name: 'Document view' });
  await expect(view).toContainText('<script>window.__pwned = true</script>');

  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(await page.locator('.block script, .block img, .block svg, .block a[href^="javascript"]').count()).toBe(0);
  expect(await view.locator('script, img, a[href^="javascript"]').count()).toBe(0);
});

test('a self-hosted model that is not there: the Models panel says so, and questions get BM25 columns', async ({ page }) => {
  await page.goto('/?em=foo/bar~q8~wasm~local');
  const models = page.getByRole('region', { name: 'Models' });
  await expect(models.getByRole('status').first()).toContainText(/BM25 results are shown meanwhile: model files not found at .*foo\/bar/, { timeout: 60_000 });
  await drop(page, [TEA]);
  await expect(indexed(page)).toHaveCount(1);
  await ask(page, 'Is black tea fully oxidised?');
  const hits = column(page, 'Sentence hits');
  await expect(hits.locator('mark').first()).toContainText('Black tea is fully oxidised');
  await expect(hits).toContainText('BM25 results only');
  await expect(column(page, 'Hybrid RRF')).toContainText('BM25 results only');
  // Each column names the retriever that really ranked it, and the document says why it has no vectors.
  await expect(hits.locator('h3')).toHaveText('Sentence hits · vector · ranked by BM25 only');
  await expect(column(page, 'Hybrid RRF').locator('h3')).toContainText('· ranked by BM25 only');
  await expect(page.getByRole('list', { name: 'Indexed documents' }).locator('.doc-stage')).toContainText('BM25 only: no vectors');
  await expect(page.getByRole('list', { name: 'Indexed documents' }).locator('.doc-stage')).toContainText('the embedding model could not load');
  await expect(page.getByRole('list', { name: 'Indexed documents' })).not.toContainText('embedding 0%');
});

/** 40 files, each with one unique word; two large ones so that indexing takes a while. */
function cancelCorpus(): { files: Upload[]; tokens: string[] } {
  const tokens = Array.from({ length: 40 }, (_, i) => `zqcancel${i}x`);
  const para = (i: number) => `Paragraph ${i} of a long report describes routine maintenance of pumps, valves and filters in the plant. Inspections happen every week and findings are logged.\n\n`;
  const big = (i: number) => `# Large report ${i}\n\n${Array.from({ length: 12_000 }, (_, k) => para(k)).join('')}The unique word of this report is ${tokens[i]}.\n`;
  const files = tokens.map((_, i) =>
    i === 12 || i === 30
      ? md(`file-${String(i).padStart(2, '0')}.md`, big(i))
      : md(`file-${String(i).padStart(2, '0')}.md`, `# File ${i}\n\nThe unique word of file ${i} is ${tokens[i]}. Nothing else here matters.`),
  );
  return { files, tokens };
}

test('cancelling mid-indexing keeps a consistent corpus: what is listed is searchable, nothing else is', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/?em=none&k=100');
  const { files, tokens } = cancelCorpus();
  await drop(page, files);
  await page.getByRole('button', { name: 'Cancel indexing' }).click({ timeout: 30_000 });
  await indexingDone(page);
  // The only message is the cancellation's.
  await expect(problems(page).locator('li')).toHaveCount(1);
  await expect(problems(page).locator('li')).toHaveText(/^Indexing was cancelled; the documents added so far are kept\. Not added: \d+ files?\.$/);
  await expect(page.locator('.results-error')).toHaveCount(0);

  const listed = await indexed(page).locator('.doc-title').evaluateAll((els) => els.map((e) => e.getAttribute('title')!));
  expect(listed.length).toBeLessThan(40); // it really was cancelled mid-way
  test.info().annotations.push({ type: 'listed after cancel', description: `${listed.length} of 40` });
  expect(new Set(listed).size).toBe(listed.length);
  const listedTokens = new Set(listed.map((name) => tokens[Number(/file-(\d+)\.md/.exec(name)![1])]!));

  // One question holding every file's unique word: what search finds is exactly what is listed.
  await ask(page, tokens.join(' '));
  const hits = column(page, 'Sentence hits');
  if (listed.length > 0) await expect(hits.locator('article.block').first()).toBeVisible();
  await expect(hits.locator('article.block')).toHaveCount(listed.length);
  const text = await hits.locator('.block-text').allInnerTexts();
  const found = new Set(tokens.filter((t) => text.some((x) => new RegExp(`\\b${t}\\b`).test(x))));
  expect([...found].sort()).toEqual([...listedTokens].sort());
  // And each listed document answers a question of its own.
  for (const t of [...listedTokens].slice(0, 5)) {
    await ask(page, `Which file has the word ${t}?`);
    await expect(hits.locator('mark').first()).toContainText(t);
  }
});

test('after a cancel, files that were never reached do not stay listed as "parsing…"', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/?em=none');
  await drop(page, cancelCorpus().files);
  await page.getByRole('button', { name: 'Cancel indexing' }).click({ timeout: 30_000 });
  await indexingDone(page);
  await expect(problems(page)).toContainText('Indexing was cancelled');
  await expect(docList(page).locator('li.doc.pending')).toHaveCount(0, { timeout: 5_000 });
  await expect(problems(page)).toContainText(/Not added: \d+ files?\./);
});

test('nothing leaves the machine: no request carries document or question text, and none leaves 127.0.0.1', async ({ page, context }) => {
  test.setTimeout(180_000);
  const DOC_MARKER = 'zq7marker';
  const QUESTION_MARKER = 'zq9question';
  const requests: { url: string; body: string }[] = [];
  const sockets: string[] = [];
  const blocked: string[] = [];
  context.on('request', (r) => {
    let body = '';
    try {
      body = r.postData() ?? '';
    } catch {
      body = r.postDataBuffer()?.toString('latin1') ?? '';
    }
    requests.push({ url: r.url(), body });
  });
  page.on('websocket', (ws) => sockets.push(ws.url()));
  // An attempt that the page's Content-Security-Policy stopped is still an attempt.
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) blocked.push(m.text());
  });

  await page.goto('/?em=rag-lab/test-embedder~fp32~wasm~local');
  await expect(page.getByRole('region', { name: 'Models' }).getByText(/TEST MODEL — random vectors/)).toBeVisible({ timeout: 60_000 });
  await drop(page, [
    md('secret-notes.md', `# Secret notes\n\nThe vault code word is ${DOC_MARKER} and it must stay private.\n\nThe garden has roses and tulips.`),
    { name: 'secret.pdf', mimeType: 'application/pdf', buffer: Buffer.from(minimalPdf({ text: [`The archive holds ${DOC_MARKER} on page one.`] })) },
    { name: 'secret.html', mimeType: 'text/html', buffer: Buffer.from(`<html><body><p>The html page names ${DOC_MARKER} once.</p></body></html>`) },
  ]);
  await expect(indexed(page)).toHaveCount(3);
  await expect(docList(page).getByText('ready', { exact: true })).toHaveCount(3, { timeout: 120_000 });
  await ask(page, `What is the vault code word ${QUESTION_MARKER}?`);
  const hits = column(page, 'Sentence hits');
  await expect(hits.locator('mark').first()).toContainText(DOC_MARKER);
  await expect(column(page, 'Hybrid RRF')).toContainText(/BM25 #\d/);
  await hits.locator('article.block').first().click();
  await expect(page.getByRole('complementary', { name: 'Document view' })).toContainText(DOC_MARKER);
  await page.waitForTimeout(1_000);

  // The listener saw the worker's traffic (the model files), so an empty verdict means something.
  expect(requests.some((r) => r.url.includes('/models/rag-lab/test-embedder/'))).toBe(true);
  const leaks = requests.filter((r) => [DOC_MARKER, QUESTION_MARKER].some((m) => r.url.includes(m) || r.body.includes(m) || safeDecode(r.url).includes(m)));
  expect.soft(leaks, 'requests carrying document or question text').toEqual([]);
  const outside = requests.filter((r) => !r.url.startsWith(`${ORIGIN}/`) && !r.url.startsWith('blob:') && !r.url.startsWith('data:'));
  expect.soft(outside.map((r) => r.url), 'requests that left 127.0.0.1').toEqual([]);
  expect.soft(blocked, 'connections refused by the Content-Security-Policy').toEqual([]);
  expect.soft(sockets, 'web sockets').toEqual([]);
});
