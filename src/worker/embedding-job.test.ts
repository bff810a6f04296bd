import { describe, expect, it } from 'vitest';
import { documentFromText } from '../core/documents/load';
import { EmbeddingCancelled, type Embedder } from '../core/embed/embedder';
import { RetrievalEngine } from '../core/engine';
import { UNIT_KINDS, type UnitKind } from '../core/retrieve/params';
import { ApproxTokenCounter } from '../core/segment/tokens';
import { EmbeddingJob, sendPlan } from './embedding-job';

const TEXT = '# Tea\n\nGreen tea is steamed. Black tea is oxidised fully. Oolong sits between them.\n\nWhite tea is the least processed.\n';

describe('sendPlan: what embedding the corpus through an endpoint sends', () => {
  it('counts every unit of every kind, and each sentence with its neighbours for semantic chunks, in approximate tokens', () => {
    const e = new RetrievalEngine();
    e.addDocuments([documentFromText(TEXT, 'tea.md', 'md'), documentFromText('One sentence only.', 'one.txt', 'txt')]);
    const approx = new ApproxTokenCounter();
    const tok = (kind: (typeof UNIT_KINDS)[number]) => Array.from({ length: e.unitCount(kind) }, (_, i) => approx.count(e.unitText(kind, i)));
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const s = tok('sentence');
    const c = e.corpus;
    // Buffer 1: sentence i with i-1 and i+1 inside its document, then the chunks (~ the sentences again).
    let semantic = 0;
    for (let d = 0; d < c.docs.length; d++) {
      const [a, b] = [c.docStarts[d]!, c.docStarts[d + 1]!];
      for (let i = a; i < b; i++) semantic += sum(s.slice(Math.max(a, i - 1), Math.min(b, i + 2))) + s[i]!;
    }
    const plan = sendPlan(e);
    const kinds = UNIT_KINDS.filter((k) => k !== 'semantic');
    expect(plan.tokens).toBe(sum(kinds.map((k) => sum(tok(k)))) + semantic);
    expect(plan.parts.map((p) => p.count)).toEqual([...kinds.map((k) => e.unitCount(k)).filter((n) => n > 0), c.sentences.length]);
    expect(plan.units).toBe(sum(kinds.map((k) => e.unitCount(k))) + c.sentences.length);
    expect(plan.parts[0]).toEqual({ what: 'sentences', count: c.sentences.length });
    expect(c.sentences.length).toBe(6);
  });

  it('an empty corpus sends nothing', () => {
    expect(sendPlan(new RetrievalEngine())).toEqual({ units: 0, tokens: 0, parts: [] });
  });
});

/**
 * A model stand-in that works as the real ones do: batches of BATCH texts, the signal checked
 * before each, the event loop let through after each (where a pause request comes in). It counts
 * the texts it embeds and calls `between` after every batch.
 */
function batchedModel(between: (embedded: number) => void) {
  const BATCH = 4;
  const stats = { embedded: 0, calls: 0 };
  const embedder: Embedder = {
    model: 'test/batches',
    dim: 2,
    maxTokens: 512,
    isTestModel: true,
    counter: new ApproxTokenCounter(),
    embed: async (texts, options = {}) => {
      stats.calls++;
      const vectors = new Float32Array(texts.length * 2);
      for (let b = 0; b < texts.length; b += BATCH) {
        if (options.signal?.aborted) throw new EmbeddingCancelled();
        const n = Math.min(BATCH, texts.length - b);
        for (let i = b; i < b + n; i++) vectors.set([1, texts[i]!.length], i * 2);
        stats.embedded += n;
        options.onProgress?.(b + n, texts.length);
        await new Promise((resolve) => setTimeout(resolve, 0));
        between(stats.embedded);
      }
      return { vectors, truncated: [] };
    },
  };
  return { embedder, stats };
}

/** Forty sentences in two documents: fewer than a slice (EMBED_SLICE) of any kind. */
const LONG = Array.from({ length: 20 }, (_, i) => `Sentence ${i} of the tea notes is about leaf ${i} and its ${i} drying steps.`).join(' ');
const OTHER = Array.from({ length: 20 }, (_, i) => `Harbour line ${i} says boat ${i} left at ${i} past dawn.`).join(' ');

/** Until the job is no longer running (paused or done), then a few turns more: a stopped loop ends at its next batch boundary. */
async function settled(job: EmbeddingJob): Promise<void> {
  for (let i = 0; i < 5000 && job.running; i++) await new Promise((resolve) => setTimeout(resolve, 0));
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

describe('pausing the embedding job', () => {
  for (const phase of ['sentence', 'semantic'] as const) {
    it(`stops at the next batch boundary (${phase === 'semantic' ? 'while semantic chunks are cut' : 'sentences'}): not one text is embedded after the pause`, async () => {
      let job: EmbeddingJob | null = null;
      let engine: RetrievalEngine | null = null;
      const atPause = { embedded: -1 };
      let start = Infinity;
      const { embedder, stats } = batchedModel((embedded) => {
        // Two batches into the phase, the pause arrives.
        if (atPause.embedded < 0 && embedded >= start + 8) {
          atPause.embedded = embedded;
          job!.setPaused(true, engine!);
        }
      });
      engine = new RetrievalEngine({ embedder });
      engine.addDocuments([documentFromText(LONG, 'tea.txt'), documentFromText(OTHER, 'harbour.txt')]);
      // Every kind before the phase is embedded first, as the job would.
      const before: UnitKind[] = phase === 'semantic' ? UNIT_KINDS.filter((k) => k !== 'semantic') : [];
      for (const k of before) await engine.embedUnits(k);
      start = stats.embedded;
      const finished: string[] = [];
      job = new EmbeddingJob({ progress: () => undefined, finished: async () => void finished.push('finished') });
      job.start(engine);
      await settled(job);
      expect(atPause.embedded).toBe(start + 8);
      expect(stats.embedded).toBe(start + 8);
      expect(job.status(engine)).toMatchObject({ running: false, paused: true });
      // A paused job is not started again by a change to the corpus (start is refused while paused).
      job.start(engine);
      await settled(job);
      expect(stats.embedded).toBe(start + 8);
      // What was made is stored once, at the pause.
      expect(finished).toEqual(['finished']);
    });
  }

  it('resuming embeds what is missing, from the first slice the pause cut short', async () => {
    let job: EmbeddingJob | null = null;
    let engine: RetrievalEngine | null = null;
    let pauseAt = 8;
    const { embedder, stats } = batchedModel((embedded) => {
      if (embedded === pauseAt) job!.setPaused(true, engine!);
    });
    engine = new RetrievalEngine({ embedder });
    engine.addDocuments([documentFromText(LONG, 'tea.txt'), documentFromText(OTHER, 'harbour.txt')]);
    job = new EmbeddingJob({ progress: () => undefined, finished: async () => undefined });
    job.start(engine);
    await settled(job);
    expect(stats.embedded).toBe(8);
    // The slice being embedded is one embed call: cut short, none of its vectors are kept.
    expect(engine.vectorCoverage('sentence')).toEqual({ done: 0, total: 40 });
    pauseAt = -1;
    job.setPaused(false, engine);
    await settled(job);
    expect(job.running).toBe(false);
    const units = UNIT_KINDS.filter((k) => k !== 'semantic').reduce((n, k) => n + engine!.unitCount(k), 0) + engine.unitCount('semantic');
    // 8 before the pause, then every unit once and each sentence once more (with its neighbours) to cut semantic chunks.
    expect(stats.embedded).toBe(8 + units + engine.corpus.sentences.length);
  });
});

describe('a pause stores what was made', () => {
  it('the job says it finished at the pause, with the slices embedded before it in the engine', async () => {
    let job: EmbeddingJob | null = null;
    let engine: RetrievalEngine | null = null;
    // 300 sentences: one whole slice (EMBED_SLICE, 256), then the pause 8 texts into the next.
    const { embedder, stats } = batchedModel((embedded) => {
      if (embedded === 256 + 8) job!.setPaused(true, engine!);
    });
    engine = new RetrievalEngine({ embedder });
    engine.addDocuments([documentFromText(Array.from({ length: 300 }, (_, i) => `Line ${i} names the ${i}th lantern.`).join(' '), 'lanterns.txt')]);
    const seen: { done: number; total: number }[] = [];
    job = new EmbeddingJob({ progress: () => undefined, finished: async () => void seen.push(engine!.vectorCoverage('sentence')) });
    job.start(engine);
    await settled(job);
    expect(stats.embedded).toBe(256 + 8);
    expect(seen).toEqual([{ done: 256, total: 300 }]);
    // Pausing a job that is not running stores nothing more.
    job.setPaused(true, engine);
    expect(seen).toHaveLength(1);
  });
});
