/**
 * The core's side of the fault matrix: whatever text comes in, loading, splitting and
 * searching keep working, keep every character, and never turn text into markup.
 * (The browser side — messages, the worker, the network — is e2e/faults.spec.ts.)
 */
import { describe, expect, it } from 'vitest';
import { minimalPdf } from '../../e2e/fixtures/pdf';
import { LoaderError } from './documents/builder';
import { documentFromText, loadDocument } from './documents/load';
import { RetrievalEngine, SEMANTIC_NEEDS_MODEL } from './engine';
import { STRATEGIES } from './retrieve/params';
import { splitSentences } from './segment/sentences';
import { words } from './segment/words';
import type { Document } from './types';

const enc = (s: string) => new TextEncoder().encode(s);

/** Every sentence atom of the corpus is exactly the slice of its document it claims to be. */
function expectExactSpans(engine: RetrievalEngine): void {
  for (const s of engine.corpus.sentences) {
    expect(s.start).toBeLessThan(s.end);
    expect(engine.corpus.docs[s.doc]!.text.slice(s.start, s.end)).toBe(s.text);
  }
}

/** A deterministic stream of lower-case words with no punctuation (no sentence break anywhere). */
function wordStream(chars: number, seed = 7): string {
  const syllables = ['ka', 'lo', 'mi', 'ren', 'tu', 'sa', 'vor', 'pe', 'din', 'qua', 'ze', 'bo', 'lin', 'ga', 'fe', 'ro'];
  let x = seed;
  const next = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0), x >>> 8);
  const parts: string[] = [];
  let length = 0;
  while (length < chars) {
    const n = 1 + (next() % 4);
    let w = '';
    for (let i = 0; i < n; i++) w += syllables[next() % syllables.length];
    parts.push(w);
    length += w.length + 1;
  }
  return parts.join(' ');
}

describe('a single 1,000,000-character line without a sentence break', () => {
  it('is split into atoms that fit, lose no character, and stay searchable', async () => {
    const MARKER = 'zqmiddlemarker';
    const half = wordStream(500_000, 11);
    const line = `${half} ${MARKER} ${wordStream(500_000 - MARKER.length - 2, 23)}`.slice(0, 1_000_000).trim();
    expect(line.length).toBeGreaterThan(999_000);
    expect(line).not.toMatch(/[\n.!?]/);
    expect(line).toContain(MARKER);

    const doc = documentFromText(line, 'one-line.txt');
    expect(doc.text).toBe(line);
    const engine = new RetrievalEngine();
    const { added, duplicates } = engine.addDocuments([doc]);
    expect(added).toHaveLength(1);
    expect(duplicates).toHaveLength(0);

    const { sentences, maxSentenceTokens } = engine.corpus;
    expect(sentences.length).toBeGreaterThan(1000); // really split, not one giant atom
    for (const s of sentences) {
      expect(s.tokens).toBeLessThanOrEqual(maxSentenceTokens);
      expect(s.tokens).toBeGreaterThan(0);
    }
    expectExactSpans(engine);

    // The parts tile the text: first at 0, last at the end, only whitespace in between.
    expect(sentences[0]!.start).toBe(0);
    expect(sentences[sentences.length - 1]!.end).toBe(line.length);
    let rebuilt = '';
    for (let i = 0; i < sentences.length; i++) {
      const s = sentences[i]!;
      if (i > 0) {
        const gap = line.slice(sentences[i - 1]!.end, s.start);
        expect(gap).toMatch(/^\s*$/);
        rebuilt += gap;
      }
      rebuilt += s.text;
    }
    expect(rebuilt.length).toBe(line.length);
    expect(rebuilt === line).toBe(true); // not toBe(line): a million-character diff is unreadable

    // BM25 finds the one word in the middle.
    const [hits] = await engine.search(MARKER, ['sentence'], { retriever: 'bm25', topK: 3 });
    expect(hits!.blocks.length).toBeGreaterThan(0);
    expect(hits!.blocks[0]!.text).toContain(MARKER);
    // And every other strategy answers too, without throwing.
    const all = await engine.search(MARKER, STRATEGIES, { retriever: 'bm25' });
    // Semantic chunks need an embedding model (this engine has none): they say so instead.
    for (const r of all) {
      if (r.strategy === 'semantic') expect(r.notes).toEqual([SEMANTIC_NEEDS_MODEL]);
      else expect(r.blocks.length, r.strategy).toBeGreaterThan(0);
    }
  });
});

describe('invisible characters, right-to-left scripts and emoji', () => {
  const SENTENCES = [
    'Hello wo\u200Brld, to\u200Dday is ze\uFEFFro day.',
    'مرحبا بالعالم الواسع.',
    'كيف حالك اليوم؟',
    'שלום עולם גדול.',
    'מה שלומך היום?',
    'The family 👩‍👩‍👧 poses for a photo.',
    'Flags 🇵🇹 and 🇯🇵 wave in the wind!',
    'Thumbs 👍🏽 up for the 🏳️‍🌈 parade.',
  ];
  const TEXT = SENTENCES.join(' ');
  const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
  /** Offsets where a user-perceived character starts (no cut may fall inside one). */
  const boundaries = new Set([...graphemes.segment(TEXT)].map((g) => g.index).concat(TEXT.length));

  it('splits sentences at their real ends, on grapheme boundaries, with exact spans', () => {
    for (const lang of ['en', 'ar', 'he']) {
      const spans = splitSentences(TEXT, lang);
      expect(spans.map((s) => TEXT.slice(s.start, s.end)), lang).toEqual(SENTENCES);
      for (const s of spans) {
        expect(boundaries.has(s.start)).toBe(true);
        expect(boundaries.has(s.end)).toBe(true);
      }
    }
  });

  it('keeps ZWJ sequences and flags whole, and zero-width characters out of the words around them', () => {
    const w = words(TEXT, 'en');
    expect(w).toContain('بالعالم');
    expect(w).toContain('שלום');
    // Emoji are not words, and no word holds half of one.
    for (const x of w) expect(x).not.toMatch(/[\u{1F000}-\u{1FAFF}\u{1F1E6}-\u{1F1FF}]/u);
    expect(() => words('\u200B\u200D\uFEFF👩‍👩‍👧🇵🇹', 'en')).not.toThrow();
    expect(words('\u200B\u200D\uFEFF👩‍👩‍👧🇵🇹', 'en')).toEqual([]);
  });

  it('indexes the text: every atom maps back to the document, and BM25 finds an Arabic word', async () => {
    const doc = documentFromText(TEXT, 'mixed.txt');
    const engine = new RetrievalEngine();
    engine.addDocuments([doc]);
    expectExactSpans(engine);
    // The emoji and the right-to-left text survive loading; a zero-width space inside a word
    // joins it (it is an invisible artefact), a zero-width joiner stays.
    for (const needle of ['👩‍👩‍👧', '🇵🇹', '🇯🇵', '👍🏽', '🏳️‍🌈', 'مرحبا بالعالم الواسع.', 'שלום עולם גדול.', 'world', 'to\u200Dday']) {
      expect(doc.text).toContain(needle);
    }
    expect(doc.text).not.toContain('\u200B');
    // Both words are found by their plain spelling.
    const [plain] = await engine.search('world today', ['sentence'], { retriever: 'bm25', topK: 1 });
    expect(plain!.blocks[0]?.text).toContain('world');
    const texts = engine.corpus.sentences.map((s) => s.text);
    expect(texts).toContain('مرحبا بالعالم الواسع.');
    expect(texts).toContain('The family 👩‍👩‍👧 poses for a photo.');

    const [ar] = await engine.search('بالعالم', ['sentence'], { retriever: 'bm25', topK: 3 });
    expect(ar!.blocks[0]?.text).toBe('مرحبا بالعالم الواسع.');
    const [he] = await engine.search('שלומך', ['sentence'], { retriever: 'bm25', topK: 3 });
    expect(he!.blocks[0]?.text).toBe('מה שלומך היום?');
    // A query of nothing but emoji and invisible characters answers nothing, and throws nothing.
    const results = await engine.search('👩‍👩‍👧 🇵🇹 \u200B\uFEFF', STRATEGIES, { retriever: 'bm25' });
    for (const r of results) expect(r.blocks).toEqual([]);
  });

  it('loads the same text from UTF-8 and UTF-16 files with the same atoms', async () => {
    const utf8 = await loadDocument({ name: 'mixed-utf8.txt', bytes: enc(TEXT) });
    const le = new Uint8Array(2 + TEXT.length * 2);
    le.set([0xff, 0xfe]);
    for (let i = 0; i < TEXT.length; i++) {
      le[2 + 2 * i] = TEXT.charCodeAt(i) & 0xff;
      le[3 + 2 * i] = TEXT.charCodeAt(i) >> 8;
    }
    const utf16 = await loadDocument({ name: 'mixed-utf16.txt', bytes: le });
    expect(utf16.text).toBe(utf8.text);
    expect(utf16.meta.extra?.encoding).toBe('utf-16le');
  });
});

describe('markup payloads are text, never markup', () => {
  it('HTML: scripts are dropped, attributes never become text, visible text is kept', async () => {
    const html = `<!doctype html><html><head><title>Payloads</title><script>window.__pwned = 1</script></head><body>
      <h1>Report</h1>
      <p>Quarterly revenue grew steadily. <script>alert(1)</script><img src=x onerror=alert(1)> The board met in <a href="javascript:alert(1)">Lisbon</a>.</p>
      <p onclick="alert(1)">Costs fell sharply.<svg onload=alert(1)><script>alert(2)</script></svg></p>
      <script type="module">import('javascript:alert(3)')</script>
    </body></html>`;
    const doc = await loadDocument({ name: 'payload.html', bytes: enc(html) });
    expect(doc.text).toContain('Quarterly revenue grew steadily.');
    expect(doc.text).toContain('The board met in Lisbon.');
    expect(doc.text).toContain('Costs fell sharply.');
    for (const bad of ['<script', 'alert(', '__pwned', 'onerror', 'onload', 'onclick', 'javascript:', '<img', '<a ', '<']) {
      expect(doc.text, bad).not.toContain(bad);
    }
  });

  it('HTML: markup written as text in the page (escaped) stays literal text', async () => {
    const doc = await loadDocument({ name: 'escaped.html', bytes: enc('<p>Type &lt;script&gt;alert(1)&lt;/script&gt; to test.</p>') });
    expect(doc.text).toBe('Type <script>alert(1)</script> to test.');
  });

  it('Markdown: raw HTML reduced to its text, link and image URLs dropped, link text kept', () => {
    const md = [
      '# Payloads',
      '',
      '<script>alert(1)</script>',
      '',
      '<div onclick="alert(1)"><img src=x onerror=alert(1)>Block text stays.</div>',
      '',
      'Click [the harbour map](javascript:alert(1)) now. An ![old lighthouse](javascript:alert(2)) stands there.',
      'Also <a href="javascript:alert(3)">the pier</a> and [a reference][evil] and <javascript:alert(4)>.',
      '',
      'Broken ![a](x" onerror="alert(1)) image.',
      '',
      '[evil]: javascript:alert(5)',
    ].join('\n');
    const doc = documentFromText(md, 'payload.md', 'md');
    for (const kept of ['Block text stays.', 'the harbour map', 'old lighthouse', 'the pier', 'a reference']) expect(doc.text).toContain(kept);
    expect(doc.text).not.toContain('<script');
    expect(doc.text).not.toContain('<img');
    expect(doc.text).not.toContain('<a ');
    expect(doc.text).not.toContain('onclick');
    // No link target survives: neither inline, reference, autolink nor raw <a href>.
    for (const n of [1, 2, 3, 5]) expect(doc.text).not.toContain(`javascript:alert(${n})`);
    expect(doc.text).not.toMatch(/\]\(javascript:/);
    // The malformed image is not an image: it is kept as the literal (inert) text it is.
    expect(doc.text).toContain('Broken ');
  });

  it('PDF: payload strings in the text layer are kept verbatim as plain text', async () => {
    const payloads = ['<script>window.__pwned = 1</script> is plain text here.', '<img src=x onerror=alert(1)> and javascript:alert(1) too.'];
    const doc = await loadDocument({ name: 'payload.pdf', bytes: minimalPdf({ text: payloads }) });
    for (const p of payloads) expect(doc.text).toContain(p);
    const engine = new RetrievalEngine();
    engine.addDocuments([doc]);
    expectExactSpans(engine);
    const [r] = await engine.search('onerror alert', ['sentence'], { retriever: 'bm25' });
    expect(r!.blocks.map((b) => b.text).join('\n')).toContain('<img src=x onerror=alert(1)>');
  });

  it('PDF: a drawing-only (scanned) page says no text was found and OCR is not supported', async () => {
    const err = await loadDocument({ name: 'scan.pdf', bytes: minimalPdf({ drawingOnly: true }) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LoaderError);
    expect((err as Error).message).toMatch(/^scan\.pdf: no text found.*OCR is not supported/);
  });
});

describe('queries nobody should type', () => {
  let engine: RetrievalEngine;
  const doc = (): Document =>
    documentFromText(
      [
        'Green tea is made from unoxidised leaves.',
        'Black tea is fully oxidised before it is dried.',
        'Oolong sits between the two and is partly oxidised.',
        'Coffee beans are roasted, not oxidised.',
      ].join('\n\n'),
      'tea.txt',
    );

  it('a 10,000-character query returns BM25 results without throwing', async () => {
    engine = new RetrievalEngine();
    engine.addDocuments([doc()]);
    let q = 'How is black tea made? ';
    while (q.length < 10_000) q += wordStream(200, q.length) + ' oxidised black tea ';
    q = q.slice(0, 10_000);
    expect(q.length).toBe(10_000);
    const results = await engine.search(q, STRATEGIES, { retriever: 'bm25' });
    expect(results).toHaveLength(STRATEGIES.length);
    const [hits] = results;
    expect(hits!.blocks.length).toBeGreaterThan(0);
    const sentence = results.find((r) => r.strategy === 'sentence')!;
    expect(sentence.blocks[0]!.text).toMatch(/Black tea is fully oxidised/);
  });

  it('an empty or whitespace-only query returns no blocks in any strategy', async () => {
    engine = new RetrievalEngine();
    engine.addDocuments([doc()]);
    for (const q of ['', ' ', '\n\t  \u00a0', '\u3000']) {
      for (const retriever of ['bm25', 'hybrid', 'vector'] as const) {
        const results = await engine.search(q, STRATEGIES, { retriever });
        for (const r of results) {
          expect(r.blocks, `${JSON.stringify(q)} ${retriever} ${r.strategy}`).toEqual([]);
          expect(r.totalTokens).toBe(0);
        }
      }
    }
  });
});

describe('the same content twice', () => {
  const text = 'Mercury is the closest planet to the Sun. Venus is the hottest planet.';

  it('is returned in duplicates, within one call and across calls, and indexed once', async () => {
    const engine = new RetrievalEngine();
    const a = documentFromText(text, 'planets.txt');
    const b = documentFromText(text, 'planets copy.txt');
    const first = engine.addDocuments([a, b]);
    expect(first.added).toEqual([a]);
    expect(first.duplicates).toEqual([b]);
    const sentences = engine.corpus.sentences.length;

    const again = engine.addDocuments([documentFromText(text, 'planets again.txt')]);
    expect(again.added).toEqual([]);
    expect(again.duplicates.map((d) => d.meta.fileName)).toEqual(['planets again.txt']);
    expect(engine.corpus.docs).toHaveLength(1);
    expect(engine.corpus.sentences.length).toBe(sentences);

    // Files: same bytes under another name are the same content.
    const f1 = await loadDocument({ name: 'a.md', bytes: enc(`# Planets\n\n${text}`) });
    const f2 = await loadDocument({ name: 'b.md', bytes: enc(`# Planets\n\n${text}`) });
    const files = engine.addDocuments([f1, f2]);
    expect(files.added.map((d) => d.meta.fileName)).toEqual(['a.md']);
    expect(files.duplicates.map((d) => d.meta.fileName)).toEqual(['b.md']);
    expect(engine.corpus.docs).toHaveLength(2);
    const [r] = await engine.search('hottest planet', ['sentence'], { retriever: 'bm25', topK: 10 });
    // One copy of the text per distinct document: two sentences about Venus, not three.
    expect(r!.blocks.filter((x) => x.text.includes('Venus')).length).toBe(2);
  });
});
