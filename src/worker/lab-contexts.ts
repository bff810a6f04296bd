/**
 * The lab worker's side of contextual retrieval: the contexts are the engine's (its
 * ContextStore, carried into every engine the session builds); this answers the page's plan and
 * call requests, keeps each context the page's run writes, makes its contextual vector a moment
 * later (a batch at a time, not one call per context), stores the contexts and says when
 * anything changed, so the columns search again.
 */
import { contextCalls, planContexts, type ContextCall, type ContextPlan } from '../core/context/generate-contexts';
import type { ContextRunRecord, ContextUnitKind, UnitContext } from '../core/context/context-store';
import { CONTEXT_UNIT_KINDS } from '../core/context/context-store';
import type { RetrievalEngine } from '../core/engine';
import { ApproxTokenCounter } from '../core/segment/tokens';
import type { ContextCallOptions, ContextsState } from './context-protocol';
import { ContextStorage } from './context-storage';

/** How long after the last context its vectors are made and the contexts stored. */
const SETTLE_MS = 400;
const approx = new ApproxTokenCounter();

export class LabContexts {
  private readonly storage = new ContextStorage();
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Bumped when contexts or their vectors change: the page's columns depend on it (WorkerStatus.contexts). */
  private version = 0;

  constructor(
    private readonly engine: () => RetrievalEngine,
    private readonly changed: () => void,
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
    this.engine().contexts.store.set(key, context);
    this.settle();
    return null;
  }

  edit(key: string, text: string): UnitContext | null {
    const c = this.engine().contexts.store.edit(key, text) ?? null;
    this.settle();
    return c;
  }

  record(run: ContextRunRecord): null {
    this.engine().contexts.store.recordRun(run);
    this.settle();
    return null;
  }

  /** Forgets every context (the corpus was cleared). */
  async clear(): Promise<void> {
    const store = this.engine().contexts.store;
    for (const e of [...store.entries()]) store.delete(e.key);
    await this.storage.save(null);
  }

  /** Soon after the last change: contextual vectors made, contexts stored, the page told. */
  private settle(): void {
    this.changed();
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), SETTLE_MS);
  }

  private async flush(): Promise<void> {
    this.timer = null;
    const e = this.engine();
    if (e.embedder) {
      for (const kind of CONTEXT_UNIT_KINDS) {
        try {
          if ((await e.contexts.embed(kind)) > 0) this.version++;
        } catch {
          // A model that cannot embed leaves those units searched by their plain vectors (the column says how many).
        }
      }
    }
    const json = e.contexts.store.toJSON();
    await this.storage.save(json.entries.length || json.runs.length ? json : null);
    this.changed();
  }
}
