import { expect, test, type Page } from '@playwright/test';
import { zlibSync } from 'fflate';
import { docx, epub, imagePdf, ods, odp, odt, pptx, xlsx } from '../src/core/documents/office-fixtures';
import { textImage } from '../src/node/text-image';
import { ORIGIN } from './origin';

/**
 * A new user's files, one of each format, dropped on the page (written here by hand as zip +
 * XML; the scan drawn as an image): each is indexed, the list says its format, and a question
 * whose answer is in it is handed over by the sentence-window column with its section or
 * slide. One OCR case: a scanned PDF (a page that is only an image), rendered by pdf.js in the
 * worker and read by tesseract.js from files this site serves.
 */

const enc = (s: string) => Buffer.from(new TextEncoder().encode(s));
/**
 * Sentences around an answer, so that its window (top-k 1, ±3 sentences, from the heading or
 * the answer) holds the answer and stays inside its section, and the column names the
 * section; in a tiny file every window would span every section.
 */
const pad = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `Aside ${i + 1} of the ${tag} notes.`);
const around = (tag: string, answer: string) => [...pad(`${tag} opening`, 2), answer, ...pad(`${tag} closing`, 4)];
const FILES = [
  {
    name: 'harbour-report.docx',
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    bytes: docx(
      [
        { h: 1, text: 'Harbour dredging' },
        ...around('dredging', 'The harbour dredging removed forty thousand cubic metres of silt.').map((p) => ({ p })),
        { h: 1, text: 'Costs' },
        ...around('cost', 'Dredging cost two million euros.').map((p) => ({ p })),
      ],
      { title: 'Harbour report' },
    ),
    format: 'Word',
    question: 'How much silt did the harbour dredging remove?',
    answer: 'forty thousand cubic metres of silt',
    where: 'Harbour dredging',
  },
  {
    name: 'orchard-notes.odt',
    mime: 'application/vnd.oasis.opendocument.text',
    bytes: odt(
      [
        { h: 1, text: 'Apple orchard' },
        ...around('orchard', 'The orchard keeps ninety beehives for pollination.').map((p) => ({ p })),
        { h: 1, text: 'Pears' },
        ...around('pear', 'Pears are picked in September.').map((p) => ({ p })),
      ],
      { title: 'Orchard notes' },
    ),
    format: 'OpenDocument text',
    question: 'How many beehives does the orchard keep?',
    answer: 'ninety beehives',
    where: 'Apple orchard',
  },
  {
    name: 'tram-deck.pptx',
    mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    bytes: pptx([{ title: 'Tram network', body: around('network', 'Routes and stops.') }, { title: 'Night trams', body: around('night', 'Night trams run every twenty minutes after midnight.'), notes: 'Ask about weekend service' }], 'Tram plans'),
    format: 'PowerPoint',
    question: 'How often do night trams run after midnight?',
    answer: 'every twenty minutes after midnight',
    where: 'Night trams',
    pages: 'slide 2',
  },
  {
    name: 'glacier-talk.odp',
    mime: 'application/vnd.oasis.opendocument.presentation',
    bytes: odp([{ title: 'Glaciers', body: around('overview', 'An overview.') }, { title: 'Retreat', body: around('retreat', 'The glacier retreated eleven metres per year.') }]),
    format: 'OpenDocument slides',
    question: 'How many metres per year did the glacier retreat?',
    answer: 'retreated eleven metres per year',
    where: 'Retreat',
    pages: 'slide 2',
  },
  {
    name: 'capitals.xlsx',
    mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    bytes: xlsx([
      { name: 'Capitais', rows: [['Estado', 'Capital'], ['Acre', 'Rio Branco'], ['Amapá', 'Macapá'], ['Bahia', 'Salvador'], ['Tocantins', 'Palmas'], ['Goiás', 'Goiânia'], ['Pará', 'Belém'], ['Paraná', 'Curitiba'], ['Piauí', 'Teresina']] },
      { name: 'Regiões', rows: [['Região', 'Estados'], ...['Norte', 'Nordeste', 'Sul', 'Sudeste', 'Centro-Oeste'].map((r, i) => [r, String(3 + i)])] },
    ]),
    format: 'Excel',
    question: 'Qual é a capital do Tocantins?',
    answer: 'Estado: Tocantins; Capital: Palmas',
    where: 'Capitais',
  },
  {
    name: 'rivers.ods',
    mime: 'application/vnd.oasis.opendocument.spreadsheet',
    bytes: ods([
      { name: 'Rivers', rows: [['River', 'Length'], ['Elbe', '1094 km'], ['Rhine', '1230 km'], ['Loire', '1006 km'], ['Danube', '2850 km'], ['Tagus', '1007 km'], ['Douro', '897 km'], ['Oder', '840 km'], ['Po', '652 km']] },
      { name: 'Lakes', rows: [['Lake', 'Area'], ['Garda', '370 km²'], ['Geneva', '580 km²'], ['Constance', '536 km²'], ['Balaton', '592 km²']] },
    ]),
    format: 'OpenDocument sheet',
    question: 'How long is the Danube river?',
    answer: 'River: Danube; Length: 2850 km',
    where: 'Rivers',
  },
  {
    name: 'lighthouses.csv',
    mime: 'text/csv',
    bytes: enc('Lighthouse,Height\nCabo da Roca,22 metres\nFastnet,54 metres\n'),
    format: 'CSV',
    question: 'What is the height of the Fastnet lighthouse?',
    answer: 'Lighthouse: Fastnet; Height: 54 metres',
    where: null,
  },
  {
    name: 'weaver.epub',
    mime: 'application/epub+zip',
    bytes: epub(
      [
        { title: 'The Loom', html: `<h1>The Loom</h1>${around('loom', 'The weaver threaded the loom with indigo wool at dawn.').map((p) => `<p>${p}</p>`).join('')}` },
        { title: 'The Market', html: around('market', 'She sold scarves at the market.').map((p) => `<p>${p}</p>`).join('') },
      ],
      { title: 'The Weaver', author: 'A. Costa' },
    ),
    format: 'EPUB',
    question: 'What did the weaver thread the loom with?',
    answer: 'indigo wool',
    where: 'The Loom',
  },
];

const SCAN_LINES = ['The bakery on Rua Augusta', 'sells cinnamon pastries every morning.'];
const scanImage = textImage(SCAN_LINES, { dpi: 300, widthInches: 5 });
const scan = imagePdf([{ gray: scanImage.gray, width: scanImage.width, height: scanImage.height, dpi: 300 }], (d) => zlibSync(d));

function windows(page: Page) {
  return page.getByRole('region', { name: /^Sentence windows/ });
}

async function ask(page: Page, question: string) {
  await page.getByRole('searchbox', { name: 'Question' }).fill(question);
  await page.getByRole('button', { name: 'Ask' }).click();
}

test('one file of each format is indexed, listed with its format, and answers a question with its section or slide', async ({ page }) => {
  test.setTimeout(420_000);
  const outside: string[] = [];
  page.context().on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(ORIGIN) && !url.startsWith('blob:') && !url.startsWith('data:')) outside.push(url);
  });
  // Top-k 1: the window column hands over one window, around the best hit.
  await page.goto('/?em=rag-lab/test-embedder~fp32~wasm~local&k=1');
  await expect(page.getByRole('region', { name: 'Models' }).getByText(/TEST MODEL — random vectors/)).toBeVisible({ timeout: 60_000 });
  await page.locator('input[type=file]').setInputFiles([
    ...FILES.map((f) => ({ name: f.name, mimeType: f.mime, buffer: Buffer.from(f.bytes) })),
    { name: 'bakery-scan.pdf', mimeType: 'application/pdf', buffer: Buffer.from(scan) },
  ]);
  const docs = page.getByRole('list', { name: 'Indexed documents' });
  await expect(docs.locator('li.doc:not(.pending)')).toHaveCount(FILES.length + 1, { timeout: 240_000 });
  await expect(docs.getByText('ready')).toHaveCount(FILES.length + 1, { timeout: 120_000 });
  await expect(page.getByRole('alert')).toHaveCount(0);
  for (const f of FILES) await expect(docs.locator('li.doc').filter({ hasText: f.name }).locator('.doc-meta')).toContainText(`${f.name} · ${f.format} ·`);
  await expect(docs.locator('li.doc').filter({ hasText: 'tram-deck.pptx' }).locator('.doc-meta')).toContainText('2 slides');
  await expect(docs.locator('li.doc').filter({ hasText: 'bakery-scan.pdf' }).locator('.doc-meta')).toContainText('bakery-scan.pdf · PDF ·');
  await expect(docs.locator('li.doc').filter({ hasText: 'bakery-scan.pdf' })).toContainText('page 1 read by OCR');

  for (const f of FILES) {
    await ask(page, f.question);
    const first = windows(page).locator('article.block').first();
    await expect(first, f.name).toContainText(f.answer, { timeout: 60_000 });
    if (f.where) await expect(first.locator('.block-path'), f.name).toContainText(f.where);
    if ('pages' in f) await expect(first.locator('.block-pages'), f.name).toHaveText(` · ${f.pages}`);
  }
  await ask(page, 'Which pastries does the bakery sell every morning?');
  const scanned = windows(page).locator('article.block').first();
  await expect(scanned).toContainText('cinnamon pastries every morning', { timeout: 60_000 });
  await expect(scanned.locator('.block-pages')).toHaveText(' · p. 1');
  await expect(scanned.locator('.block-ocr')).toHaveText(/^ · read by OCR, confidence \d+$/);
  expect(outside).toEqual([]);
});

test('a bad file gets one line naming it and the reason; the others are indexed', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/?em=rag-lab/test-embedder~fp32~wasm~local');
  await expect(page.getByRole('region', { name: 'Models' }).getByText(/TEST MODEL — random vectors/)).toBeVisible({ timeout: 60_000 });
  const sheet = xlsx([{ name: 'S', rows: [['a', 'b'], ['1', '2']] }]);
  await page.locator('input[type=file]').setInputFiles([
    { name: 'not-really.docx', mimeType: 'application/octet-stream', buffer: Buffer.from(sheet) },
    { name: 'cut.pptx', mimeType: 'application/octet-stream', buffer: Buffer.from(FILES[2]!.bytes.slice(0, 200)) },
    { name: 'harbour-report.docx', mimeType: FILES[0]!.mime, buffer: Buffer.from(FILES[0]!.bytes) },
  ]);
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('not-really.docx: a zip archive, but not a Word document (it has no word/document.xml)', { timeout: 120_000 });
  await expect(alert).toContainText('cut.pptx: the file is corrupt or truncated');
  const docs = page.getByRole('list', { name: 'Indexed documents' });
  await expect(docs.locator('li.doc:not(.pending)')).toHaveCount(1, { timeout: 120_000 });
  await expect(docs).toContainText('Harbour report');
});
