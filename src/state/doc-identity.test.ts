import { describe, expect, it } from 'vitest';
import type { DocSummary } from '../worker/protocol';
import { keepUnchanged } from './doc-identity';

const doc = (id: string, done: number): DocSummary => ({ id, title: id, fileName: `${id}.md`, language: 'en', sentences: 10, embedded: { done, total: 10 }, warnings: [] }) as unknown as DocSummary;

describe('keepUnchanged: status documents keep their identity while they say the same', () => {
  it('the previous array when no document changed (fresh copies from the worker)', () => {
    const prev = [doc('a', 10), doc('b', 3)];
    expect(keepUnchanged(prev, [doc('a', 10), doc('b', 3)])).toBe(prev);
  });

  it('a new array where one document moved: the others are the previous objects, the moved one the new', () => {
    const prev = [doc('a', 10), doc('b', 3)];
    const next = [doc('a', 10), doc('b', 4)];
    const kept = keepUnchanged(prev, next);
    expect(kept).not.toBe(prev);
    expect(kept[0]).toBe(prev[0]);
    expect(kept[1]).toBe(next[1]);
    expect(kept[1]!.embedded.done).toBe(4);
  });

  it('removed, added and reordered documents make a new array in the new order', () => {
    const prev = [doc('a', 10), doc('b', 3)];
    expect(keepUnchanged(prev, [doc('a', 10)]).map((d) => d.id)).toEqual(['a']);
    const reordered = keepUnchanged(prev, [doc('b', 3), doc('a', 10)]);
    expect(reordered).not.toBe(prev);
    expect(reordered[0]).toBe(prev[1]);
    expect(keepUnchanged(prev, [...prev.map((d) => ({ ...d })), doc('c', 0)]).map((d) => d.id)).toEqual(['a', 'b', 'c']);
  });
});
