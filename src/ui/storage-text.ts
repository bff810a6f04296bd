import type { WorkerStatus } from '../worker/protocol';

const n = (x: number) => x.toLocaleString('en-US');
const plural = (x: number, one: string, many = `${one}s`) => `${n(x)} ${x === 1 ? one : many}`;

/**
 * What the banner says about storage: kept or not (and then why, and what could not be
 * stored), and after a reload what came back from storage and what is made again — with what
 * this tab has embedded since, so "restored" can be checked against the work redone.
 */
export function storageText(p: WorkerStatus['persistence'], made?: WorkerStatus['embedding']['made']): string {
  if (!p.on) return `Persistence is off (${p.reason ?? 'unavailable'}): work is kept in memory only.`;
  return `${keptText(p, made)}${lostText(p.lost)}`;
}

/** Documents whose stored text the browser could not give back: left out, named, to be dropped again. */
function lostText(lost: readonly string[] | undefined): string {
  if (!lost?.length) return '';
  const quoted = lost.slice(0, 3).map((t) => `'${t}'`).join(', ');
  const names = lost.length > 3 ? `${quoted} and ${n(lost.length - 3)} more` : quoted;
  return ` The stored text of ${names} could not be read back from this browser's storage: ${lost.length === 1 ? 'it was' : 'they were'} left out; drop ${lost.length === 1 ? 'its file' : 'their files'} again.`;
}

function keptText(p: WorkerStatus['persistence'], made?: WorkerStatus['embedding']['made']): string {
  const r = p.restored;
  if (!r) return 'Your corpus is kept in this browser.';
  const restored = `${plural(r.vectors, 'vector')}${r.semanticDocs ? ` and the semantic chunks of ${plural(r.semanticDocs, 'document')}` : ''}`;
  const again = r.toEmbed || r.toCut ? `; left to make: ${plural(r.toEmbed, 'unit')}${r.toCut ? `, semantic chunks of ${plural(r.toCut, 'document')}` : ''}` : '; nothing to embed again';
  const since = made ? ` Embedded since: ${plural(made.units, 'unit')}; semantic chunks cut for ${plural(made.semanticDocs, 'document')}.` : '';
  return `Your corpus is kept in this browser. Restored: ${restored}${again}.${since}`;
}
