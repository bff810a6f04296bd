/**
 * Documents the user removed that the worker has not confirmed yet: they leave the list at
 * once (a removal rebuilds the engine, which takes seconds on a big corpus), and a progress
 * status posted meanwhile does not bring them back.
 *
 * They are also written to localStorage at the click, synchronously: a reload before the
 * worker has stored the corpus without them would otherwise bring them back (the worker is
 * stopped mid-write). At the next start the page removes them again (pendingAtStart).
 */
const STORAGE_KEY = 'rag-lab-removing';

/** Id → the title the page shows while it is being removed. */
const removing = new Map<string, string>();

function stored(): string[] {
  try {
    const ids = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]') as unknown;
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

function store(ids: Iterable<string>): void {
  try {
    const list = [...ids];
    if (list.length) localStorage.setItem(STORAGE_KEY, JSON.stringify(list));
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // No localStorage (private mode, blocked): a removal is then kept only once the worker stores it.
  }
}

export function markRemoving(docId: string, title = docId): void {
  removing.set(docId, title);
  store(new Set([...stored(), docId]));
}

export function doneRemoving(docId: string): void {
  removing.delete(docId);
  store(stored().filter((id) => id !== docId));
}

/** Every removal forgotten (the corpus was cleared). */
export function forgetRemovals(): void {
  removing.clear();
  store([]);
}

/** The titles of the documents being removed, in the order they were asked for. */
export function removingTitles(): string[] {
  return [...removing.values()];
}

/**
 * At start: the removals the last page asked for and did not see stored, among the documents
 * the worker restored. Those no longer restored were stored, and are forgotten.
 */
export function pendingAtStart(restored: readonly { id: string }[]): string[] {
  const ids = new Set(restored.map((d) => d.id));
  const left = stored().filter((id) => ids.has(id));
  store(left);
  return left;
}

/** The status as the page shows it: documents being removed left out. */
export function withoutRemoving<S extends { docs: readonly { id: string }[] }>(status: S): S {
  return removing.size ? { ...status, docs: status.docs.filter((d) => !removing.has(d.id)) } : status;
}
