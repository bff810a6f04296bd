/**
 * The lab worker's side of contextual retrieval: the contexts are the engine's (its
 * ContextStore, carried into every engine the session builds); this answers the page's plan and
 * call requests, keeps each context the page's run writes, makes its contextual vector a moment
 * later (a batch at a time, not one call per context), stores the contexts and says when
 * anything changed, so the columns search again.
 *
 * Contextual vectors are stored too (context-storage.ts), each embedding slice as it is made:
 * when a model loads, its stored vectors go into the engine's cache before anything is
 * embedded, so a reload embeds only what was never stored. Stored vectors whose text is no
 * longer any unit's contextual text (an edited or replaced context, a removed document, other
 * headers) are dropped at the next save; clearing the corpus drops them all.
 *
 * Only the tab that owns the lab (lab.ts) embeds and stores them; a tab that follows it reads
 * the stored contexts again when it says they changed (reload).
 */
import { contextCalls, planContexts, type ContextCall, type ContextPlan } from '../core/context/generate-contexts';
import type { ContextRunRecord, ContextUnitKind, UnitContext } from '../core/context/context-store';
import { CONTEXT_UNIT_KINDS, ContextStore } from '../core/context/context-store';
import type { RetrievalEngine } from '../core/engine';
import { ApproxTokenCounter } from '../core/segment/tokens';
import type { ContextCallOptions, ContextsState } from './context-protocol';
import { contextVectorKey } from '../core/engine/contextual';
import { ContextStorage, textHash, type StoredContextVector } from './context-storage';

/** How long after the last context its vectors are made and the contexts stored. */
const SETTLE_MS = 400;
const approx = new ApproxTokenCounter();

export class LabContexts {
  private readonly storage = new ContextStorage();
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Bumped when contexts or their vectors change: the page's columns depend on it (WorkerStatus.contexts). */
  private version = 0;
  /** Cache keys ("<model>\0<text>") whose vector is in storage (written, or read from it). */
  private readonly stored = new Set<string>();
  /** Stored vectors may have gone stale (a context replaced or edited, a document removed): the next save prunes. */
  private stale = false;
  /** Storage work in order (vector writes, prunes, saves, clear): a prune never races a write. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Contextual texts embedded in this session, and vectors read back from storage (for tests and the bench). */
  readonly counts = { embedded: 0, restored: 0 };

  /** `storing.writable`: this tab may embed and store (it owns the lab); `storing.stored`: something was stored (the other tabs are told). */
  constructor(
    private readonly engine: () => RetrievalEngine,
    private readonly changed: () => void,
    private readonly storing: { writable: () => boolean | Promise<boolean>; stored: () => void } = { writable: () => true, stored: () => undefined },
  ) {}

  /** Opens the storage and, unless `fresh`, puts the stored contexts into the engine. */
  async open(fresh: boolean): Promise<void> {
    await this.storage.open();
    if (fresh) return;
    const stored = await this.storage.load();
    if (!stored) return;
    const store = this.engine().contexts.store;
    for (const e of stored.entries()) if (!store.has(e.key)) store.set(e.key, e.context);
    for (const run of stored.runs) store.recordRun(run);
    if (this.engine().embedder) await this.restoreVectors();
  }

  /**
   * A model was loaded (at start or a switch; the engine is the session's new one): its stored
   * contextual vectors go into the cache, then whatever has none is embedded a moment later.
   */
  async modelLoaded(): Promise<void> {
    if (await this.restoreVectors()) {
      this.version++;
      this.changed();
    }
    if (this.engine().contexts.store.count() > 0) this.settle();
  }

  /**
   * Another tab stored contexts (or the corpus changed there): this tab's are replaced by the
   * stored ones, and the loaded model's stored contextual vectors are read for them.
   */
  async reload(): Promise<void> {
    const stored = await this.enqueue(() => this.storage.load());
    const store = this.engine().contexts.store;
    const next = stored ?? new ContextStore();
    if (JSON.stringify(next.toJSON()) === JSON.stringify(store.toJSON())) return;
    store.assign(next);
    this.stored.clear();
    await this.restoreVectors();
    this.version++;
    this.changed();
  }

  /**
   * This tab hands the lab over: a save that was waiting is done now, without embedding
   * anything more (the contexts, and the vectors already made); nothing is stored after it.
   */
  async storeNow(): Promise<void> {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
    await this.flush(false);
  }

  /** The corpus changed (a document removed, its headers changed): stored vectors may be stale; pruned at the next save. */
  corpusChanged(): void {
    this.stale = true;
    if (this.engine().contexts.store.count() > 0) this.settle();
  }

  /** For the status: the version, and contexts per kind. */
  summary(): { version: number; written: Partial<Record<ContextUnitKind, number>>; problem?: string } {
    const store = this.engine().contexts.store;
    const written = Object.fromEntries(CONTEXT_UNIT_KINDS.filter((k) => store.count(k) > 0).map((k) => [k, store.count(k)]));
    return { version: this.version + store.version(), written, ...(this.storage.problem ? { problem: this.storage.problem } : {}) };
  }

  state(kind: ContextUnitKind): ContextsState {
    const e = this.engine();
    const { written, embedded, total } = e.contexts.coverage(kind);
    return { kind, written, embedded: e.embedder ? embedded : 0, total, runs: e.contexts.store.runs.slice(-5) };
  }

  /** Tokens are estimated here (the generator's tokenizer is elsewhere): the page asks with a margin. */
  plan(o: ContextCallOptions): ContextPlan {
    const e = this.engine();
    return planContexts(e, o.kind, e.contexts.store, { prompt: o.prompt, generator: { contextTokens: o.contextTokens, counter: approx } });
  }

  calls(o: ContextCallOptions & { after: number; count: number }): ContextCall[] {
    const e = this.engine();
    const src = contextCalls(e, o.kind, e.contexts.store, { prompt: o.prompt, generator: { contextTokens: o.contextTokens, counter: approx }, after: o.after });
    const out: ContextCall[] = [];
    for (let i = 0; i < o.count; i++) {
      const c = src.next() as ContextCall | null;
      if (!c) break;
      out.push(c);
    }
    return out;
  }

  put(key: string, context: UnitContext): null {
    const store = this.engine().contexts.store;
    // A context replaced: its old text's vector is stale.
    if (store.has(key)) this.stale = true;
    store.set(key, context);
    this.settle();
    return null;
  }

  edit(key: string, text: string): UnitContext | null {
    const c = this.engine().contexts.store.edit(key, text) ?? null;
    this.stale = true;
    this.settle();
    return c;
  }

  record(run: ContextRunRecord): null {
    this.engine().contexts.store.recordRun(run);
    this.settle();
    return null;
  }

  /** Forgets every context and contextual vector, in memory and stored (the corpus was cleared). */
  async clear(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const { store, vectors } = this.engine().contexts;
    for (const e of [...store.entries()]) store.delete(e.key);
    vectors.clear();
    this.stored.clear();
    this.stale = false;
    await this.enqueue(async () => {
      await this.storage.save(null);
      await this.storage.clearVectors();
    });
    this.storing.stored();
    this.version++;
    this.changed();
  }

  /** Runs storage work after what was queued before it. */
  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** textHash of each text; yields now and then, so that requests get in between over a large corpus. */
  private async hashAll(texts: Iterable<string>): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const t of texts) {
      out.set(t, textHash(t));
      if (out.size % 4096 === 0) await new Promise((r) => setTimeout(r, 0));
    }
    return out;
  }

  /** The current model's stored vectors for the texts units have now, into the engine's cache; returns how many. */
  private async restoreVectors(): Promise<number> {
    const e = this.engine();
    const embedder = e.embedder;
    if (!embedder || e.contexts.store.count() === 0) return 0;
    const model = embedder.model;
    const saved = await this.enqueue(() => this.storage.loadVectors(model));
    if (!saved.size) return 0;
    // The engine may have been replaced while storage was read: the vectors go to the one of now, if it has the same model.
    const now = this.engine();
    if (now.embedder?.model !== model) return 0;
    const hashes = await this.hashAll(now.contexts.texts());
    const found: [string, Float32Array][] = [];
    for (const [text, hash] of hashes) {
      const v = saved.get(hash);
      if (!v || v.length !== embedder.dim) continue;
      const key = contextVectorKey(model, text);
      found.push([key, v]);
      this.stored.add(key);
    }
    const n = now.contexts.adoptVectors(found);
    this.counts.restored += n;
    return n;
  }

  /** Stores vectors just made (cache entries of one model), unless they already are. */
  private storeVectors(added: readonly [string, Float32Array][]): Promise<void> {
    const fresh = added.filter(([key]) => !this.stored.has(key));
    if (!fresh.length) return Promise.resolve();
    return this.enqueue(async () => {
      const byModel = new Map<string, [string, Float32Array][]>();
      for (const entry of fresh) {
        const model = entry[0].slice(0, entry[0].indexOf('\u0000'));
        const list = byModel.get(model);
        if (list) list.push(entry);
        else byModel.set(model, [entry]);
      }
      for (const [model, entries] of byModel) {
        const rows: StoredContextVector[] = entries.map(([key, data]) => ({ hash: textHash(key.slice(model.length + 1)), data }));
        // A refused write keeps the vectors in memory (and unmarked: the next save tries again); the problem is said.
        if (await this.storage.putVectors(model, rows)) for (const [key] of entries) this.stored.add(key);
      }
    });
  }

  /** Drops stored vectors whose text is no unit's contextual text now (any model), and forgets their marks. */
  private prune(): Promise<void> {
    this.stale = false;
    return this.enqueue(async () => {
      const texts = this.engine().contexts.texts();
      const hashes = await this.hashAll(texts);
      await this.storage.pruneVectors(new Set(hashes.values()));
      for (const key of this.stored) if (!texts.has(key.slice(key.indexOf('\u0000') + 1))) this.stored.delete(key);
    });
  }

  /** Soon after the last change: contextual vectors made, contexts stored, the page told. */
  private settle(): void {
    this.changed();
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), SETTLE_MS);
  }

  private async flush(embed = true): Promise<void> {
    this.timer = null;
    // A tab that follows another neither embeds contexts nor stores them.
    if (!(await this.storing.writable())) return;
    const e = this.engine();
    const writes: Promise<void>[] = [];
    if (e.embedder) {
      for (const kind of embed ? CONTEXT_UNIT_KINDS : []) {
        try {
          const n = await e.contexts.embed(kind, { onVectors: (added) => writes.push(this.storeVectors(added)) });
          this.counts.embedded += n;
          if (n > 0) this.version++;
        } catch {
          // A model that cannot embed leaves those units searched by their plain vectors (the column says how many).
        }
      }
      // Vectors made elsewhere (an evaluation's embedding, a bundle's) for the texts of now, not stored yet.
      await Promise.all(writes);
      const model = e.embedder.model;
      const cache = e.contexts.vectors;
      const unstored: [string, Float32Array][] = [];
      for (const text of e.contexts.texts()) {
        const key = contextVectorKey(model, text);
        const v = cache.get(key);
        if (v && !this.stored.has(key)) unstored.push([key, v]);
      }
      await this.storeVectors(unstored);
    }
    if (this.stale) await this.prune();
    await this.enqueue(() => {
      const json = this.engine().contexts.store.toJSON();
      return this.storage.save(json.entries.length || json.runs.length ? json : null);
    });
    this.storing.stored();
    this.changed();
  }
}
