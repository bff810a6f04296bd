import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { Document } from '../types';
import { LoaderError } from './builder';
import { detectFormat, loadDocument } from './load';
import * as F from './office-fixtures';
import { tableSentences } from './table-rows';
import { odsSheets } from './ods-sheet';
import { worksheetRows } from './xlsx-sheet';
import { ZIP_LIMITS } from './zip-xml';

const load = (name: string, bytes: Uint8Array) => loadDocument({ name, bytes });
const enc = (s: string) => new TextEncoder().encode(s);
const titles = (d: Document) => d.sections.slice(1).map((s) => `${'#'.repeat(s.level)} ${s.title}`);
const blocks = (d: Document) => d.text.split('\n\n');
/** The text of a section, its heading included, up to its first subsection. */
const sectionText = (d: Document, title: string) => {
  const s = d.sections.find((x) => x.title === title)!;
  const next = d.sections.find((x) => x.parent === s.id);
  return d.text.slice(s.start, next ? next.start : s.end).trim();
};

/** Rewrites an entry's uncompressed size in its local and central headers (a zip that lies about what it holds). */
function withDeclaredSize(zip: Uint8Array, name: string, size: number): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  const nameBytes = strToU8(name);
  for (let i = 0; i < out.length - 46; i++) {
    const sig = view.getUint32(i, true);
    const at = sig === 0x04034b50 ? { size: 22, nameLen: 26, name: 30 } : sig === 0x02014b50 ? { size: 24, nameLen: 28, name: 46 } : null;
    if (!at || view.getUint16(i + at.nameLen, true) !== nameBytes.length) continue;
    if (nameBytes.every((b, k) => out[i + at.name + k] === b)) view.setUint32(i + at.size, size, true);
  }
  return out;
}

async function rejection(name: string, bytes: Uint8Array): Promise<string> {
  const e = await load(name, bytes).then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(LoaderError);
  return (e as LoaderError).message;
}

describe('Word (.docx)', () => {
  const bytes = F.docx(
    [
      { h: 1, text: 'Results' },
      { p: 'Revenue grew in 2023.[^1]' },
      { table: [['Region', 'Revenue'], ['North', '120'], ['South', '95']] },
      { li: 'First point' },
      { li: 'Second point' },
      { h: 2, text: 'Method' },
      { p: 'We counted every invoice.' },
      { h: 1, text: 'Outlook' },
      { p: 'Growth will slow.' },
    ],
    { title: 'Annual report', footnotes: { 1: 'Audited figures.' } },
  );

  it('makes the heading tree, keeps paragraphs and list items, writes table rows with their headers', async () => {
    const d = await load('report.docx', bytes);
    expect(d.meta).toMatchObject({ format: 'docx', author: 'Ana Lima', created: '2024-03-01T10:00:00.000Z' });
    expect(d.title).toBe('Annual report');
    expect(titles(d)).toEqual(['# Results', '## Method', '# Outlook']);
    expect(d.sections[2]!.parent).toBe(1);
    expect(blocks(d)).toEqual([
      'Results',
      'Revenue grew in 2023.[1]',
      'Region: North; Revenue: 120',
      'Region: South; Revenue: 95',
      'First point',
      'Second point',
      'Note [1]: Audited figures.',
      'Method',
      'We counted every invoice.',
      'Outlook',
      'Growth will slow.',
    ]);
  });

  it('puts a footnote at the end of the section that cites it', async () => {
    const d = await load('report.docx', bytes);
    expect(sectionText(d, 'Results').endsWith('Note [1]: Audited figures.')).toBe(true);
  });

  it('takes the first heading as title when the properties have none', async () => {
    const d = await load('untitled.docx', F.docx([{ h: 1, text: 'Quarterly review' }, { p: 'Text.' }]));
    expect(d.title).toBe('Quarterly review');
  });
});

describe('OpenDocument text (.odt)', () => {
  const bytes = F.odt(
    [
      { h: 1, text: 'Resultados' },
      { p: 'A receita cresceu.', note: 'Números auditados.' },
      { table: [['Estado', 'Capital'], ['Tocantins', 'Palmas'], ['Bahia', 'Salvador']] },
      { li: 'Item um' },
      { h: 2, text: 'Método' },
      { p: 'Contamos as notas.' },
      { h: 1, text: 'Perspectiva' },
      { p: 'O crescimento abranda.' },
    ],
    { title: 'Relatório anual' },
  );

  it('keeps headings by outline level, table rows as sentences and the footnote at the end of its section', async () => {
    const d = await load('relatorio.odt', bytes);
    expect(d.title).toBe('Relatório anual');
    expect(d.language).toBe('pt');
    expect(d.meta.author).toBe('Ana Lima');
    expect(titles(d)).toEqual(['# Resultados', '## Método', '# Perspectiva']);
    expect(sectionText(d, 'Resultados')).toBe(
      ['Resultados', 'A receita cresceu.[1]', 'Estado: Tocantins; Capital: Palmas', 'Estado: Bahia; Capital: Salvador', 'Item um', 'Note [1]: Números auditados.'].join('\n\n'),
    );
  });

  it('refuses a password-protected file, naming the reason', async () => {
    expect(await rejection('secret.odt', F.odt([{ p: 'x' }], { encrypted: true }))).toBe('secret.odt: the file is password-protected; remove the password and save it again');
  });
});

describe('slides (.pptx, .odp)', () => {
  const deck: F.SlideSpec[] = [
    { title: 'Why we moved', body: ['Costs fell by a third', 'Support is faster'], notes: 'Mention the Lisbon office' },
    { body: ['A slide without a title'] },
    { title: 'Offices', body: [], table: [['City', 'Staff'], ['Lisbon', '42'], ['Porto', '17']] },
  ];
  for (const [name, bytes] of [
    ['deck.pptx', F.pptx(deck, 'Moving offices')],
    ['deck.odp', F.odp(deck)],
  ] as const) {
    it(`${name}: one section per slide titled by its title or "Slide n", notes marked, slide number = page`, async () => {
      const d = await load(name, bytes);
      expect(titles(d)).toEqual(['# Why we moved', '# Slide 2', '# Offices']);
      expect(d.pages.map((p) => [p.number, d.text.slice(p.start, p.end)])).toEqual([
        [1, 'Why we moved\n\nCosts fell by a third\n\nSupport is faster\n\nSpeaker notes: Mention the Lisbon office'],
        [2, 'Slide 2\n\nA slide without a title'],
        [3, 'Offices\n\nCity: Lisbon; Staff: 42\n\nCity: Porto; Staff: 17'],
      ]);
      expect(d.meta.pageCount).toBe(3);
      expect(d.title).toBe(name.endsWith('pptx') ? 'Moving offices' : 'Why we moved');
    });
  }
});

describe('spreadsheets (.xlsx, .ods, .csv, .tsv)', () => {
  it('xlsx: a section per sheet, a caption row, the header row detected, empty rows/columns skipped, formulas by cached value', async () => {
    const bytes = F.xlsx(
      [
        { name: 'Capitais', rows: [['Capitais do Brasil'], [], ['Estado', null, 'Capital', 'Área (km²)'], ['Tocantins', null, 'Palmas', 277720], ['Bahia', null, 'Salvador', { formula: 'SUM(564000,733)', value: 564733 }]] },
        { name: 'Vazia', rows: [] },
        { name: 'Pares', rows: [[1, 2], [3, 4]] },
      ],
      'Estados',
    );
    const d = await load('estados.xlsx', bytes);
    expect(d.title).toBe('Estados');
    expect(titles(d)).toEqual(['# Capitais', '# Pares']);
    expect(blocks(d)).toEqual([
      'Capitais',
      'Capitais do Brasil',
      'Estado: Tocantins; Capital: Palmas; Área (km²): 277720',
      'Estado: Bahia; Capital: Salvador; Área (km²): 564733',
      'Pares',
      '1; 2',
      '3; 4',
    ]);
    expect(d.meta.extra).toMatchObject({ rows: '4', sheets: '3' });
  });

  it('xlsx without a title property is titled by its file name, not a sheet', async () => {
    expect((await load('budget 2024.xlsx', F.xlsx([{ name: 'Sheet1', rows: [['a', 'b'], ['1', '2']] }]))).title).toBe('budget 2024');
  });

  it('ods: rows with their headers, one section per sheet', async () => {
    const d = await load('capitais.ods', F.ods([{ name: 'Norte', rows: [['Estado', 'Capital'], ['Tocantins', 'Palmas'], ['Pará', 'Belém']] }]));
    expect(titles(d)).toEqual(['# Norte']);
    expect(blocks(d).slice(1)).toEqual(['Estado: Tocantins; Capital: Palmas', 'Estado: Pará; Capital: Belém']);
  });

  it('csv: delimiter detected, quoted fields with newlines, blank lines skipped; tsv by tabs', async () => {
    const csv = await load('capitais.csv', enc('Estado;Capital\nTocantins;Palmas\n"Rio de Janeiro";"Rio de\nJaneiro"\n\n'));
    expect(blocks(csv)).toEqual(['Estado: Tocantins; Capital: Palmas', 'Estado: Rio de Janeiro; Capital: Rio de Janeiro']);
    const tsv = await load('t.tsv', enc('City\tPopulation\nLisbon\t545000\n'));
    expect(tsv.text).toBe('City: Lisbon; Population: 545000');
  });

  it('xlsx cells: shared and inline strings, booleans, errors, formulas by cached value, dates from date styles, sparse columns', () => {
    const xml =
      '<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="C1" t="inlineStr"><is><t>Inline &amp; more</t><rPh><t>ignored</t></rPh></is></c></row>' +
      '<row r="2"/><row r="3"><c r="A3" t="b"><v>1</v></c><c r="B3" t="e"><v>#N/A</v></c><c r="C3"><f>A1*2</f><v>42.5</v></c><c r="D3" s="1"><v>45366</v></c><c r="E3" s="1"><v>45366.5</v></c></row></sheetData></worksheet>';
    expect(worksheetRows(xml, ['Shared'], [false, true])).toEqual([
      ['Shared', '', 'Inline & more'],
      ['TRUE', '#N/A', '42.5', '2024-03-15', '2024-03-15 12:00'],
    ]);
  });

  it('ods cells: repeated cells and rows expanded only when filled, spaces (text:s) kept, comments dropped', () => {
    const cell = (t: string, attrs = '') => `<table:table-cell${attrs}>${t ? `<text:p>${t}</text:p>` : ''}</table:table-cell>`;
    const xml =
      '<office:spreadsheet><table:table table:name="Prices">' +
      `<table:table-row>${cell('Item')}${cell('', ' table:number-columns-repeated="2"')}${cell('Price')}${cell('', ' table:number-columns-repeated="16380"')}</table:table-row>` +
      `<table:table-row table:number-rows-repeated="2">${cell('Tea<text:s text:c="2"/>leaf<office:annotation><text:p>check</text:p></office:annotation>')}${cell('', ' table:number-columns-repeated="2"')}${cell('3', ' table:number-columns-repeated="1"')}</table:table-row>` +
      `<table:table-row table:number-rows-repeated="1048570">${cell('', ' table:number-columns-repeated="16384"')}</table:table-row>` +
      '</table:table></office:spreadsheet>';
    const [sheet] = odsSheets(xml);
    expect(sheet!.name).toBe('Prices');
    expect(sheet!.rows).toEqual([
      ['Item', '', '', 'Price'],
      ['Tea  leaf', '', '', '3'],
      ['Tea  leaf', '', '', '3'],
    ]);
  });

  it('header detection: a first row of numbers is data, not headers', () => {
    expect(tableSentences([['1', '2'], ['3', '4']])).toEqual({ caption: null, headers: null, rows: ['1; 2', '3; 4'] });
    expect(tableSentences([['Name', 'Name'], ['a', 'b']]).headers).toBeNull(); // repeated labels are not headers
    expect(tableSentences([['Name', 'Score'], ['Ana', ''], ['', '7']]).rows).toEqual(['Name: Ana', 'Score: 7']);
  });
});

describe('EPUB', () => {
  it('chapters in spine order, titled from the table of contents, the repeated chapter heading dropped, XHTML through the HTML loader', async () => {
    const bytes = F.epub(
      [
        { title: 'The Harbour', html: '<h1>The Harbour</h1><p>It began at the harbour.</p><h2>Night</h2><p>The lamps were lit.</p><script>alert(1)</script>' },
        { title: 'Preface', html: '<p>Why this book exists.</p>' },
      ],
      { title: 'A Coastal Town', author: 'M. Sousa', language: 'en', order: [1, 0] },
    );
    const d = await load('town.epub', bytes);
    expect(d.title).toBe('A Coastal Town');
    expect(d.meta.author).toBe('M. Sousa');
    expect(titles(d)).toEqual(['# Preface', '# The Harbour', '### Night']);
    expect(blocks(d)).toEqual(['Preface', 'Why this book exists.', 'The Harbour', 'It began at the harbour.', 'Night', 'The lamps were lit.']);
  });
});

describe('EPUB 2 and DRM', () => {
  const container = '<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="content.opf"/></rootfiles></container>';
  const opf =
    '<package xmlns="http://www.idpf.org/2007/opf" version="2.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Old Book</dc:title><dc:language>pt-PT</dc:language></metadata>' +
    '<manifest><item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/><item id="a" href="a%20b.html" media-type="application/xhtml+xml"/></manifest><spine toc="ncx"><itemref idref="a"/></spine></package>';
  const ncx = '<ncx><navMap><navPoint id="p1"><navLabel><text>Capítulo um</text></navLabel><content src="a%20b.html#start"/></navPoint></navMap></ncx>';
  const chapter = '<html><body><p>Era uma vez um farol.</p></body></html>';

  it('titles chapters from the NCX table of contents (EPUB 2), hrefs decoded and fragments dropped', async () => {
    const d = await load('old.epub', F.zip({ 'META-INF/container.xml': container, 'content.opf': opf, 'toc.ncx': ncx, 'a b.html': chapter }));
    expect(d.title).toBe('Old Book');
    expect(d.language).toBe('pt');
    expect(titles(d)).toEqual(['# Capítulo um']);
    expect(d.text).toBe('Capítulo um\n\nEra uma vez um farol.');
  });

  it('refuses a DRM-protected book', async () => {
    const encryption = '<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><EncryptedData xmlns="http://www.w3.org/2001/04/xmlenc#"><EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/></EncryptedData></encryption>';
    const bytes = F.zip({ 'META-INF/container.xml': container, 'META-INF/encryption.xml': encryption, 'content.opf': opf, 'toc.ncx': ncx, 'a b.html': chapter });
    expect(await rejection('locked.epub', bytes)).toBe('locked.epub: the e-book is DRM-protected (its chapters are encrypted)');
  });
});

describe('office files: bad input, one clear line each', () => {
  it('a zip that is not the format its name says', async () => {
    expect(await rejection('report.docx', F.xlsx([{ name: 'x', rows: [['a']] }]))).toBe('report.docx: a zip archive, but not a Word document (it has no word/document.xml)');
    expect(await rejection('deck.pptx', F.docx([{ p: 'x' }]))).toBe('deck.pptx: a zip archive, but not a PowerPoint presentation (.pptx) (it has no ppt/presentation.xml)');
    expect(await rejection('book.epub', F.docx([{ p: 'x' }]))).toBe('book.epub: a zip archive, but not an EPUB e-book (it has no META-INF/container.xml)');
    expect(await rejection('sheet.ods', F.odt([{ p: 'x' }]))).toBe('sheet.ods: a zip archive, but not an OpenDocument spreadsheet (.ods) (its type is application/vnd.oasis.opendocument.text)');
  });

  it('a truncated or corrupt file', async () => {
    const whole = F.docx([{ p: 'Some text here.' }]);
    expect(await rejection('cut.docx', whole.slice(0, Math.floor(whole.length / 2)))).toMatch(/^cut\.docx: the file is corrupt or truncated: its zip cannot be read/);
    expect(await rejection('noise.xlsx', enc('just some text, not a zip'))).toBe('noise.xlsx: not an Excel workbook (.xlsx): the file is not a zip archive');
  });

  it('a password-protected (encrypted OLE2) office file', async () => {
    const ole = new Uint8Array(512);
    ole.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    expect(await rejection('secret.xlsx', ole)).toBe(
      'secret.xlsx: the file is password-protected (encrypted) or in an old binary Office format, not an Excel workbook (.xlsx) as saved today: remove the password, or save it again as .docx, .xlsx or .pptx',
    );
  });

  it('a decompression bomb is refused from its headers, naming the limit', async () => {
    // An entry whose header says 300 MB (a real one would be ~300 KB of deflated zeros): refused before inflating a byte.
    const bomb = withDeclaredSize(zipSync({ 'word/document.xml': new Uint8Array(1000), '[Content_Types].xml': strToU8('<Types/>') }), 'word/document.xml', 300 * 1024 * 1024);
    expect(await rejection('bomb.docx', bomb)).toMatch(/^bomb\.docx: refused as a possible decompression bomb: word\/document\.xml would inflate to 300 MB, over the 256 MB limit per entry$/);
    // 20 MB of zeros deflate to ~20 KB: a ratio of ~1000.
    const ratioBomb = zipSync({ 'xl/workbook.xml': new Uint8Array(20 * 1024 * 1024) }, { level: 9 });
    expect(await rejection('ratio.xlsx', ratioBomb)).toMatch(/^ratio\.xlsx: refused as a possible decompression bomb: xl\/workbook\.xml would inflate \d+ times its size, over the limit of 200 times$/);
    expect(ZIP_LIMITS.maxRatio).toBe(200);
  });

  it('is detected by extension, images by their bytes', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    expect(detectFormat('scan.bin', png)).toBe('image');
    expect(detectFormat('a.DOCX', new Uint8Array([0x50, 0x4b, 3, 4]))).toBe('docx');
    expect(['odt', 'pptx', 'odp', 'xlsx', 'ods', 'csv', 'tsv', 'epub'].map((e) => detectFormat(`f.${e}`, new Uint8Array(4)))).toEqual(['odt', 'pptx', 'odp', 'xlsx', 'ods', 'csv', 'tsv', 'epub']);
  });
});
