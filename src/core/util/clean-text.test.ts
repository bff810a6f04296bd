import { describe, expect, it } from 'vitest';
import { cleanJson, cleanText, MAX_JSON_DEPTH } from './clean-text';
import { canonicalLanguage } from './language-tag';

describe('cleanText', () => {
  it('replaces C0 controls (not tab, newline, CR) and DEL with spaces, lone surrogates with U+FFFD, keeping the length', () => {
    const input = 'a\u0000b\u0001c\td\ne\rf\u001bg\u007fh\ud800i\udc00j\ud83d\ude00k';
    const { text, replaced } = cleanText(input);
    expect(text).toBe('a b c\td\ne\rf g h\ufffdi\ufffdj\ud83d\ude00k');
    expect(text.length).toBe(input.length);
    expect(replaced).toBe(6);
  });

  it('leaves clean text as the same string', () => {
    const s = 'Straße 中文 😀 \u202e';
    expect(cleanText(s)).toEqual({ text: s, replaced: 0 });
  });

  it('cleanJson cleans keys and values and refuses nesting past the limit', () => {
    const counter = { replaced: 0 };
    expect(cleanJson({ 'k\u0000': ['v\ud800', 1, null] }, counter)).toEqual({ 'k ': ['v\ufffd', 1, null] });
    expect(counter.replaced).toBe(2);
    let deep: unknown = 1;
    for (let i = 0; i < MAX_JSON_DEPTH + 2; i++) deep = [deep];
    expect(() => cleanJson(deep)).toThrow(`nested more than ${MAX_JSON_DEPTH} levels deep`);
  });
});

describe('canonicalLanguage', () => {
  it.each([
    ['en_US', 'en-US'],
    ['EN-us', 'en-US'],
    ['pt_br', 'pt-BR'],
    ['zh-hans', 'zh-Hans'],
    [' de ', 'de'],
    ['en_', null],
    ['not a tag', null],
    ['', null],
    [42, null],
  ])('%j → %j', (tag, want) => expect(canonicalLanguage(tag)).toBe(want));
});
