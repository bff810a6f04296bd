/**
 * The situating contexts of contextual retrieval, kept with the corpus. Each is keyed by a
 * stable identity of its unit — document id, unit kind and character range — not by unit id:
 * removing a document renumbers units, and a context must survive that (and a reload, and a
 * bundle). Serialisable as plain JSON for IndexedDB, the CLI's corpus file and bundles.
 */
import { z } from 'zod';
import type { UnitKind } from '../retrieve/param-types';

export { CONTEXT_UNIT_KINDS, isContextUnitKind, type ContextUnitKind } from './unit-kinds';
import { CONTEXT_UNIT_KINDS, type ContextUnitKind } from './unit-kinds';

/** Source of a context the user wrote or changed by hand. */
export const EDITED_SOURCE = 'edited by you';

/** One unit's situating context. */
export interface UnitContext {
  text: string;
  /** Who wrote it: "model rag-lab/test-generator (test model)", "endpoint <URL> model <name>", or EDITED_SOURCE. */
  source: string;
  /** The reply was longer than the limit and was cut to it. */
  cut?: boolean;
  /** The document was longer than the generator's context: the model saw a window around the unit. */
  window?: boolean;
}

/** What the last run did, kept with the contexts so a cancelled or failed run stays visible after a reload. */
export interface ContextRunRecord {
  kind: ContextUnitKind;
  source: string;
  /** The prompt's user template as sent. */
  prompt: string;
  written: number;
  failed: number;
  cut: number;
  cancelled: boolean;
  error?: string;
  finished: string;
}

export interface SavedContexts {
  format: 'rag-lab-contexts';
  version: 1;
  entries: { doc: string; kind: ContextUnitKind; start: number; end: number; text: string; source: string; cut?: boolean; window?: boolean }[];
  runs: ContextRunRecord[];
}

const count = z.number().int().min(0);
const kind = z.enum(CONTEXT_UNIT_KINDS);
const savedSchema = z.object({
  format: z.literal('rag-lab-contexts'),
  version: z.literal(1),
  entries: z.array(
    z
      .object({ doc: z.string().min(1), kind, start: count, end: count, text: z.string().min(1), source: z.string().min(1), cut: z.boolean().optional(), window: z.boolean().optional() })
      .refine((e) => e.end > e.start, 'end must be after start'),
  ),
  runs: z.array(z.object({ kind, source: z.string(), prompt: z.string(), written: count, failed: count, cut: count, cancelled: z.boolean(), error: z.string().optional(), finished: z.string() })),
});

/** The stable identity of a unit: "<kind>:<start>-<end>:<document id>" (the id last: it may hold colons). */
export function contextKey(docId: string, kind: UnitKind, start: number, end: number): string {
  return `${kind}:${start}-${end}:${docId}`;
}

function parseKey(key: string): { doc: string; kind: ContextUnitKind; start: number; end: number } {
  const m = /^([a-z]+):(\d+)-(\d+):([\s\S]+)$/.exec(key)!;
  return { kind: m[1] as ContextUnitKind, start: Number(m[2]), end: Number(m[3]), doc: m[4]! };
}

/** Most runs remembered (the page shows the last; older ones only explain old contexts). */
const MAX_RUNS = 20;

export class ContextStore {
  private readonly map = new Map<string, UnitContext>();
  private readonly perKind = new Map<string, number>();
  private readonly runLog: ContextRunRecord[] = [];
  /** Bumped on every change: indexes built from contexts compare it to know they are stale. */
  private versions = new Map<string, number>();
  private total = 0;

  /** The version of one kind's contexts, or of all of them. */
  version(kind?: UnitKind): number {
    return kind ? (this.versions.get(kind) ?? 0) : this.total;
  }

  private bump(kind: string): void {
    this.versions.set(kind, (this.versions.get(kind) ?? 0) + 1);
    this.total++;
  }

  get(key: string): UnitContext | undefined {
    return this.map.get(key);
  }

  has(key: string): boolean {
    return this.map.has(key);
  }

  /** Contexts held for a kind (or all). */
  count(kind?: UnitKind): number {
    return kind ? (this.perKind.get(kind) ?? 0) : this.map.size;
  }

  /** Puts a context in (replacing any). Blank text is refused: removing a context is delete(). */
  set(key: string, context: UnitContext): void {
    const text = context.text.trim();
    if (!text) throw new RangeError('a context cannot be empty: remove it instead');
    const { kind } = parseKey(key);
    if (!this.map.has(key)) this.perKind.set(kind, (this.perKind.get(kind) ?? 0) + 1);
    this.map.set(key, { ...context, text });
    this.bump(kind);
  }

  /** The user's own text for a unit; blank text removes the context (the unit is plain again). */
  edit(key: string, text: string): UnitContext | undefined {
    if (!text.trim()) {
      this.delete(key);
      return undefined;
    }
    const context: UnitContext = { text: text.trim(), source: EDITED_SOURCE };
    this.set(key, context);
    return context;
  }

  delete(key: string): boolean {
    if (!this.map.delete(key)) return false;
    const { kind } = parseKey(key);
    this.perKind.set(kind, (this.perKind.get(kind) ?? 1) - 1);
    this.bump(kind);
    return true;
  }

  /** Removes every context of the given documents (their units are gone); returns how many. */
  deleteDocuments(ids: Iterable<string>): number {
    const drop = new Set(ids);
    let n = 0;
    for (const key of [...this.map.keys()]) if (drop.has(parseKey(key).doc) && this.delete(key)) n++;
    return n;
  }

  recordRun(run: ContextRunRecord): void {
    this.runLog.push(run);
    if (this.runLog.length > MAX_RUNS) this.runLog.splice(0, this.runLog.length - MAX_RUNS);
    this.total++;
  }

  get runs(): readonly ContextRunRecord[] {
    return this.runLog;
  }

  /** Makes this store hold what `other` holds (contexts and runs), as changes: versions move on. */
  assign(other: ContextStore): void {
    for (const key of [...this.map.keys()]) if (!other.has(key)) this.delete(key);
    for (const e of other.entries()) {
      const c = this.map.get(e.key);
      if (!c || JSON.stringify(c) !== JSON.stringify(e.context)) this.set(e.key, e.context);
    }
    this.runLog.splice(0, this.runLog.length, ...other.runs);
    this.total++;
  }

  /** Every context with its unit's identity, in insertion order. */
  *entries(): IterableIterator<{ key: string; doc: string; kind: ContextUnitKind; start: number; end: number; context: UnitContext }> {
    for (const [key, context] of this.map) yield { key, ...parseKey(key), context };
  }

  toJSON(): SavedContexts {
    return {
      format: 'rag-lab-contexts',
      version: 1,
      entries: [...this.entries()].map(({ doc, kind, start, end, context: c }) => ({ doc, kind, start, end, text: c.text, source: c.source, ...(c.cut ? { cut: true } : {}), ...(c.window ? { window: true } : {}) })),
      runs: this.runLog.map((r) => ({ ...r })),
    };
  }

  /** Contexts read back from toJSON's output; throws a RangeError naming the first fault, before any change. */
  static fromJSON(json: unknown): ContextStore {
    const r = savedSchema.safeParse(json);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      const path = issue.path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('');
      throw new RangeError(`the saved contexts are not readable: ${path ? `${path}: ` : ''}${issue.message}`);
    }
    const store = new ContextStore();
    for (const e of r.data.entries) store.set(contextKey(e.doc, e.kind, e.start, e.end), { text: e.text, source: e.source, ...(e.cut ? { cut: true } : {}), ...(e.window ? { window: true } : {}) });
    for (const run of r.data.runs) store.recordRun(run);
    return store;
  }
}
