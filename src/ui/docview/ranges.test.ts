import { describe, expect, it } from 'vitest';
import type { Section } from '../../core/types';
import { enclosingSection, joinAcrossWhitespace, nestRanges, overlapsAny, paragraphs, type RangeNode } from './ranges';

describe('paragraphs', () => {
  it('splits on blank lines and keeps offsets into the original text', () => {
    const text = 'First line\nsame para\n\nSecond\n\n\nThird';
    const ps = paragraphs(text);
    expect(ps.map((p) => text.slice(p.start, p.end))).toEqual(['First line\nsame para', 'Second', 'Third']);
    expect(paragraphs('')).toEqual([]);
  });
});

describe('enclosingSection', () => {
  const sections: Section[] = [
    { id: 0, title: '', level: 0, parent: null, start: 0, end: 100 },
    { id: 1, title: 'A', level: 1, parent: 0, start: 0, end: 60 },
    { id: 2, title: 'A.1', level: 2, parent: 1, start: 10, end: 40 },
    { id: 3, title: 'B', level: 1, parent: 0, start: 60, end: 100 },
  ];
  it('picks the deepest section holding the block', () => {
    expect(enclosingSection({ sections }, 12, 30)?.title).toBe('A.1');
    expect(enclosingSection({ sections }, 12, 50)?.title).toBe('A');
    expect(enclosingSection({ sections }, 50, 70)).toBeNull();
  });
});

function flatten(nodes: RangeNode[], depth: string[] = []): string[] {
  return nodes.flatMap((n) => (n.kind === 'text' ? [`${depth.join('>') || '-'}:${n.start}-${n.end}`] : flatten(n.children, [...depth, String(n.level)])));
}

describe('nestRanges', () => {
  const levels = [[{ start: 0, end: 50 }], [{ start: 10, end: 40 }], [{ start: 20, end: 25 }, { start: 15, end: 18 }]];
  it('nests section ⊃ block ⊃ hits and covers every character once', () => {
    expect(flatten(nestRanges(5, 45, levels))).toEqual(['0:5-10', '0>1:10-15', '0>1>2:15-18', '0>1:18-20', '0>1>2:20-25', '0>1:25-40', '0:40-45']);
  });
  it('shows an inner range even outside its outer level', () => {
    expect(flatten(nestRanges(0, 10, [[], [{ start: 2, end: 4 }], []]))).toEqual(['-:0-2', '1:2-4', '-:4-10']);
  });
  it('knows which paragraphs to split', () => {
    expect(overlapsAny(50, 60, levels)).toBe(false);
    expect(overlapsAny(49, 60, levels)).toBe(true);
  });
});

describe('joinAcrossWhitespace', () => {
  it('joins sentences separated by whitespace only, not across other text', () => {
    const text = 'A b. C d.\n\nE f. G.';
    expect(joinAcrossWhitespace([{ start: 5, end: 9 }, { start: 0, end: 4 }, { start: 11, end: 15 }], text)).toEqual([{ start: 0, end: 15 }]);
    expect(joinAcrossWhitespace([{ start: 0, end: 4 }, { start: 16, end: 18 }], text)).toEqual([{ start: 0, end: 4 }, { start: 16, end: 18 }]);
  });
});
