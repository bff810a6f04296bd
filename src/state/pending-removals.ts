/**
 * Documents the user removed that the worker has not confirmed yet: they leave the list at
 * once (a removal rebuilds the engine, which takes seconds on a big corpus), and a progress
 * status posted meanwhile does not bring them back.
 */
const removing = new Set<string>();

export function markRemoving(docId: string): void {
  removing.add(docId);
}

export function doneRemoving(docId: string): void {
  removing.delete(docId);
}

/** The status as the page shows it: documents being removed left out. */
export function withoutRemoving<S extends { docs: readonly { id: string }[] }>(status: S): S {
  return removing.size ? { ...status, docs: status.docs.filter((d) => !removing.has(d.id)) } : status;
}
