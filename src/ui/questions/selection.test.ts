import { describe, expect, it } from 'vitest';
import { trimSpan } from './selection';

describe('a selection as a span of the text', () => {
  it('drops the white space at either end, and is null when nothing else is selected', () => {
    const text = 'Tea grows.\n  It is picked by hand.  ';
    expect(text.length).toBe(36);
    expect(trimSpan(text, 10, 36)).toEqual([13, 34]);
    expect(text.slice(13, 34)).toBe('It is picked by hand.');
    expect(trimSpan(text, 0, 10)).toEqual([0, 10]);
    // Backwards (a selection made from right to left) and past the end.
    expect(trimSpan(text, 10, 0)).toEqual([0, 10]);
    expect(trimSpan(text, 13, 99)).toEqual([13, 34]);
    expect(trimSpan(text, 10, 13)).toBeNull();
  });
});
