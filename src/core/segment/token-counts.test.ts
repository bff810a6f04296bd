import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AutoTokenizer, type PreTrainedTokenizer } from '@huggingface/transformers';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { PARALLEL_DIR } from '../../../scripts/bench/parallel/parallel-set';
import { setupNode } from '../../node/setup';
import { TEST_EMBEDDER_ID } from '../embed/models';
import { ModelTokenCounter, type EncodingTokenizer } from './tokens';

let tokenizer: PreTrainedTokenizer;
const encode = (text: string) => tokenizer.encode(text, { add_special_tokens: false }).length;

/** The tokenizer with its encode calls counted (everything else, its tokenizer.json included, as it is). */
function counted(): { tokenizer: EncodingTokenizer; calls: string[] } {
  const calls: string[] = [];
  const spy = Object.create(tokenizer) as EncodingTokenizer;
  spy.encode = (text, options) => (calls.push(text), tokenizer.encode(text, options));
  return { tokenizer: spy, calls };
}

beforeAll(async () => {
  setupNode();
  // The MiniLM tokenizer (BERT normaliser and pre-tokenizer, WordPiece), as the test embedder ships it.
  tokenizer = await AutoTokenizer.from_pretrained(TEST_EMBEDDER_ID);
});

describe('ModelTokenCounter with a tokenizer that counts word by word', () => {
  it('gives the tokenizer’s own count of every sentence of the parallel set (11 languages), tokenizing each distinct word once', () => {
    const texts = readdirSync(PARALLEL_DIR)
      .filter((f) => f.endsWith('.txt'))
      .flatMap((f) => readFileSync(join(PARALLEL_DIR, f), 'utf8').split('\n').filter((l) => l.startsWith('P ')).map((l) => l.slice(2)));
    const { tokenizer: spy, calls } = counted();
    const counter = new ModelTokenCounter(spy, 'MiniLM');
    expect(texts.map((t) => counter.count(t))).toEqual(texts.map(encode));
    expect(calls.length).toBe(new Set(texts.flatMap((t) => t.split(/[ \t\n\r]+/).filter(Boolean))).size);
    expect(counter.count(texts[0]!)).toBe(encode(texts[0]!));
    expect(calls.length).toBe(new Set(calls).size);
  });

  it('gives the tokenizer’s count for random texts of spaces, controls, accents, CJK and punctuation (property)', () => {
    const counter = new ModelTokenCounter(tokenizer, 'MiniLM');
    const chars = ['a', 'É', 'e\u0301', 'ß', 'Σ', 'ς', '1', '.', "'", '’', ' ', '\t', '\n', '\r', '\u000b', '\u00a0', '\u3000', '\u200b', '\ufeff', '\u0000', '\ufffd', '[MASK]', '[UNK]', '日', 'カ', 'ก', '👍', 'un', 'aff', 'able', '-', '"'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...chars), { maxLength: 24 }), (parts) => {
        const text = parts.join('');
        expect(counter.count(text)).toBe(encode(text));
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it('counts whole texts when the tokenizer does not say how it cuts (no tokenizer.json)', () => {
    const calls: string[] = [];
    const counter = new ModelTokenCounter({ encode: (t) => (calls.push(t), t.split(' ').map((_, i) => i)) }, 'bare');
    expect(counter.count('a b a')).toBe(3);
    expect(counter.count('a b a')).toBe(3);
    expect(calls).toEqual(['a b a', 'a b a']);
  });
});
