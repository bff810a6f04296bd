/**
 * Text is composed to NFC where it enters: a decomposed (NFD) file — macOS writes names and text
 * so, some PDFs and Word files too — is the same document as its composed twin.
 */
import { describe, expect, it } from 'vitest';
import { RetrievalEngine } from '../engine';
import { loadDocument } from './load';

const TEXT = `# Hà Nội và Huế

Thủ đô Hà Nội nằm bên sông Hồng. Cố đô Huế nằm bên sông Hương.

## Café crème

Le café crème est servi à Genève. Ελληνικός καφές στην Αθήνα; Ναι. किताब और पुस्तक एक ही शब्द हैं।`;

const load = (text: string) => loadDocument({ name: 'doc.md', bytes: new TextEncoder().encode(text) });

describe('NFC and NFD documents are indexed alike', () => {
  it('the same text, sections, sentences and BM25 ranks; spans stay valid', async () => {
    const nfc = await load(TEXT.normalize('NFC'));
    const nfd = await load(TEXT.normalize('NFD'));
    expect(TEXT.normalize('NFD')).not.toBe(TEXT.normalize('NFC'));
    expect(nfd.text).toBe(nfc.text);
    expect(nfd.text).toBe(nfd.text.normalize('NFC'));
    expect(nfd.title).toBe('Hà Nội và Huế'.normalize('NFC'));
    expect(nfd.sections).toEqual(nfc.sections);
    expect(nfd.language).toBe(nfc.language);
    for (const s of nfd.sections.slice(1)) expect(nfd.text.slice(s.start, s.start + s.title.length)).toBe(s.title);

    const engines = [nfc, nfd].map((d) => {
      const e = new RetrievalEngine({ embedder: null });
      e.addDocuments([{ ...d, id: 'x' }]);
      return e;
    });
    expect(engines[1]!.corpus.sentences.map((s) => s.text)).toEqual(engines[0]!.corpus.sentences.map((s) => s.text));
    for (const q of ['sông Hương', 'café Genève'.normalize('NFD'), 'Αθήνα']) {
      const [a, b] = await Promise.all(engines.map((e) => e.search(q, ['sentence'], { retriever: 'bm25', topK: 3, budgetTokens: null })));
      expect(b![0]!.blocks.map((x) => x.text)).toEqual(a![0]!.blocks.map((x) => x.text));
      expect(a![0]!.blocks.length).toBeGreaterThan(0);
    }
  });
});
