import type { DocSummary } from '../worker/protocol';

/**
 * The new status's documents, each the previous object where it says the same (the worker
 * sends fresh copies each time), and the previous array when none changed: a document whose
 * progress moved re-renders alone.
 */
export function keepUnchanged(prev: DocSummary[], next: DocSummary[]): DocSummary[] {
  const before = new Map(prev.map((d) => [d.id, d]));
  let changed = prev.length !== next.length;
  const docs = next.map((d, i) => {
    const old = before.get(d.id);
    if (old && JSON.stringify(old) === JSON.stringify(d)) {
      if (prev[i] !== old) changed = true;
      return old;
    }
    changed = true;
    return d;
  });
  return changed ? docs : prev;
}
