import { describe, expect, it } from 'vitest';
import { draftOfChoice, editsOfDraft, parseMaxTokens, settingsView } from './settings-draft';

const TEST = 'rag-lab/test-embedder';
const STATIC = 'rag-lab/test-static-embedder';

describe('the picker\'s settings draft', () => {
  it('untouched: the preset\'s line, nothing to apply', () => {
    expect(editsOfDraft(TEST, {})).toEqual({});
    expect(settingsView(TEST, {}).line).toBe('pooling mean · query prefix none · passage prefix none · max 512 tokens · 128 dims');
  });

  it('a changed passage prefix and size are applied and named in the line', () => {
    expect(editsOfDraft(STATIC, { passagePrefix: 'doc: ', dimensions: 64 })).toEqual({ settings: { passagePrefix: 'doc: ' }, dimensions: 64 });
    expect(settingsView(STATIC, { passagePrefix: 'doc: ', dimensions: 64 }).line).toBe(
      'static (Model2Vec) · query prefix none · passage prefix "doc: " · max 512 tokens · 64 dims · changed from the preset: passage prefix, 64 of 128 dims',
    );
  });

  it('values typed back to the preset\'s are no change', () => {
    expect(editsOfDraft(TEST, { passagePrefix: '', pooling: 'mean', maxTokens: ' 512 ' })).toEqual({});
    expect(settingsView(TEST, { maxTokens: '512' }).changed).toEqual([]);
  });

  it('an unknown model: a changed guess is no longer called guessed', () => {
    const v = settingsView('someone/new-embedder', { pooling: 'cls', queryPrefix: 'query: ' });
    expect(v.line).toBe('pooling cls · query prefix "query: " · passage prefix none (guessed) · max 512 tokens (guessed) · changed from the guesses: query prefix, pooling');
    expect(v.guessed).toEqual(['passagePrefix', 'maxTokens', 'matryoshka', 'architecture']);
  });

  it('a bad maximum length is a problem named in words; the line keeps the preset\'s length', () => {
    expect(parseMaxTokens('abc')).toBe('Maximum length: "abc" is not a whole number of tokens from 8 to 131,072.');
    expect(parseMaxTokens('4')).toBe('Maximum length: "4" is not a whole number of tokens from 8 to 131,072.');
    expect(parseMaxTokens('12.5')).toBe('Maximum length: "12.5" is not a whole number of tokens from 8 to 131,072.');
    expect(parseMaxTokens('256')).toBe(256);
    const v = settingsView(TEST, { maxTokens: '', passagePrefix: 'doc: ' });
    expect(v.problem).toBe('Maximum length: "" is not a whole number of tokens from 8 to 131,072.');
    expect(v.line).toBe('pooling mean · query prefix none · passage prefix none · max 512 tokens · 128 dims');
    expect(editsOfDraft(TEST, { dimensions: 64 })).toEqual({ problem: 'rag-lab/test-embedder cannot be cut to 64 dimensions.' });
  });

  it('an applied choice comes back into the editor as it was', () => {
    expect(draftOfChoice({ model: STATIC, dtype: 'fp32', device: 'wasm', source: 'local', settings: { queryPrefix: 'q: ', maxTokens: 64 }, dimensions: 32 })).toEqual({ queryPrefix: 'q: ', maxTokens: '64', dimensions: 32 });
    expect(draftOfChoice(null)).toEqual({});
  });
});
