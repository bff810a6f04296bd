/**
 * Issue 28, cases 1–3: NUL and other control characters, lone UTF-16 surrogates and
 * malformed language tags are cleaned or canonicalised where text enters, so the lab, the
 * bundle and Postgres (PGlite) hold the same characters and `verify` agrees.
 */
import { describe, expect, it } from 'vitest';
import { RetrievalEngine } from '../engine';
import { readSquad } from '../eval/squad';
import { exportBundle } from '../export/bundle';
import { ApproxTokenCounter } from '../segment/tokens';
import { verifyInPglite } from '../../node/pglite-verify';
import type { Document } from '../types';
import { documentFromText, loadDocument } from './load';

const utf16le = (s: string) => {
  const out = new Uint8Array(2 + s.length * 2);
  out.set([0xff, 0xfe]);
  for (let i = 0; i < s.length; i++) new DataView(out.buffer).setUint16(2 + i * 2, s.charCodeAt(i), true);
  return out;
};
const utf8bom = (s: string) => new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(s)]);

/** The bundle of these documents, verified in PGlite (BM25 golden run: no model needed). */
async function verified(docs: Document[], questions: string[]) {
  const engine = new RetrievalEngine({ counter: new ApproxTokenCounter() });
  engine.addDocuments(docs);
  const { files } = await exportBundle(engine, { strategy: 'window', params: { retriever: 'bm25' }, questions: questions.map((question, i) => ({ id: `q${i}`, question })), labVersion: 'test', retrievers: ['bm25'] });
  return verifyInPglite(files);
}

describe('case 1: NUL and control characters', () => {
  it('a UTF-16 .txt with NULs loads with them replaced by spaces, and the note counts them', async () => {
    const doc = await loadDocument({ name: 'nul.txt', bytes: utf16le('Alpha\u0000beta gamma.\n\nDelta\u0007 epsilon\u001b[2J zeta.') });
    expect(doc.text).toBe('Alpha beta gamma.\n\nDelta epsilon [2J zeta.');
    expect(doc.warnings).toEqual(['3 control characters or broken UTF-16 surrogates replaced (Postgres and terminals cannot take them)']);
  });

  it('a UTF-8 .txt with a BOM and NULs loads the same way', async () => {
    const doc = await loadDocument({ name: 'nul.txt', bytes: utf8bom('One\u0000two three.') });
    expect(doc.text).toBe('One two three.');
    expect(doc.warnings).toHaveLength(1);
  });

  it('a SQuAD context with \\u0000 exports a bundle that PGlite loads and that agrees with the lab', async () => {
    const set = readSquad({ data: [{ title: 'Nul', paragraphs: [{ context: 'The river\u0000 Rhine flows north. It reaches the sea at Rotterdam.', qas: [{ id: 'a', question: 'Where does the Rhine reach the sea?', answers: [{ text: 'Rotterdam', answer_start: 56 }] }] }] }] });
    expect(set.docs[0]!.text).toBe('The river  Rhine flows north. It reaches the sea at Rotterdam.');
    expect(set.questions[0]!.targets[0]!.spans).toEqual([{ start: 52, end: 61 }]);
    // With case 2's document: one PGlite start for both (seconds each on a busy machine).
    const surrogates = documentFromText('Broken \ud800 text here. Another \udfff sentence follows.', 'Title \udbff', 'txt');
    const report = await verified([...set.docs, surrogates], ['Rhine sea', 'broken text', 'another sentence']);
    expect(report.runs.map((r) => [r.sameUnits, r.sameBlocks, r.questions])).toEqual(report.runs.map(() => [3, 3, 3]));
    expect(report.agree).toBe(true);
  }, 120_000);
});

describe('case 2: lone UTF-16 surrogates', () => {
  it('become U+FFFD in text and title (the bundle and PGlite: see case 1)', () => {
    const doc = documentFromText('Broken \ud800 text here. Another \udfff sentence follows.', 'Title \udbff', 'txt');
    expect(doc.text).toBe('Broken \ufffd text here. Another \ufffd sentence follows.');
    expect(doc.title).toBe('Title \ufffd');
    expect(doc.warnings).toEqual(['3 control characters or broken UTF-16 surrogates replaced (Postgres and terminals cannot take them)']);
  });

  it('a pair that is whole is kept', () => {
    expect(documentFromText('Emoji 😀 here.', 'x', 'txt').text).toBe('Emoji 😀 here.');
  });
});

describe('case 3: language tags', () => {
  it('<html lang="en_US"> is read as en, and the document indexes', async () => {
    const doc = await loadDocument({ name: 'p.html', bytes: new TextEncoder().encode('<html lang="en_US"><body><p>Solar panels make power. Wind turbines too.</p></body></html>') });
    expect(doc.language).toBe('en');
    const engine = new RetrievalEngine({ counter: new ApproxTokenCounter() });
    engine.addDocuments([doc]);
    expect(engine.corpus.sentences).toHaveLength(2);
  });

  it('a given tag "en_US" becomes "en-US"; one that is no tag is ignored with a note, and the text still indexes', async () => {
    expect(documentFromText('Some words here.', 'a', 'txt', 'en_US').language).toBe('en-US');
    const bad = documentFromText('The solar panels on the roof make power for the whole house all year.', 'b', 'txt', 'not a tag!');
    expect(bad.language).toBe('en');
    expect(bad.warnings).toEqual(['language tag "not a tag!" is not a valid BCP 47 tag: ignored, the language was detected from the text']);
    const set = readSquad({ data: [{ title: 'T', paragraphs: [{ context: 'Rivers flow to the sea.', qas: [{ id: '1', question: 'Where do rivers flow?', answers: [{ text: 'the sea', answer_start: 15 }] }] }] }] }, { language: 'en_US' });
    const engine = new RetrievalEngine({ counter: new ApproxTokenCounter() });
    engine.addDocuments([...set.docs, bad]);
    const [r] = await engine.search('rivers sea', ['sentence'], { retriever: 'bm25', topK: 1 });
    expect(r!.blocks[0]!.text).toBe('Rivers flow to the sea.');
  });
});
