import { SHARED_DATA } from '../../node/paths';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Document, Section } from '../types';
import { LoaderError } from './builder';
import { decodeText } from './decode';
import { detectFormat, documentFromText, loadDocument } from './load';

const DEMO = `${SHARED_DATA}/demo_docs`;
const enc = (s: string) => new TextEncoder().encode(s);

function loadDemo(path: string, name = path.split('/').pop()!): Promise<Document> {
  return loadDocument({ name, bytes: new Uint8Array(readFileSync(`${DEMO}/${path}`)) });
}

function section(doc: Document, title: string): Section {
  const s = doc.sections.find((x) => x.title === title);
  if (!s) throw new Error(`no section titled ${JSON.stringify(title)} in ${doc.meta.fileName}`);
  return s;
}

function childTitles(doc: Document, parent: Section): string[] {
  return doc.sections.filter((s) => s.parent === parent.id).map((s) => s.title);
}

/** The structural contract every loaded document keeps. */
function expectWellFormed(doc: Document): void {
  const { text, sections, pages } = doc;
  expect(text.length).toBeGreaterThan(0);
  expect(text).toBe(text.trim());
  const root = sections[0]!;
  expect(root).toMatchObject({ id: 0, level: 0, parent: null, start: 0, end: text.length, title: doc.title });
  sections.forEach((s, i) => {
    expect(s.id).toBe(i);
    expect(s.start).toBeLessThanOrEqual(s.end);
    if (i === 0) return;
    const parent = sections[s.parent!]!;
    expect(parent.id).toBeLessThan(s.id);
    expect(parent.level).toBeLessThan(s.level);
    // A section lies within its parent's range.
    expect(s.start).toBeGreaterThanOrEqual(parent.start);
    expect(s.end).toBeLessThanOrEqual(parent.end);
    // A section starts with its heading, as it appears in the text.
    expect(text.slice(s.start, s.start + s.title.length)).toBe(s.title);
    // Sections appear in document order.
    expect(s.start).toBeGreaterThanOrEqual(sections[i - 1]!.start);
  });
  // Siblings do not overlap.
  const byParent = new Map<number, Section[]>();
  for (const s of sections.slice(1)) byParent.set(s.parent!, [...(byParent.get(s.parent!) ?? []), s]);
  for (const kids of byParent.values()) {
    for (let i = 1; i < kids.length; i++) expect(kids[i]!.start).toBeGreaterThanOrEqual(kids[i - 1]!.end);
  }
  // Pages: numbered from 1, increasing, non-overlapping, inside the text.
  let prevEnd = 0;
  pages.forEach((p, i) => {
    expect(p.number).toBe(i + 1);
    expect(p.start).toBeGreaterThanOrEqual(prevEnd);
    expect(p.end).toBeGreaterThanOrEqual(p.start);
    expect(p.end).toBeLessThanOrEqual(text.length);
    prevEnd = p.end;
  });
}

/** Asserts that loading rejects with a LoaderError naming the file, and returns its message. */
async function loaderError(promise: Promise<unknown>, fileName: string): Promise<string> {
  const err = await promise.then(
    () => {
      throw new Error(`loading ${fileName} should have failed`);
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LoaderError);
  const e = err as LoaderError;
  expect(e.name).toBe('LoaderError');
  expect(e.fileName).toBe(fileName);
  expect(e.message.startsWith(`${fileName}: `)).toBe(true);
  return e.message;
}

describe('PDF: NIST AI RMF 1.0 (48 pages)', () => {
  let doc: Document;
  beforeAll(async () => {
    doc = await loadDemo('en/NIST.AI.100-1.pdf');
  });

  it('takes title, author, dates and page count from the PDF', () => {
    expect(doc.title).toBe('Artificial Intelligence Risk Management Framework (AI RMF 1.0)');
    expect(doc.meta).toMatchObject({
      fileName: 'NIST.AI.100-1.pdf',
      format: 'pdf',
      pageCount: 48,
      author: 'National Institute of Standards and Technology',
      created: '2023-01-24T14:45:46Z',
    });
    expect(doc.meta.size).toBe(readFileSync(`${DEMO}/en/NIST.AI.100-1.pdf`).length);
    expect(doc.language).toBe('en');
    expect(doc.warnings).toBeUndefined();
  });

  it('keeps one increasing, non-overlapping range per page', () => {
    expect(doc.pages).toHaveLength(48);
    expect(doc.pages.map((p) => p.number)).toEqual(Array.from({ length: 48 }, (_, i) => i + 1));
    for (let i = 1; i < doc.pages.length; i++) expect(doc.pages[i]!.start).toBeGreaterThan(doc.pages[i - 1]!.end);
    expect(doc.pages[47]!.end).toBe(doc.text.length);
    expectWellFormed(doc);
  });

  it('infers section headings from text size', () => {
    const titles = doc.sections.map((s) => s.title);
    for (const t of [
      'Table of Contents',
      'Executive Summary',
      'Part 1: Foundational Information',
      '1. Framing Risk',
      '3. AI Risks and Trustworthiness',
      'Part 2: Core and Profiles',
      '5. AI RMF Core',
      'Appendix D: Attributes of the AI RMF',
    ]) {
      expect(titles).toContain(t);
    }
    const part1 = section(doc, 'Part 1: Foundational Information');
    expect(childTitles(doc, part1)).toEqual([
      '1. Framing Risk',
      '2. Audience',
      '3. AI Risks and Trustworthiness',
      '4. Effectiveness of the AI RMF',
    ]);
    expect(section(doc, '1. Framing Risk').level).toBeGreaterThan(part1.level);
  });

  it('places sections on the right pages', () => {
    const exec = section(doc, 'Executive Summary');
    const page = doc.pages.find((p) => p.start <= exec.start && exec.start < p.end)!;
    expect(page.number).toBe(6);
    expect(doc.text.slice(page.start).startsWith('Executive Summary\n\n')).toBe(true);
  });

  it('drops running headers and footers repeated on every page', () => {
    const repeats = doc.text.split('This publication is available free of charge from').length - 1;
    expect(repeats).toBeLessThanOrEqual(3);
    expect(doc.text).toContain('Artificial intelligence (AI) technologies have significant potential to transform society');
  });
});

describe('PDF: FAA handbook extract (1 page)', () => {
  let doc: Document;
  beforeAll(async () => {
    doc = await loadDemo('en/faa_amt_handbook_p7-45.pdf');
  });

  it('loads its one page of text', () => {
    expect(doc.meta.pageCount).toBe(1);
    expect(doc.pages).toEqual([{ number: 1, start: 0, end: doc.text.length }]);
    expect(doc.text.toLowerCase()).toContain('self-locking nut');
    expect(doc.text).toContain('The two general types of self-locking nuts currently in use are the all-metal type and the fiber lock type.');
    expect(doc.title).toBe('AMT General Handbook');
    expect(doc.meta.author).toBe('FAA');
    expect(doc.language).toBe('en');
    expectWellFormed(doc);
  });

  it('continues a sentence cut by the column break', () => {
    // "The wing type that is" ends the left column; "the most common ranges…" opens the right one.
    expect(doc.text).toContain('The wing type that is the most common ranges in size for No. 6 up to 1⁄4 inch');
  });

  it('is recognised as PDF by its bytes, whatever the file is called', async () => {
    const renamed = await loadDemo('en/faa_amt_handbook_p7-45.pdf', 'handbook.txt');
    expect(renamed.meta.format).toBe('pdf');
    expect(renamed.text).toBe(doc.text);
    expect(renamed.id).toBe(doc.id);
  });
});

describe('Markdown: UDHR (English)', () => {
  let doc: Document;
  beforeAll(async () => {
    doc = await loadDemo('udhr/udhr_eng.md');
  });

  it('takes the title from the first-level heading', () => {
    expect(doc.title).toBe('Universal Declaration of Human Rights');
    expect(doc.language).toBe('en');
    expect(doc.meta).toEqual({ fileName: 'udhr_eng.md', size: 10932, format: 'md' });
    expect(doc.pages).toEqual([]);
  });

  it('builds the heading tree: a level-1 title over the preamble and 30 articles', () => {
    expectWellFormed(doc);
    const top = doc.sections[1]!;
    expect(top).toMatchObject({ title: 'Universal Declaration of Human Rights', level: 1, parent: 0 });
    expect(childTitles(doc, top)).toEqual(['Preamble', ...Array.from({ length: 30 }, (_, i) => `Article ${i + 1}`)]);
    for (const s of doc.sections.slice(2)) expect(s.level).toBe(2);
    const a1 = section(doc, 'Article 1');
    expect(doc.text.slice(a1.start, a1.end)).toBe(
      'Article 1\n\nAll human beings are born free and equal in dignity and rights. They are endowed with reason and conscience and should act towards one another in a spirit of brotherhood.',
    );
  });

  it('leaves no Markdown heading markers in the text', () => {
    expect(doc.text).not.toMatch(/^#/m);
    expect(doc.text.startsWith('Universal Declaration of Human Rights\n\nPreamble\n\nWhereas recognition')).toBe(true);
  });
});

describe('Plain text: Constituição da República Portuguesa', () => {
  let doc: Document;
  beforeAll(async () => {
    doc = await loadDemo('pt/constituicao_republica_portuguesa.txt');
  });

  it('detects Portuguese and takes the first heading as title', () => {
    expect(doc.language).toBe('pt');
    expect(doc.title).toBe('CONSTITUIÇÃO DA REPÚBLICA PORTUGUESA');
    expect(doc.meta.format).toBe('txt');
    expect(doc.meta.extra).toBeUndefined(); // UTF-8: no encoding note
  });

  it('infers headings and levels them by structure words: PARTE > TÍTULO > CAPÍTULO > Artigo', () => {
    expectWellFormed(doc);
    const a1 = doc.sections.find((s) => s.title.startsWith('Artigo 1.º'))!;
    expect(a1).toMatchObject({ title: 'Artigo 1.º — República Portuguesa', level: 4 });
    expect(doc.text.slice(a1.start, a1.end)).toBe(
      'Artigo 1.º — República Portuguesa\n\nPortugal é uma República soberana, baseada na dignidade da pessoa humana e na vontade popular e empenhada na construção de uma sociedade livre, justa e solidária.',
    );
    const parte = section(doc, 'PARTE I — Direitos e deveres fundamentais');
    expect(parte.level).toBe(1);
    const titulo = section(doc, 'TÍTULO I — Princípios gerais');
    expect(titulo.level).toBe(2);
    expect(titulo.parent).toBe(parte.id);
    expect(section(doc, 'Preâmbulo').level).toBe(2);
    expect(childTitles(doc, titulo)[0]).toBe('Artigo 12.º — Princípio da universalidade');
    const capitulo = doc.sections.find((s) => s.title.startsWith('CAPÍTULO I —'))!;
    expect(capitulo.level).toBe(3);
    expect(doc.sections[capitulo.parent!]!.title).toMatch(/^TÍTULO II —/);
  });

  it('makes every one of the 296 articles a section', () => {
    const articles = doc.sections.filter((s) => /^Artigo \d+\.º — /.test(s.title));
    expect(articles).toHaveLength(296);
    expect(articles[295]!.title).toBe('Artigo 296.º — Data e entrada em vigor da Constituição');
  });

  it('keeps each numbered line its own block', () => {
    expect(doc.text).toContain(
      '\n\n1. A soberania, una e indivisível, reside no povo, que a exerce segundo as formas previstas na Constituição.\n\n2. O Estado subordina-se à Constituição e funda-se na legalidade democrática.\n\n',
    );
  });
});

describe('Markdown: PRC constitution (Chinese)', () => {
  let doc: Document;
  beforeAll(async () => {
    doc = await loadDemo('zh/prc_constitution.md');
  });

  it('detects Chinese and builds chapters and sections', () => {
    expect(doc.language).toBe('zh');
    expect(doc.title).toBe('中华人民共和国宪法');
    expectWellFormed(doc);
    const top = doc.sections[1]!;
    expect(childTitles(doc, top)).toEqual(['序言', '第一章 总纲', '第二章 公民的基本权利和义务', '第三章 国家机构', '第四章 国旗、国歌、国徽、首都']);
    const ch3 = section(doc, '第三章 国家机构');
    expect(ch3.level).toBe(2);
    const kids = childTitles(doc, ch3);
    expect(kids).toHaveLength(8);
    expect(kids[0]).toBe('第一节 全国人民代表大会');
    expect(section(doc, '第一节 全国人民代表大会').level).toBe(3);
  });

  it('drops HTML comments and keeps the preamble text', () => {
    expect(doc.text).not.toContain('INFO END');
    expect(doc.text).not.toContain('<!--');
    const preface = section(doc, '序言');
    expect(doc.text.slice(preface.start, preface.end)).toContain('中国是世界上历史最悠久的国家之一。');
  });
});

describe('Markdown: World Factbook (deep heading tree)', () => {
  let doc: Document;
  beforeAll(async () => {
    doc = await loadDemo('en/factbook/po.md');
  });

  it('nests four heading levels with correct parents and ranges', () => {
    expectWellFormed(doc);
    expect(doc.title).toBe('Portugal');
    const src = readFileSync(`${DEMO}/en/factbook/po.md`, 'utf8');
    expect(doc.sections).toHaveLength(1 + (src.match(/^#{1,6} /gm) ?? []).length);
    const geography = section(doc, 'Geography');
    expect(geography).toMatchObject({ level: 2, parent: 1 });
    const area = doc.sections.find((s) => s.title === 'Area' && s.parent === geography.id)!;
    expect(area.level).toBe(3);
    expect(childTitles(doc, area)).toEqual(['total', 'land', 'water']);
    const land = doc.sections.find((s) => s.title === 'land' && s.parent === area.id)!;
    expect(land.level).toBe(4);
    expect(doc.text.slice(land.start, land.end)).toBe('land\n\n91,470 sq km');
    // A level-2 heading closes the open level-3 and level-4 sections.
    const people = section(doc, 'People and Society');
    expect(people.parent).toBe(1);
    expect(geography.end).toBeLessThan(people.start);
    expect(doc.sections.filter((s) => s.parent === geography.id).every((s) => s.end <= geography.end)).toBe(true);
  });

  it('drops emphasis markers', () => {
    expect(doc.text).toContain('Source: CIA World Factbook (public domain), via factbook/factbook.json.');
    expect(doc.text).not.toContain('_Source');
  });
});

describe('HTML', () => {
  const page = `<!doctype html>
<html lang="pt-BR">
<head>
  <title>Guia &amp; Manual</title>
  <meta name="author" content="Ana Lima">
  <meta name="description" content="Um guia curto.">
  <style>body { color: red } .secret { display: none }</style>
  <script>alert(1)</script>
</head>
<body>
  <h1>Capítulo <em>um</em></h1>
  <p>O coração &amp; a mente. Texto com <b>negrito</b> e <a href="https://example.com/x">um link</a>.</p>
  <img src="x.png" onerror="alert(2)" alt="Mapa do país">
  <h2>Secção A</h2>
  <p>Primeiro parágrafo.</p>
  <script type="text/javascript">document.write("<p>injected</p>")</script>
  <h3>Sub A.1</h3>
  <ul><li>Item um</li><li>Item dois</li></ul>
  <h2>Secção B</h2>
  <p>5 &lt; 6 &gt; 4&nbsp;fim&#33;</p>
  <noscript>Ative o JavaScript</noscript>
</body>
</html>`;
  let doc: Document;
  beforeAll(async () => {
    doc = await loadDocument({ name: 'guia.html', bytes: enc(page) });
  });

  it('gives exactly the visible text, without markup, scripts or styles', () => {
    expect(doc.text).toBe(
      [
        'Capítulo um',
        'O coração & a mente. Texto com negrito e um link.',
        'Mapa do país',
        'Secção A',
        'Primeiro parágrafo.',
        'Sub A.1',
        'Item um',
        'Item dois',
        'Secção B',
        '5 < 6 > 4 fim!',
      ].join('\n\n'),
    );
    expect(doc.text).not.toMatch(/<[a-z/!]/i);
    expect(doc.text).not.toContain('alert');
    expect(doc.text).not.toContain('color: red');
    expect(doc.text).not.toContain('injected');
    expect(doc.text).not.toContain('https://example.com');
  });

  it('takes title, language, author and description from the head', () => {
    expect(doc.title).toBe('Guia & Manual');
    expect(doc.language).toBe('pt');
    expect(doc.meta).toMatchObject({ format: 'html', author: 'Ana Lima', extra: { description: 'Um guia curto.' } });
  });

  it('turns h1–h3 into sections with their levels', () => {
    expectWellFormed(doc);
    expect(doc.sections.slice(1).map((s) => [s.title, s.level, s.parent])).toEqual([
      ['Capítulo um', 1, 0],
      ['Secção A', 2, 1],
      ['Sub A.1', 3, 2],
      ['Secção B', 2, 1],
    ]);
    const a = section(doc, 'Secção A');
    expect(doc.text.slice(a.start, a.end)).toBe('Secção A\n\nPrimeiro parágrafo.\n\nSub A.1\n\nItem um\n\nItem dois');
  });

  it('detects the language when there is no lang attribute, and uses the first heading as title without <title>', async () => {
    const d = await loadDocument({
      name: 'sem-titulo.html',
      bytes: enc('<html><body><h1>Direitos humanos</h1><p>Todos os seres humanos nascem livres e iguais em dignidade e em direitos. Dotados de razão e de consciência, devem agir uns para com os outros em espírito de fraternidade.</p></body></html>'),
    });
    expect(d.title).toBe('Direitos humanos');
    expect(d.language).toBe('pt');
  });

  it('recognises an HTML file without extension by its doctype', async () => {
    const d = await loadDocument({ name: 'download', bytes: enc('<!DOCTYPE html><html><body><h1>Hi</h1><p>There.</p></body></html>') });
    expect(d.meta.format).toBe('html');
    expect(d.text).toBe('Hi\n\nThere.');
  });

  it('keeps preformatted text with its line breaks', async () => {
    const d = await loadDocument({ name: 'pre.html', bytes: enc('<p>Code:</p><pre>line 1\n  line 2</pre>') });
    expect(d.text).toBe('Code:\n\nline 1\n  line 2');
  });

  // Bug: parseHtml (src/core/documents/html.ts) sets inTitle for every <title> element,
  // including SVG's <title> (an icon's accessible name) in the body, and appends its text
  // to the document title.
  it('ignores <title> elements inside inline SVG icons', async () => {
    const d = await loadDocument({
      name: 'icons.html',
      bytes: enc('<html><head><title>Real title</title></head><body><svg><title>Close icon</title><path d="M0 0"/></svg><h1>Main</h1><p>Body text.</p></body></html>'),
    });
    expect(d.text).toBe('Main\n\nBody text.');
    expect(d.title).toBe('Real title'); // actual: 'Real titleClose icon'
  });

  it('drops ruby annotations (furigana): the base text stays one word, 東京 not 東とう京きょう', async () => {
    const d = await loadDocument({
      name: 'ruby.html',
      bytes: enc('<html lang="ja"><body><p><ruby>漢字<rp>(</rp><rt>かんじ</rt><rp>)</rp></ruby>を読む。<ruby>東<rt>とう</rt>京<rt>きょう</rt></ruby>に行く。</p></body></html>'),
    });
    expect(d.text).toBe('漢字を読む。東京に行く。');
  });
});

describe('Markdown syntax', () => {
  const md = [
    '---',
    'title: "Front Matter Title"',
    'author: someone',
    '---',
    '',
    'Setext One',
    '==========',
    '',
    'Intro with [link words](https://example.com/path) and ![alt text](img.png), **bold**, _em_, `code` &amp; more.',
    '',
    'Setext Two',
    '----------',
    '',
    '# ATX One',
    '',
    '## ATX Two ##',
    '',
    '```js',
    'const x = 1;',
    'if (x < 2) console.log("<b>");',
    '```',
    '',
    '- item one',
    '- item two',
    '  - nested item',
    '',
    '| a | b |',
    '|---|---|',
    '| 1 | 2 |',
    '',
    '> quoted text',
    '',
    '<div>raw <b>html</b></div>',
    '',
  ].join('\n');
  let doc: Document;
  beforeAll(async () => {
    doc = await loadDocument({ name: 'notes.md', bytes: enc(md) });
  });

  it('uses the front matter title and never shows the front matter', () => {
    expect(doc.title).toBe('Front Matter Title');
    expect(doc.text).not.toContain('author');
    expect(doc.text).not.toContain('---');
  });

  it('makes sections from Setext and ATX headings alike', () => {
    expectWellFormed(doc);
    expect(doc.sections.slice(1).map((s) => [s.title, s.level, s.parent])).toEqual([
      ['Setext One', 1, 0],
      ['Setext Two', 2, 1],
      ['ATX One', 1, 0],
      ['ATX Two', 2, 3],
    ]);
  });

  it('keeps the words of links, images and emphasis but not URLs or markers', () => {
    expect(doc.text).toContain('Intro with link words and alt text, bold, em, code & more.');
    expect(doc.text).not.toContain('https://example.com');
    expect(doc.text).not.toContain('img.png');
    expect(doc.text).not.toMatch(/[*_`#]/);
  });

  it('keeps code blocks as text, line breaks included', () => {
    expect(doc.text).toContain('\n\nconst x = 1;\nif (x < 2) console.log("<b>");\n\n');
  });

  it('gives list items, table rows, quotes and raw HTML their own blocks, as text', () => {
    expect(doc.text.endsWith('item one\n\nitem two\n\nnested item\n\na | b\n\n1 | 2\n\nquoted text\n\nraw html')).toBe(true);
  });

  it('falls back to the first level-1 heading, then to the first heading, for the title', async () => {
    const h1 = await loadDocument({ name: 'a.md', bytes: enc('Intro.\n\n## Minor\n\nText.\n\n# Major *One*\n\nMore.') });
    expect(h1.title).toBe('Major One');
    const h2 = await loadDocument({ name: 'b.md', bytes: enc('Intro.\n\n## Only Minor\n\nText.') });
    expect(h2.title).toBe('Only Minor');
  });
});

describe('Markdown: HTML entities', () => {
  it('named entities become their characters in text, headings and the title (a search for "café" finds "Caf&eacute;")', async () => {
    const doc = await loadDocument({ name: 'e.md', bytes: enc('# Caf&eacute; &amp; cr&egrave;me\n\nPrice: 5&nbsp;&euro; &mdash; &copy; AT&T, a < b, &unknown; &#x41;.\n') });
    expect(doc.title).toBe('Café & crème');
    expect(doc.sections[1]!.title).toBe('Café & crème');
    expect(doc.text).toBe('Café & crème\n\nPrice: 5 € — © AT&T, a < b, &unknown; A.');
  });
});

describe('Plain text', () => {
  it('uses the file name as title when there is no heading', async () => {
    const d = await loadDocument({ name: 'notes/my-notes.final.txt', bytes: enc('Line one\nLine two.\n\nSecond paragraph.') });
    expect(d.title).toBe('my-notes.final');
    expect(d.text).toBe('Line one\n\nLine two.\n\nSecond paragraph.');
    expect(d.sections).toHaveLength(1);
  });

  it('joins hard-wrapped lines and the words broken across them', async () => {
    const lines = Array.from({ length: 11 }, (_, i) => `This line number ${String(i).padStart(2, '0')} is wrapped at a fixed width`);
    lines.push('and the risk manage-', 'ment process ends here.');
    const d = await loadDocument({ name: 'wrapped.txt', bytes: enc(lines.join('\n')) });
    expect(d.text).toBe(`${lines.slice(0, 11).join(' ')} and the risk management process ends here.`);
  });

  it('normalises Windows line endings', async () => {
    const d = await loadDocument({ name: 'crlf.txt', bytes: enc('First line.\r\nSecond line.\r\n\r\nNew paragraph.\r\n') });
    expect(d.text).toBe('First line.\n\nSecond line.\n\nNew paragraph.');
  });

  it('joins hard-wrapped Japanese and Chinese lines without inserting a space inside a sentence', async () => {
    const ja = '吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。吾輩はここで始めて人間というものを見た。しかもあとで聞くとそれは書生という人間中で一番獰悪な種族であったそうだ。';
    const lines = ja.match(/.{1,10}/gu)!;
    expect(lines.length).toBeGreaterThanOrEqual(10);
    expect((await loadDocument({ name: 'ja.txt', bytes: enc(lines.join('\n')) })).text).toBe(ja);
    // Between a Japanese line and a Latin word the space stays.
    const mixed = [...lines.slice(0, 10), 'RAG', 'は検索である。'];
    expect((await loadDocument({ name: 'm.txt', bytes: enc(mixed.join('\n')) })).text).toBe(`${lines.slice(0, 10).join('')} RAG は検索である。`);
  });

  it('a soft line break inside Japanese Markdown or HTML is no space (CSS segment break rules); beside Latin or Hangul it is one', async () => {
    const md = await loadDocument({ name: 'a.md', bytes: enc('# 見出し\n\n東京は日本の\n首都です。人口は\n約千四百万人です。\nRAG\nは検索。\n') });
    expect(md.text).toBe('見出し\n\n東京は日本の首都です。人口は約千四百万人です。 RAG は検索。');
    const html = await loadDocument({ name: 'a.html', bytes: enc('<html><body><p>東京は日本の\n  首都です。English\nwords 한국어\n문장</p></body></html>') });
    expect(html.text).toBe('東京は日本の首都です。English words 한국어 문장');
  });

  it('a short paragraph ending in a danda, an Arabic question mark or an Urdu full stop is a sentence, not a heading', async () => {
    const hi = 'यह छोटा वाक्य है।\n\nदिल्ली भारत की राजधानी है और यहाँ बहुत से ऐतिहासिक स्मारक हैं जो देखने लायक हैं।\n\nमुंबई एक बड़ा बंदरगाह शहर है और यह देश की आर्थिक राजधानी भी है।';
    const ar = 'هل تعرف القاهرة؟\n\nالقاهرة هي عاصمة مصر ويمر نهر النيل عبر المدينة الكبيرة منذ آلاف السنين.\n\nالأهرامات تقع في الجيزة بالقرب من القاهرة.';
    const ur = 'لاہور ایک شہر ہے۔\n\nلاہور پاکستان کا ایک بڑا شہر ہے اور یہ پنجاب میں واقع ہے جہاں بہت سے لوگ رہتے ہیں۔\n\nکراچی سب سے بڑا شہر ہے۔';
    for (const text of [hi, ar, ur]) expect((await loadDocument({ name: 'p.txt', bytes: enc(text) })).sections).toHaveLength(1);
    // A heading without final punctuation still is one.
    const titled = await loadDocument({ name: 't.txt', bytes: enc(`दिल्ली का इतिहास\n\n${hi}`) });
    expect(titled.sections.slice(1).map((s) => s.title)).toEqual(['दिल्ली का इतिहास']);
  });
});

describe('text decoding', () => {
  it('decodes UTF-16LE with a BOM', async () => {
    const bytes = new Uint8Array([0xff, 0xfe, ...Buffer.from('Coração em UTF-16.\n\nSegunda linha.', 'utf16le')]);
    const d = await loadDocument({ name: 'u16.txt', bytes });
    expect(d.text).toBe('Coração em UTF-16.\n\nSegunda linha.');
    expect(d.meta.extra).toEqual({ encoding: 'utf-16le' });
  });

  it('decodes UTF-16BE with a BOM', async () => {
    const bytes = new Uint8Array([0xfe, 0xff, ...Buffer.from('Olá mundo', 'utf16le').swap16()]);
    const d = await loadDocument({ name: 'u16be.txt', bytes });
    expect(d.text).toBe('Olá mundo');
    expect(d.meta.extra).toEqual({ encoding: 'utf-16be' });
  });

  it('strips a UTF-8 BOM', async () => {
    const d = await loadDocument({ name: 'bom.md', bytes: new Uint8Array([0xef, 0xbb, 0xbf, ...enc('# Olá\n\nTexto.')]) });
    expect(d.text).toBe('Olá\n\nTexto.');
    expect(d.title).toBe('Olá');
    expect(d.meta.extra).toBeUndefined();
  });

  it('decodes Latin-1 bytes that are not valid UTF-8', async () => {
    const bytes = new Uint8Array(Buffer.from('Coração e ação, não é?', 'latin1'));
    expect(bytes).toHaveLength(22); // one byte per character
    const d = await loadDocument({ name: 'latin1.txt', bytes });
    expect(d.text).toBe('Coração e ação, não é?');
    expect(d.meta.extra).toEqual({ encoding: 'windows-1252' });
  });

  // Windows-1252 maps 0x80–0x9F to printable characters (€ “ ” – …). Node 20.18.3+/22.13+
  // decodes 'windows-1252' as ISO-8859-1 (nodejs/node#56542), so decodeText maps them itself.
  it('decodes Windows-1252 punctuation in 0x80–0x9F (€, smart quotes, dashes)', () => {
    const bytes = new Uint8Array([...Buffer.from('Preço ', 'latin1'), 0x80, 0x35, 0x20, 0x96, 0x20, 0x93, 0x62, 0x6f, 0x6d, 0x94, 0x85]);
    expect(decodeText(bytes)).toEqual({ text: 'Preço €5 – “bom”…', encoding: 'windows-1252' });
  });

  it('decodes valid UTF-8 as UTF-8', () => {
    expect(decodeText(enc('Coração 中文 €'))).toEqual({ text: 'Coração 中文 €', encoding: 'utf-8' });
  });

  it('reports binary data as such', () => {
    expect(decodeText(new Uint8Array([0x48, 0x69, 0x00, 0x21]))).toBeNull();
    expect(decodeText(new Uint8Array(Array.from({ length: 100 }, (_, i) => (i % 4 === 0 ? 0x01 : 0x41))))).toBeNull();
  });
});

describe('loader errors', () => {
  it('rejects an empty file', async () => {
    const msg = await loaderError(loadDocument({ name: 'empty.txt', bytes: new Uint8Array(0) }), 'empty.txt');
    expect(msg).toBe('empty.txt: the file is empty');
  });

  it('rejects a binary file renamed .txt', async () => {
    const bytes = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00, 0x00, 0x00, 0x21, 0x00, 0x41, 0x42]);
    const msg = await loaderError(loadDocument({ name: 'archive.txt', bytes }), 'archive.txt');
    expect(msg).toBe('archive.txt: this looks like a binary file, not text');
  });

  it('rejects a binary file renamed .md', async () => {
    const msg = await loaderError(loadDocument({ name: 'image.md', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]) }), 'image.md');
    expect(msg).toBe('image.md: this looks like a binary file, not MD');
  });

  it('rejects a corrupt PDF', async () => {
    const msg = await loaderError(loadDocument({ name: 'broken.pdf', bytes: enc('%PDF-1.4 garbage') }), 'broken.pdf');
    expect(msg).toMatch(/^broken\.pdf: not a readable PDF \(.+\)$/);
  });

  it('rejects an unsupported extension', async () => {
    let seed = 42;
    const random = Uint8Array.from({ length: 256 }, () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24);
    const msg = await loaderError(loadDocument({ name: 'report.wpd', bytes: random }), 'report.wpd');
    expect(msg).toBe(
      'report.wpd: unsupported file type (use .pdf, .docx, .odt, .pptx, .odp, .xlsx, .ods, .csv, .tsv, .epub, .md, .txt, .html, or an image: .png, .jpg, .webp, .tiff)',
    );
  });

  it('rejects a file with no text', async () => {
    const msg = await loaderError(loadDocument({ name: 'blank.txt', bytes: enc('  \n\n\t \n') }), 'blank.txt');
    expect(msg).toBe('blank.txt: no text found in the file');
  });

  it('rejects a file over the size limit, saying both sizes', async () => {
    const bytes = new Uint8Array(3 * 1048576).fill(0x61);
    const msg = await loaderError(loadDocument({ name: 'huge.txt', bytes }, { maxBytes: 1048576 }), 'huge.txt');
    expect(msg).toBe('huge.txt: the file is 3.0 MB; the limit is 1 MB');
  });

  it('documentFromText rejects empty text', () => {
    expect(() => documentFromText('   ')).toThrow(LoaderError);
    expect(() => documentFromText('   ')).toThrow('Pasted text: no text to index');
  });
});

describe('load options and identity', () => {
  it('keeps the given language, tags and modification time', async () => {
    const d = await loadDocument({
      name: 'a.md',
      bytes: enc('# Title\n\nSome English text here.'),
      lastModified: Date.UTC(2024, 0, 2, 3, 4, 5),
      language: 'de',
      tags: ['x', 'y'],
    });
    expect(d.language).toBe('de');
    expect(d.tags).toEqual(['x', 'y']);
    expect(d.meta.modified).toBe('2024-01-02T03:04:05.000Z');
  });

  it('gives the same content the same id, and different content a different one', async () => {
    const a = await loadDocument({ name: 'a.md', bytes: enc('# T\n\ntext') });
    const b = await loadDocument({ name: 'b.md', bytes: enc('# T\n\ntext') });
    const c = await loadDocument({ name: 'a.md', bytes: enc('# T\n\ntext!') });
    expect(a.id).toMatch(/^[0-9a-f]{16}$/);
    expect(b.id).toBe(a.id);
    expect(c.id).not.toBe(a.id);
  });

  it('documentFromText builds a document from pasted text', () => {
    const d = documentFromText('Hello there. How are you?');
    expect(d).toMatchObject({ title: 'Pasted text', text: 'Hello there. How are you?', language: 'en' });
    expect(d.meta).toEqual({ fileName: 'Pasted text', size: 25, format: 'txt' });
    const md = documentFromText('# Notes\n\nSome **text**.', 'n.md', 'md');
    expect(md.title).toBe('Notes');
    expect(md.text).toBe('Notes\n\nSome text.');
  });

  it('detectFormat: magic bytes first, then extension, then HTML sniffing', () => {
    expect(detectFormat('x.txt', enc('%PDF-1.7\n'))).toBe('pdf');
    expect(detectFormat('README.MD', enc('# hi'))).toBe('md');
    expect(detectFormat('page.htm', enc('hi'))).toBe('html');
    expect(detectFormat('notes.text', enc('hi'))).toBe('txt');
    expect(detectFormat('noext', enc('  <html lang="en"><body>x</body></html>'))).toBe('html');
    expect(detectFormat('noext', enc('hello'))).toBeNull();
    expect(detectFormat('sheet.numbers', enc('hello'))).toBeNull();
  });
});
