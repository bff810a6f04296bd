/**
 * The background embedding job: embeds whatever units of the current engine have no vector
 * yet, kind by kind, with progress and an estimate of the time left. Pausing stops it; BM25
 * and the vectors made so far keep working.
 */
import { EmbeddingCancelled } from '../core/embed/embedder';
import type { EmbeddingSendPlan } from '../core/embed/endpoint-choice';
import type { RetrievalEngine } from '../core/engine';
import { unitsWord } from '../core/engine/types';
import { ApproxTokenCounter } from '../core/segment/tokens';
import { DEFAULT_SEMANTIC } from '../core/structure/semantic-chunks';
import { UNIT_KINDS, type UnitKind } from '../core/retrieve/params';
import type { EmbeddingStatus } from './protocol';

/** Every kind; semantic last, since its chunks are found by embedding first. */
const KINDS: readonly UnitKind[] = UNIT_KINDS;

/**
 * Whether `engine` still has work for the job: units without vectors, or documents whose
 * semantic chunks are not found yet (they have no units to count until then).
 */
export function embeddingMissing(engine: RetrievalEngine): boolean {
  if (!engine.embedder) return false;
  const s = engine.semanticCoverage();
  return s.done < s.total || KINDS.some((k) => engine.vectorCoverage(k).done < engine.unitCount(k));
}

/**
 * What embedding the whole corpus with a new model sends (for an endpoint's consent): every
 * unit of every kind, and for semantic chunks first each sentence with its neighbours (the
 * chunks themselves, found from those, are counted as about the sentences' tokens again).
 * Tokens are the approximate counter's: the endpoint's tokenizer is not known here.
 */
export function sendPlan(engine: RetrievalEngine): EmbeddingSendPlan {
  const approx = new ApproxTokenCounter();
  const parts: EmbeddingSendPlan['parts'] = [];
  let tokens = 0;
  for (const kind of KINDS) {
    if (kind === 'semantic') continue;
    const n = engine.unitCount(kind);
    for (let i = 0; i < n; i++) tokens += approx.count(engine.unitText(kind, i));
    if (n) parts.push({ what: unitsWord(kind), count: n });
  }
  const c = engine.corpus;
  const buffer = (engine.structure.semantic ?? DEFAULT_SEMANTIC).buffer;
  const sentenceTokens = Array.from({ length: c.sentences.length }, (_, i) => approx.count(engine.unitText('sentence', i)));
  for (let d = 0; d < c.docs.length; d++) {
    const [a, b] = [c.docStarts[d]!, c.docStarts[d + 1]!];
    for (let i = a; i < b; i++) {
      for (let j = Math.max(a, i - buffer); j < Math.min(b, i + buffer + 1); j++) tokens += sentenceTokens[j]!;
      tokens += sentenceTokens[i]!;
    }
  }
  if (c.sentences.length) parts.push({ what: 'sentences with their neighbours (to find semantic chunks), then those chunks', count: c.sentences.length });
  return { units: parts.reduce((n, p) => n + p.count, 0), tokens, parts };
}

export interface EmbeddingJobEvents {
  /** Progress moved (called often: throttle what it does). */
  progress(): void;
  /** The job ended by itself (all embedded, or an error) or was paused: its vectors can be saved. */
  finished(): Promise<void>;
}

export class EmbeddingJob {
  /** The user paused embedding. */
  paused = false;
  /** This tab does not own the lab: another one embeds (and stores what it makes). */
  held = false;
  /** The job under way; `ended` settles when its loop has returned (a batch in flight when stopped included). */
  private current: { controller: AbortController; engine: RetrievalEngine; ended: Promise<void> } | null = null;
  private info: { unit?: UnitKind; etaS?: number; perSecond?: number; truncated: number; error?: string; progress?: { done: number; total: number } } = { truncated: 0 };
  /**
   * Units embedded since the worker started (not restored ones), semantic chunks aside as in
   * the documents' counts, and documents whose semantic chunks were cut.
   */
  private readonly made = { units: 0, semanticDocs: 0 };

  constructor(private readonly events: EmbeddingJobEvents) {}

  get running(): boolean {
    return this.current !== null;
  }

  /** Stops the job; resolves once its batch in flight has ended and put its vectors in (what a handover must store first). */
  stop(): Promise<void> {
    const job = this.current;
    job?.controller.abort();
    this.current = null;
    return job?.ended ?? Promise.resolve();
  }

  /**
   * Starts embedding for `engine` unless paused. A job already running on this engine loops
   * until nothing is missing, so documents added meanwhile are picked up; a replaced engine
   * gets a job of its own.
   */
  start(engine: RetrievalEngine): void {
    if (this.paused || this.held || this.current?.engine === engine) return;
    this.stop();
    if (!engine.embedder) return;
    const controller = new AbortController();
    const job = { controller, engine, ended: Promise.resolve() };
    this.current = job;
    this.info = { truncated: 0 };
    const missing = () => embeddingMissing(engine);
    job.ended = (async () => {
      try {
        while (!controller.signal.aborted && missing()) {
          for (const kind of KINDS) {
            const started = performance.now();
            const before = { units: engine.vectorCoverage(kind).done, semantic: engine.semanticCoverage().done };
            const counted = () => {
              if (kind !== 'semantic') this.made.units += Math.max(0, engine.vectorCoverage(kind).done - before.units);
              this.made.semanticDocs += Math.max(0, engine.semanticCoverage().done - before.semantic);
            };
            const { truncated } = await engine.embedUnits(kind, {
              signal: controller.signal,
              onEmbedProgress: (p) => {
                const perMs = p.done / Math.max(1, performance.now() - started);
                this.info.unit = kind;
                this.info.progress = { done: p.done, total: p.total };
                if (p.done > 0) {
                  this.info.etaS = Math.ceil((p.total - p.done) / perMs / 1000);
                  this.info.perSecond = Math.round(perMs * 1000 * 10) / 10;
                }
                this.events.progress();
              },
            }).finally(counted);
            this.info.truncated += truncated.length;
          }
        }
      } catch (e) {
        if (!(e instanceof EmbeddingCancelled) && !controller.signal.aborted) this.info.error = (e as Error).message;
      } finally {
        if (this.current === job) {
          this.current = null;
          delete this.info.unit;
          delete this.info.etaS;
          delete this.info.perSecond;
          delete this.info.progress;
          await this.events.finished();
        }
      }
    })();
  }

  /**
   * Pauses (and stops) or resumes embedding for `engine`. A pause of a running job stores what
   * it made (finished): the documents embedded in part too, which a running job does not write.
   */
  setPaused(paused: boolean, engine: RetrievalEngine): void {
    this.paused = paused;
    if (!paused) {
      this.start(engine);
      return;
    }
    const wasRunning = this.running;
    this.stop();
    if (wasRunning) void this.events.finished();
  }

  status(engine: RetrievalEngine): EmbeddingStatus {
    const info = this.info;
    return {
      coverage: Object.fromEntries(KINDS.map((k) => [k, engine.vectorCoverage(k)])) as EmbeddingStatus['coverage'],
      running: this.running,
      paused: this.paused,
      truncated: info.truncated,
      made: { ...this.made },
      ...(info.unit ? { unit: info.unit } : {}),
      ...(info.etaS !== undefined ? { etaS: info.etaS } : {}),
      ...(info.perSecond !== undefined ? { perSecond: info.perSecond } : {}),
      ...(info.progress ? { progress: info.progress } : {}),
      ...(info.error ? { error: info.error } : {}),
    };
  }
}
