import { describe, expect, it } from 'vitest';
import { collapseSpaces } from './builder';

describe('collapseSpaces', () => {
  it('makes every run of whitespace one space and trims, and leaves text with single spaces as it is', () => {
    expect(collapseSpaces('one two three')).toBe('one two three');
    expect(collapseSpaces('  one  two\tthree\n')).toBe('one two three');
    expect(collapseSpaces('one \u00a0two\u3000three\u2003four')).toBe('one two three four');
    expect(collapseSpaces('one\r\ntwo \n three')).toBe('one two three');
    expect(collapseSpaces('ends with a space ')).toBe('ends with a space');
    expect(collapseSpaces(' \n\t ')).toBe('');
  });

  it('drops a line break between two Chinese or Japanese characters and zero-width characters', () => {
    expect(collapseSpaces('日本の\n首都')).toBe('日本の首都');
    expect(collapseSpaces('zero\u200bwidth join')).toBe('zerowidth join');
  });
});
