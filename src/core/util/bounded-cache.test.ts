import { describe, expect, it } from 'vitest';
import { BoundedCache } from './bounded-cache';

describe('BoundedCache', () => {
  it('keeps the most recently used entries up to its limit', () => {
    const c = new BoundedCache<string, number>(3);
    c.set('a', 1).set('b', 2).set('c', 3);
    expect(c.get('a')).toBe(1); // a is now the most recent: b is the oldest
    c.set('d', 4);
    expect([...c.keys()]).toEqual(['c', 'a', 'd']);
    expect(c.has('b')).toBe(false);
    expect(c.get('b')).toBeUndefined();
    c.set('c', 30); // replacing refreshes too
    c.set('e', 5);
    expect([...c.keys()]).toEqual(['d', 'c', 'e']);
    expect(c.size).toBe(3);
    expect(c.delete('d')).toBe(true);
    c.clear();
    expect(c.size).toBe(0);
  });

  it('stays at its limit over many different keys', () => {
    const c = new BoundedCache<number, number[]>(100);
    for (let i = 0; i < 10_000; i++) c.set(i, [i]);
    expect(c.size).toBe(100);
    expect(c.get(9_999)).toEqual([9_999]);
    expect(c.get(9_899)).toBeUndefined();
    expect(() => new BoundedCache(0)).toThrow(/at least one/);
  });
});
