/**
 * The BM25 indexes' keys (lexical-indexes.ts): late chunking changes vectors only, so plain and
 * late-chunked vectors share one BM25 index; headers and the lexical choice still separate them.
 */
import { describe, expect, it } from 'vitest';
import { documentFromText } from '../documents/load';
import { RetrievalEngine } from '../engine';
import { DEFAULT_LEXICAL, lexicalKey } from '../index/lexical-index';
import { LexicalIndexes } from './lexical-indexes';

const doc = documentFromText('Bees visit flowers to gather nectar. They turn it into honey. The hive stores it for winter.', 'bees.txt', 'txt', 'en');

describe('BM25 index keys', () => {
  it('leave out the late-chunking part of the vector key, and keep the contextual one', () => {
    // An engine with late-chunked vectors on: the model, headers (on: title and section, or off) and lexical choice are what the key reads.
    const core = (model: string, headers: boolean) =>
      ({
        embedder: { model },
        structure: () => ({ lexical: DEFAULT_LEXICAL, vectors: 'late', headers: { enabled: headers, title: true, section: true, fields: [] } }),
      }) as unknown as ConstructorParameters<typeof LexicalIndexes>[0];
    const contexts = {} as ConstructorParameters<typeof LexicalIndexes>[1];
    const lex = lexicalKey(DEFAULT_LEXICAL);
    expect(new LexicalIndexes(core('m@256#ab12', true), contexts).key('leaf', false)).toBe(`leaf|h:ts:|m@256#ab12|${lex}`);
    expect(new LexicalIndexes(core('m@256#ab12', true), contexts).key('leaf', true)).toBe(`leaf|h:ts:|m@256#ab12|ctx|${lex}`);
    expect(new LexicalIndexes(core('m', false), contexts).key('leaf', false)).toBe(`leaf|none|m|${lex}`);
    // A model id that merely contains "late" is kept.
    expect(new LexicalIndexes(core('org/late-model', false), contexts).key('chunk', false)).toBe(`chunk|none|org/late-model|${lex}`);
  });

  it('late chunking on reuses the plain BM25 index (not built again); headers on get their own', () => {
    const engine = new RetrievalEngine();
    engine.addDocuments([doc]);
    const plain = engine.lexicalIndex('sentence');
    engine.setVectorVariant('late');
    expect(engine.lexicalIndex('sentence')).toBe(plain);
    engine.setHeaders({ ...engine.structure.headers, enabled: true, title: true });
    expect(engine.lexicalIndex('sentence')).not.toBe(plain);
    engine.setHeaders({ ...engine.structure.headers, enabled: false });
    engine.setVectorVariant('plain');
    expect(engine.lexicalIndex('sentence')).toBe(plain);
  });
});
