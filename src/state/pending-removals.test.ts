import { afterEach, describe, expect, it, vi } from 'vitest';
import { doneRemoving, forgetRemovals, markRemoving, pendingAtStart, removingTitles, withoutRemoving } from './pending-removals';

describe('documents being removed', () => {
  it('a document being removed is left out of every status until the worker confirms', () => {
    const status = { docs: [{ id: 'a' }, { id: 'b' }] };
    expect(withoutRemoving(status)).toBe(status);
    markRemoving('a');
    expect(withoutRemoving(status).docs).toEqual([{ id: 'b' }]);
    doneRemoving('a');
    expect(withoutRemoving(status).docs).toEqual([{ id: 'a' }, { id: 'b' }]);
  });

  describe('kept across a reload', () => {
    /** The page's localStorage as a reload leaves it: what was written stays, the page's memory does not. */
    const storage = new Map<string, string>();
    vi.stubGlobal('localStorage', { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => void storage.set(k, v), removeItem: (k: string) => void storage.delete(k) });
    afterEach(() => {
      forgetRemovals();
      storage.clear();
    });

    it('a removal not yet confirmed is asked again at the next start, once, and only for documents that came back', () => {
      markRemoving('a', 'Harbour log');
      markRemoving('b', 'Orchard notes');
      expect(removingTitles()).toEqual(['Harbour log', 'Orchard notes']);
      doneRemoving('b');
      markRemoving('c');
      // The reload: the worker restored a and d (c's removal was stored before the page closed).
      expect(pendingAtStart([{ id: 'a' }, { id: 'd' }])).toEqual(['a']);
      // c is forgotten, a is still asked for until the worker confirms it.
      expect(pendingAtStart([{ id: 'a' }, { id: 'c' }])).toEqual(['a']);
      doneRemoving('a');
      expect(pendingAtStart([{ id: 'a' }, { id: 'c' }])).toEqual([]);
    });

    it('clearing the corpus forgets every removal; an unreadable record is ignored', () => {
      markRemoving('a');
      forgetRemovals();
      expect(pendingAtStart([{ id: 'a' }])).toEqual([]);
      storage.set('rag-lab-removing', '{not json');
      expect(pendingAtStart([{ id: 'a' }])).toEqual([]);
      storage.set('rag-lab-removing', JSON.stringify(['a', 7]));
      expect(pendingAtStart([{ id: 'a' }])).toEqual(['a']);
    });
  });
});
