import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupNode, SHARED_DATA } from '../node/setup';
import { TransformersEmbedder } from './embed/transformers-embedder';
import { RetrievalEngine, SEMANTIC_NEEDS_MODEL, type StrategyResult } from './engine';
import type { EvalQuestion, EvalSet } from './eval/dataset';
import { readSquad } from './eval/squad';
import { STRATEGIES, UNIT_KINDS, type RetrieverName } from './retrieve/params';
import { packSentences } from './structure/packed-chunks';
import { bufferedRanges, neighbourDistances, semanticGroups } from './structure/semantic-chunks';
import type { ContextBlock } from './types';

const SQUAD = `${SHARED_DATA}/squad_en/squad-dev-v1.1.from-explorer.json`;
const RETRIEVERS: RetrieverName[] = ['bm25', 'vector', 'hybrid'];
const BUDGET = 256;
/** What the Contextual chunks column says while no context is written (its default units are naive chunks). */
const NO_CONTEXTS = 'no contexts written for chunks yet: every unit is retrieved by its plain text';

let embedder: TransformersEmbedder;
let squadJson: unknown;
let set: EvalSet;
let engine: RetrievalEngine;

beforeAll(async () => {
  setupNode();
  embedder = await TransformersEmbedder.load({ model: 'rag-lab/test-embedder' });
  squadJson = JSON.parse(readFileSync(SQUAD, 'utf8'));
  set = readSquad(squadJson, { limitDocs: 1 });
  engine = new RetrievalEngine({ embedder });
  engine.addDocuments(set.docs);
  for (const kind of UNIT_KINDS) await engine.embedUnits(kind);
});

/** Does the block hold one of the question's answer spans whole? */
function holdsAnswer(b: ContextBlock, q: EvalQuestion): boolean {
  return q.targets[0]!.spans!.some((s) => b.start <= s.start && s.end <= b.end);
}

/** Share of questions whose answer sentence is among the first 5 sentence hits. */
async function top5Rate(e: RetrievalEngine, questions: EvalQuestion[], retriever: RetrieverName): Promise<number> {
  let hits = 0;
  for (const q of questions) {
    const [r] = await e.search(q.question, ['sentence'], { retriever, topK: 5 });
    if (r!.blocks.slice(0, 5).some((b) => holdsAnswer(b, q))) hits++;
  }
  return hits / questions.length;
}

/** Structural checks every block of every strategy must pass. */
function checkBlocks(e: RetrievalEngine, r: StrategyResult, budget: number | null): void {
  const c = e.corpus;
  expect(r.totalTokens).toBe(r.blocks.reduce((n, b) => n + b.tokens, 0));
  if (budget !== null) expect(r.totalTokens).toBeLessThanOrEqual(budget);
  for (const b of r.blocks) {
    const doc = c.docs[b.doc]!;
    expect(b.text).toBe(doc.text.slice(b.start, b.end));
    expect(b.sentences.start).toBeLessThan(b.sentences.end);
    expect(b.sentences.start).toBeGreaterThanOrEqual(c.docStarts[b.doc]!);
    expect(b.sentences.end).toBeLessThanOrEqual(c.docStarts[b.doc + 1]!);
    expect(b.tokens).toBeGreaterThan(0);
    // Naive chunks (and contextual chunks over them) ignore sentence bounds.
    if (b.provenance.unit !== 'chunk') {
      expect(b.start).toBe(c.sentences[b.sentences.start]!.start);
      expect(b.end).toBe(c.sentences[b.sentences.end - 1]!.end);
      let tokens = 0;
      for (let s = b.sentences.start; s < b.sentences.end; s++) tokens += c.sentences[s]!.tokens;
      expect(b.tokens).toBe(tokens + (b.header ? e.counter.count(b.header) : 0) + (b.context ? e.counter.count(b.context.text) : 0));
    }
  }
  expect(new Set(r.blocks.map((b) => b.id)).size).toBe(r.blocks.length);
}

describe('RetrievalEngine over one SQuAD article (TEST embedder)', () => {
  it('builds sentences, leaves, chunks and vectors for all of them', () => {
    expect(set.docs).toHaveLength(1);
    expect(engine.corpus.sentences.length).toBeGreaterThan(150);
    for (const kind of UNIT_KINDS) {
      const cov = engine.vectorCoverage(kind);
      expect(cov.total).toBe(engine.unitCount(kind));
      expect(cov.done).toBe(cov.total);
    }
    expect(engine.corpus.tokenizer).toBe('rag-lab/test-embedder');
  });

  it('embedUnits again embeds nothing', async () => {
    let calls = 0;
    const res = await engine.embedUnits('sentence', { onEmbedProgress: () => calls++ });
    expect(res.truncated).toEqual([]);
    expect(calls).toBe(0);
  });

  it('every answer span lies inside one sentence', () => {
    const s = engine.corpus.sentences;
    for (const q of set.questions) {
      const inside = s.some((x) => q.targets[0]!.spans!.some((sp) => x.start <= sp.start && sp.end <= x.end));
      expect(inside, q.question).toBe(true);
    }
  });

  // Measured over all 810 questions of the article with the TEST model (bag of random
  // word-piece vectors, no learned meaning): answer sentence in the top 5 for
  // vector 54%, BM25 77%, hybrid 70% (chance: 5 of ~219 sentences ≈ 2%). The first 20
  // questions alone are much harder (vector 20%, BM25 40%): they are about the opening
  // paragraph, whose words ("Super Bowl 50", "NFL") recur all over the article.
  it('vector, BM25 and hybrid retrieval find the answer sentence in the top 5 for most questions', async () => {
    const qs = set.questions;
    expect(qs.length).toBeGreaterThanOrEqual(20);
    const vector = await top5Rate(engine, qs, 'vector');
    const bm25 = await top5Rate(engine, qs, 'bm25');
    const hybrid = await top5Rate(engine, qs, 'hybrid');
    expect(vector).toBeGreaterThanOrEqual(0.5);
    expect(bm25).toBeGreaterThanOrEqual(0.72);
    expect(hybrid).toBeGreaterThanOrEqual(0.65);
  });

  it('vector hits are exactly the brute-force cosine ranking of the sentences', async () => {
    const s = engine.corpus.sentences;
    const { vectors } = await embedder.embed(s.map((x) => x.text));
    const qs = set.questions.filter((_, i) => i % 40 === 0);
    const { vectors: qv } = await embedder.embed(qs.map((q) => q.question), { kind: 'query' });
    const d = embedder.dim;
    for (let qi = 0; qi < qs.length; qi++) {
      const ranked = s
        .map((_, i) => {
          let dot = 0;
          for (let j = 0; j < d; j++) dot += qv[qi * d + j]! * vectors[i * d + j]!;
          return { i, dot };
        })
        .sort((a, b) => b.dot - a.dot || a.i - b.i);
      const [r] = await engine.search(qs[qi]!.question, ['sentence'], { retriever: 'vector', topK: 8 });
      expect(r!.blocks.map((b) => b.sentences.start)).toEqual(ranked.slice(0, 8).map((x) => x.i));
      r!.blocks.forEach((b, k) => expect(b.score).toBeCloseTo(ranked[k]!.dot, 4));
    }
  });

  it('every strategy and retriever stays within the token budget', async () => {
    const qs = set.questions.filter((_, i) => i % 90 === 0);
    for (const q of qs) {
      for (const retriever of RETRIEVERS) {
        const results = await engine.search(q.question, STRATEGIES, { retriever, budgetTokens: BUDGET, topK: 50 });
        expect(results.map((r) => r.strategy)).toEqual([...STRATEGIES]);
        for (const r of results) {
          expect(r.retriever).toBe(retriever);
          expect(r.notes).toEqual(r.strategy === 'contextual' ? [NO_CONTEXTS] : []);
          // Semantic chunks have no size limit (LlamaIndex's have none): at 256 tokens often none fits.
          if (r.strategy !== 'semantic') expect(r.blocks.length, `${r.strategy} ${retriever}`).toBeGreaterThan(0);
          checkBlocks(engine, r, BUDGET);
        }
      }
    }
  });

  it('a smaller budget gives less context', async () => {
    const q = set.questions[5]!.question;
    for (const budget of [16, 64, 128]) {
      const results = await engine.search(q, STRATEGIES, { budgetTokens: budget, topK: 50 });
      for (const r of results) checkBlocks(engine, r, budget);
    }
  });

  it('window blocks contain their hit sentences, never overlap, and say how they were shaped', async () => {
    for (const q of set.questions.filter((_, i) => i % 100 === 0)) {
      const [r] = await engine.search(q.question, ['window'], { budgetTokens: BUDGET, topK: 20 });
      const blocks = r!.blocks;
      expect(blocks.length).toBeGreaterThan(0);
      for (const b of blocks) {
        expect(b.hits.length).toBeGreaterThan(0);
        for (const h of b.hits) {
          expect(h).toBeGreaterThanOrEqual(b.sentences.start);
          expect(h).toBeLessThan(b.sentences.end);
        }
        expect(b.provenance.unit).toBe('sentence');
        expect(b.provenance.window).toMatchObject({ before: 3, after: 3 });
        if (!b.provenance.window!.shrunk) expect(b.sentences.end - b.sentences.start).toBeLessThanOrEqual(7 * b.hits.length);
        if (b.hits.length > 1) expect(b.provenance.hits).toBe(b.hits.length);
      }
      const sorted = [...blocks].sort((a, b) => a.sentences.start - b.sentences.start);
      for (let i = 1; i < sorted.length; i++) expect(sorted[i]!.sentences.start).toBeGreaterThanOrEqual(sorted[i - 1]!.sentences.end);
    }
    // Without a budget an isolated hit gets its full ±3 window.
    const [free] = await engine.search(set.questions[0]!.question, ['window'], { budgetTokens: null, topK: 1 });
    const b = free!.blocks[0]!;
    const hit = b.hits[0]!;
    expect(b.sentences).toEqual({ start: Math.max(0, hit - 3), end: Math.min(engine.corpus.sentences.length, hit + 4) });
    expect(b.provenance.window!.shrunk).toBe(false);
  });

  it('hybrid provenance: ranks from both lists and fused = Σ w/(60 + rank)', async () => {
    let both = 0;
    let single = 0;
    for (const q of set.questions.filter((_, i) => i % 160 === 0)) {
      const [hy] = await engine.search(q.question, ['sentence'], { retriever: 'hybrid', topK: 10 });
      // Hybrid fetches 2k from each list.
      const [bm] = await engine.search(q.question, ['sentence'], { retriever: 'bm25', topK: 20 });
      const [ve] = await engine.search(q.question, ['sentence'], { retriever: 'vector', topK: 20 });
      const bmIds = bm!.blocks.map((b) => b.sentences.start);
      const veIds = ve!.blocks.map((b) => b.sentences.start);
      // The expected fusion, computed by hand: first-seen order breaks ties.
      const fused = new Map<number, number>();
      bmIds.forEach((id, i) => fused.set(id, (fused.get(id) ?? 0) + 0.5 / (60 + i + 1)));
      veIds.forEach((id, i) => fused.set(id, (fused.get(id) ?? 0) + 0.5 / (60 + i + 1)));
      const expected = [...fused].sort((a, b) => b[1] - a[1]).slice(0, 10);
      expect(hy!.blocks.map((b) => b.sentences.start)).toEqual(expected.map((x) => x[0]));
      for (const b of hy!.blocks) {
        const id = b.sentences.start;
        const p = b.provenance;
        expect(Object.keys(p.ranks).sort()).toEqual(['bm25', 'vector']);
        const rb = bmIds.indexOf(id);
        const rv = veIds.indexOf(id);
        expect(p.ranks.bm25).toBe(rb < 0 ? null : rb + 1);
        expect(p.ranks.vector).toBe(rv < 0 ? null : rv + 1);
        if (rb >= 0 && rv >= 0) both++;
        else single++;
        const sum = (p.ranks.bm25 ? 0.5 / (60 + p.ranks.bm25) : 0) + (p.ranks.vector ? 0.5 / (60 + p.ranks.vector) : 0);
        expect(p.fused).toBeCloseTo(sum, 12);
        expect(b.score).toBeCloseTo(sum, 12);
        if (rb >= 0) expect(p.scores.bm25).toBeCloseTo(bm!.blocks[rb]!.score, 9);
        if (rv >= 0) expect(p.scores.vector).toBeCloseTo(ve!.blocks[rv]!.score, 9);
      }
    }
    // Both kinds occur: units found by both retrievers and by only one.
    expect(both).toBeGreaterThan(0);
    expect(single).toBeGreaterThan(0);
  });

  it('RRF weights are honoured; weight 0 drops a list', async () => {
    const q = set.questions[3]!.question;
    const [w] = await engine.search(q, ['sentence'], { retriever: 'hybrid', topK: 10, rrf: { c: 10, weights: { bm25: 1, vector: 0 } } });
    const [bm] = await engine.search(q, ['sentence'], { retriever: 'bm25', topK: 10 });
    expect(w!.blocks.map((b) => b.sentences.start)).toEqual(bm!.blocks.map((b) => b.sentences.start));
    w!.blocks.forEach((b, i) => expect(b.provenance.fused).toBeCloseTo(1 / (10 + i + 1), 12));
  });

  it('naive blocks are fixed-size chunks with chunk provenance', async () => {
    const q = set.questions[0]!;
    const [r] = await engine.search(q.question, ['naive'], { retriever: 'hybrid', topK: 10 });
    expect(r!.blocks).toHaveLength(10);
    for (const b of r!.blocks) {
      expect(b.id).toMatch(/^naive:0:\d+-\d+$/);
      expect(b.provenance.unit).toBe('chunk');
      expect(b.hits).toEqual([]);
      expect(b.tokens).toBeLessThanOrEqual(128);
      expect(b.text).toBe(engine.corpus.docs[0]!.text.slice(b.start, b.end));
      expect(b.provenance.fused).toBeGreaterThan(0);
    }
    // Chunks tile the document without overlap (default overlap 0).
    const chunks = engine.chunks;
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.start).toBeGreaterThanOrEqual(chunks[i - 1]!.end);
    const [withBudget] = await engine.search(q.question, ['naive'], { budgetTokens: BUDGET, topK: 10 });
    checkBlocks(engine, withBudget!, BUDGET);
    expect(withBudget!.blocks.length).toBeGreaterThan(0);
  });

  it('auto-merge blocks cover their retrieved leaves', async () => {
    const [r] = await engine.search(set.questions[10]!.question, ['automerge'], { topK: 30, budgetTokens: 1024 });
    checkBlocks(engine, r!, 1024);
    for (const b of r!.blocks) {
      expect(b.provenance.unit).toBe('leaf');
      for (const h of b.hits) {
        expect(h).toBeGreaterThanOrEqual(b.sentences.start);
        expect(h).toBeLessThan(b.sentences.end);
      }
      if (b.provenance.merged) expect(b.provenance.merged.children).toBeGreaterThan(b.provenance.merged.of / 2);
    }
  });

  it('without vectors for a unit kind, says "BM25 results only"', async () => {
    const e = new RetrievalEngine({ embedder });
    e.addDocuments(set.docs);
    // Semantic chunks exist once found (that embeds buffered sentences, not the chunks).
    await e.buildSemanticChunks();
    const results = await e.search(set.questions[0]!.question, STRATEGIES, { retriever: 'hybrid', budgetTokens: BUDGET });
    for (const r of results) {
      expect(r.notes.join(' ')).toMatch(/no (sentence|leaf|chunk|packed|semantic) vectors yet: BM25 results only/);
      expect(r.blocks.length).toBeGreaterThan(0);
      for (const b of r.blocks) expect(Object.keys(b.provenance.ranks)).toEqual(['bm25']);
    }
  });
});

describe('RetrievalEngine without an embedder', () => {
  it('hybrid falls back to BM25 and says "BM25 results only"', async () => {
    const e = new RetrievalEngine();
    expect(e.embedder).toBeNull();
    expect(e.counter.name).toBe('approx');
    e.addDocuments(set.docs);
    await expect(e.embedUnits('sentence')).rejects.toThrow(/no embedding model/);
    for (const retriever of ['hybrid', 'vector'] as const) {
      const results = await e.search(set.questions[0]!.question, STRATEGIES, { retriever, budgetTokens: BUDGET });
      for (const r of results) {
        if (r.strategy === 'semantic') {
          // No model, no semantic chunks: a clear note and nothing handed over.
          expect(r.notes).toEqual([SEMANTIC_NEEDS_MODEL]);
          expect(r.blocks).toEqual([]);
          continue;
        }
        expect(r.notes).toContain('no embedding model loaded: BM25 results only');
        expect(r.blocks.length).toBeGreaterThan(0);
        checkBlocks(e, r, BUDGET);
        for (const b of r.blocks) {
          expect(Object.keys(b.provenance.ranks)).toEqual(['bm25']);
          expect(b.provenance.fused).toBeUndefined();
        }
      }
    }
    const [bm] = await e.search(set.questions[0]!.question, ['sentence'], { retriever: 'bm25' });
    expect(bm!.notes).toEqual([]);
  });
});

describe('RetrievalEngine lexical model (analyzer and BM25 variant)', () => {
  it('switches only the BM25 indexes, says which scored each block, and switches back', async () => {
    const e = new RetrievalEngine({ structure: { lexical: { analyzer: 'words', bm25: 'bm25plus' } } });
    e.addDocuments([
      { ...set.docs[0]!, id: 'x', text: 'Solar panels convert sunlight. The cost of solar panels has fallen sharply. Batteries store energy.' },
    ]);
    const q = 'panel costing';
    const [before] = await e.search(q, ['sentence'], { retriever: 'bm25' });
    expect(before!.blocks).toEqual([]);
    e.setLexical({ analyzer: 'stem', bm25: 'lucene' });
    expect(e.structure.lexical).toEqual({ analyzer: 'stem', bm25: 'lucene' });
    const [stemmed] = await e.search(q, ['sentence'], { retriever: 'bm25' });
    expect(stemmed!.blocks[0]!.text).toBe('The cost of solar panels has fallen sharply.');
    expect(stemmed!.blocks.every((b) => b.provenance.lexical === 'Lucene BM25 · stem')).toBe(true);
    e.setLexical({ analyzer: 'words', bm25: 'bm25plus' });
    const [again] = await e.search('solar panels', ['sentence'], { retriever: 'bm25' });
    expect(again!.blocks[0]!.provenance.lexical).toBe('BM25+ · words');
    expect(() => e.setLexical({ analyzer: 'porter' as 'stem', bm25: 'lucene' })).toThrow(/unknown analyzer porter/);
  });
});

describe('RetrievalEngine filters', () => {
  let two: RetrievalEngine;
  let twoSet: EvalSet;
  beforeAll(async () => {
    twoSet = readSquad(squadJson, { limitDocs: 2 });
    two = new RetrievalEngine({ embedder });
    two.addDocuments(twoSet.docs);
    for (const kind of ['sentence', 'leaf', 'chunk'] as const) await two.embedUnits(kind);
  });

  it('restricts every strategy and retriever to the chosen documents, before ranking', async () => {
    expect(twoSet.docs.map((d) => d.title)).toEqual(['Super Bowl 50', 'Warsaw']);
    const warsaw = twoSet.docs[1]!.id;
    // A question about the first article, filtered to the second.
    const q = set.questions[0]!.question;
    for (const retriever of RETRIEVERS) {
      const open = await two.search(q, STRATEGIES, { retriever, budgetTokens: BUDGET });
      expect(open.some((r) => r.blocks.some((b) => b.doc === 0))).toBe(true);
      const results = await two.search(q, STRATEGIES, { retriever, budgetTokens: BUDGET, filters: { docs: [warsaw] } });
      for (const r of results) {
        for (const b of r.blocks) expect(b.doc, `${r.strategy} ${retriever}`).toBe(1);
        checkBlocks(two, r, BUDGET);
      }
      if (retriever !== 'bm25') {
        // Vector search ranks within the allowed set: still k results.
        const [s] = await two.search(q, ['sentence'], { retriever, topK: 7, filters: { docs: [warsaw] } });
        expect(s!.blocks).toHaveLength(7);
        expect(s!.blocks.every((b) => b.doc === 1)).toBe(true);
      }
    }
  });

  it('a filter that matches nothing gives no blocks', async () => {
    const results = await two.search('Broncos', STRATEGIES, { filters: { docs: ['no-such-doc'] } });
    for (const r of results) expect(r.blocks).toEqual([]);
  });

  it('windows never cross documents', async () => {
    const first = two.corpus.docStarts[1]!;
    const q = set.questions[set.questions.length - 1]!.question;
    const [r] = await two.search(q, ['window'], { topK: 30 });
    for (const b of r!.blocks) expect(b.sentences.start < first && b.sentences.end > first).toBe(false);
  });
});

describe('RetrievalEngine incremental documents', () => {
  it('a document added later: coverage note, then only the new units are embedded, aligned with their ids', async () => {
    const both = readSquad(squadJson, { limitDocs: 2 });
    const inc = new RetrievalEngine({ embedder });
    inc.addDocuments([both.docs[0]!]);
    for (const kind of UNIT_KINDS) await inc.embedUnits(kind);
    const before = inc.unitCount('sentence');
    inc.addDocuments([both.docs[1]!]);
    const after = inc.unitCount('sentence');
    expect(after).toBeGreaterThan(before);
    const q = 'Who was the first female recipient of the Nobel Prize born in Warsaw?';
    const [partial] = await inc.search(q, ['sentence'], { retriever: 'vector' });
    expect(partial!.notes).toEqual([`vector search covers ${before} of ${after} sentences (embedding continues)`]);
    expect(partial!.blocks.every((b) => b.doc === 0)).toBe(true);

    let embedded = 0;
    await inc.embedUnits('sentence', { onEmbedProgress: (p) => (embedded = p.total) });
    expect(embedded).toBe(after - before);
    for (const kind of ['leaf', 'chunk', 'packed', 'semantic'] as const) await inc.embedUnits(kind);

    // The same vectors as an engine that got both documents at once.
    const once = new RetrievalEngine({ embedder });
    once.addDocuments(both.docs);
    for (const kind of UNIT_KINDS) await once.embedUnits(kind);
    const a = inc.exportVectors();
    const b = once.exportVectors();
    for (const kind of UNIT_KINDS) {
      expect(a[kind]!.length, kind).toBe(b[kind]!.length);
      let worst = 0;
      for (let i = 0; i < a[kind]!.length; i++) worst = Math.max(worst, Math.abs(a[kind]![i]! - b[kind]![i]!));
      expect(worst, kind).toBeLessThan(1e-4);
    }
    for (const strategy of STRATEGIES) {
      const [x] = await inc.search(q, [strategy], { retriever: 'hybrid', budgetTokens: BUDGET });
      const [y] = await once.search(q, [strategy], { retriever: 'hybrid', budgetTokens: BUDGET });
      expect(x!.notes).toEqual(strategy === 'contextual' ? [NO_CONTEXTS] : []);
      expect(x!.blocks.map((bl) => bl.id), strategy).toEqual(y!.blocks.map((bl) => bl.id));
    }
    const [full] = await inc.search(q, ['sentence'], { retriever: 'vector', topK: 5 });
    expect(full!.blocks.some((bl) => bl.doc === 1)).toBe(true);
  });

  it('saved vectors can be imported into a fresh engine without re-embedding', async () => {
    const fresh = new RetrievalEngine({ embedder });
    fresh.addDocuments(set.docs);
    const saved = engine.exportVectors();
    for (const kind of ['sentence', 'leaf', 'chunk', 'packed'] as const) await fresh.importVectors(kind, saved[kind]!);
    // Semantic chunks are found by embedding buffered sentences: vectors alone do not bring them.
    const carried = STRATEGIES.filter((s) => s !== 'semantic');
    const q = set.questions[7]!.question;
    const x = await fresh.search(q, carried, { budgetTokens: BUDGET });
    const y = await engine.search(q, carried, { budgetTokens: BUDGET });
    expect(x.map((r) => r.blocks.map((b) => b.id))).toEqual(y.map((r) => r.blocks.map((b) => b.id)));
    await expect(fresh.importVectors('sentence', saved.sentence!.subarray(0, 128))).rejects.toThrow(/do not match/);
  });
});

describe('RetrievalEngine with contextual headers', () => {
  it('puts the header in block.header and counts it in tokens', async () => {
    const e = new RetrievalEngine({ embedder, structure: { headers: { enabled: true, title: true, section: true, fields: [] } } });
    e.addDocuments(set.docs);
    await e.embedUnits('sentence');
    const header = "Document context: the following excerpt is from a document titled 'Super Bowl 50'.";
    const headerTokens = embedder.counter.count(header);
    expect(headerTokens).toBeGreaterThan(10);
    expect(e.unitText('sentence', 0)).toBe(`${header}\n\n${e.corpus.sentences[0]!.text}`);
    for (const retriever of RETRIEVERS) {
      const results = await e.search(set.questions[1]!.question, ['sentence', 'window', 'naive', 'automerge'], { retriever, budgetTokens: BUDGET });
      for (const r of results) {
        checkBlocks(e, r, BUDGET);
        for (const b of r.blocks) {
          expect(b.header).toBe(header);
          expect(b.text).not.toContain('Document context');
        }
      }
      const [s] = results;
      for (const b of s!.blocks) expect(b.tokens).toBe(e.corpus.sentences[b.sentences.start]!.tokens + headerTokens);
      const [, , naive] = results;
      for (const b of naive!.blocks) expect(b.tokens).toBe(e.chunks.find((c) => c.start === b.start)!.tokens + headerTokens);
    }
    // With headers off, the same engine settings give no header and fewer tokens.
    const [plain] = await engine.search(set.questions[1]!.question, ['sentence'], { retriever: 'bm25', budgetTokens: null, topK: 3 });
    for (const b of plain!.blocks) {
      expect(b.header).toBeUndefined();
      expect(b.tokens).toBe(engine.corpus.sentences[b.sentences.start]!.tokens);
    }
  });
});

describe('RetrievalEngine under concurrent and repeated use', () => {
  it('two embedding runs of the same kind at once embed every unit exactly once', async () => {
    const sets = readSquad(squadJson, { limitDocs: 2 });
    const e = new RetrievalEngine({ embedder });
    e.addDocuments([sets.docs[0]!]);
    await e.embedUnits('sentence');
    e.addDocuments([sets.docs[1]!]);
    await Promise.all([e.embedUnits('sentence'), e.embedUnits('sentence')]);
    expect(e.vectorCoverage('sentence')).toEqual({ done: e.corpus.sentences.length, total: e.corpus.sentences.length });
    const [r] = await e.search(sets.questions.at(-1)!.question, ['sentence'], { retriever: 'vector' });
    expect(r!.blocks.length).toBe(10);
    expect(r!.notes).toEqual([]);
  });

  it('the same document added twice is reported as a duplicate and indexed once', () => {
    const e = new RetrievalEngine();
    const first = e.addDocuments(set.docs);
    const again = e.addDocuments(set.docs);
    expect(first.added).toHaveLength(1);
    expect(again).toEqual({ added: [], duplicates: set.docs });
    expect(e.corpus.docs).toHaveLength(1);
  });

  it('adding documents one by one gives the same units as adding them together', () => {
    const sets = readSquad(squadJson, { limitDocs: 3 });
    const together = new RetrievalEngine();
    together.addDocuments(sets.docs);
    const oneByOne = new RetrievalEngine();
    for (const d of sets.docs) oneByOne.addDocuments([d]);
    const leafRanges = (e: RetrievalEngine) => e.hierarchy.leaves.map((id) => [e.hierarchy.nodes[id]!.start, e.hierarchy.nodes[id]!.end]);
    expect(leafRanges(oneByOne)).toEqual(leafRanges(together));
    expect(oneByOne.chunks.map((c) => [c.doc, c.start, c.end])).toEqual(together.chunks.map((c) => [c.doc, c.start, c.end]));
    expect(oneByOne.chunks.map((c) => c.id)).toEqual(together.chunks.map((_, i) => i));
  });

  it('rejects invalid retrieval parameters with the field name', async () => {
    const e = new RetrievalEngine();
    e.addDocuments(set.docs);
    const q = set.questions[0]!.question;
    await expect(e.search(q, ['window'], { window: { before: Number.NaN, after: 1, bySection: false } })).rejects.toThrow(/window\.before must be a whole number/);
    await expect(e.search(q, ['window'], { budgetTokens: Number.NaN })).rejects.toThrow(/budgetTokens/);
    await expect(e.search(q, ['window'], { topK: 1.5 })).rejects.toThrow(/topK/);
    await expect(e.search(q, ['automerge'], { merge: { threshold: 2 } })).rejects.toThrow(/merge\.threshold/);
  });

  it('a window far larger than the document is clipped, not iterated', async () => {
    const e = new RetrievalEngine();
    e.addDocuments(set.docs);
    const [r] = await e.search(set.questions[0]!.question, ['window'], { retriever: 'bm25', window: { before: 1e7, after: 1e7, bySection: false }, budgetTokens: 256 });
    expect(r!.totalTokens).toBeLessThanOrEqual(256);
    expect(r!.blocks[0]!.provenance.window!.shrunk).toBe(true);
  });

  it('topK 0 retrieves nothing', async () => {
    const e = new RetrievalEngine();
    e.addDocuments(set.docs);
    const [r] = await e.search(set.questions[0]!.question, ['sentence'], { retriever: 'bm25', topK: 0 });
    expect(r!.blocks).toEqual([]);
  });
});

describe('RetrievalEngine variants and removal', () => {
  it('switching headers keeps each variant’s vectors; switching back embeds nothing', async () => {
    const e = new RetrievalEngine({ embedder });
    e.addDocuments(set.docs);
    await e.embedUnits('sentence');
    const plain = e.vectorCoverage('sentence');
    e.setHeaders({ enabled: true, title: true, section: true, fields: [] });
    expect(e.vectorCoverage('sentence').done).toBe(0);
    await e.embedUnits('sentence', { onEmbedProgress: () => undefined });
    const [withHeaders] = await e.search(set.questions[0]!.question, ['sentence'], { retriever: 'vector', topK: 3 });
    expect(withHeaders!.blocks[0]!.header).toContain(`titled '${set.docs[0]!.title}'`);
    let calls = 0;
    e.setHeaders({ enabled: false, title: true, section: true, fields: [] });
    await e.embedUnits('sentence', { onEmbedProgress: () => calls++ });
    expect(calls).toBe(0);
    expect(e.vectorCoverage('sentence')).toEqual(plain);
  });

  it('removing a document keeps every other vector and gives the same results as never adding it', async () => {
    const sets = readSquad(squadJson, { limitDocs: 3 });
    const all = new RetrievalEngine({ embedder });
    all.addDocuments(sets.docs);
    for (const k of UNIT_KINDS) await all.embedUnits(k);
    const without = await all.withoutDocuments([sets.docs[1]!.id]);
    // The kept documents keep their semantic chunks: nothing to embed again.
    expect(without.semanticCoverage()).toEqual({ done: 2, total: 2 });
    const fresh = new RetrievalEngine({ embedder });
    fresh.addDocuments([sets.docs[0]!, sets.docs[2]!]);
    for (const k of UNIT_KINDS) await fresh.embedUnits(k);
    for (const k of UNIT_KINDS) expect(without.vectorCoverage(k), k).toEqual({ done: fresh.unitCount(k), total: fresh.unitCount(k) });
    const q = sets.questions.find((x) => x.targets[0]!.doc === sets.docs[2]!.id)!.question;
    const a = await without.search(q, STRATEGIES, { retriever: 'hybrid', budgetTokens: 256 });
    const b = await fresh.search(q, STRATEGIES, { retriever: 'hybrid', budgetTokens: 256 });
    expect(a.map((r) => r.blocks.map((x) => [x.id, x.score.toFixed(6)]))).toEqual(b.map((r) => r.blocks.map((x) => [x.id, x.score.toFixed(6)])));
    expect(all.corpus.docs).toHaveLength(3); // the original engine is untouched
  });
});

describe('RetrievalEngine.enclosingNode', () => {
  it('finds the smallest chunk-tree node strictly around a range, climbing from its leaf', () => {
    const e = new RetrievalEngine({ structure: { chunkLevels: [512, 128, 32] } });
    e.addDocuments(set.docs);
    const { nodes, leaves } = e.hierarchy;
    const leaf = nodes[leaves[5]!]!;
    const around = e.enclosingNode(leaf.start, leaf.end)!;
    expect(around.start).toBeLessThanOrEqual(leaf.start);
    expect(around.end).toBeGreaterThanOrEqual(leaf.end);
    expect(around.end - around.start).toBeGreaterThan(leaf.end - leaf.start);
    // It is the leaf's nearest ancestor that is larger than the leaf.
    let p = nodes[leaf.parent!]!;
    while (p.end - p.start === leaf.end - leaf.start) p = nodes[p.parent!]!;
    expect(around.id).toBe(p.id);
    // A single sentence inside that leaf gets the leaf itself when the leaf is larger.
    if (leaf.end - leaf.start > 1) expect(e.enclosingNode(leaf.start, leaf.start + 1)!.id).toBe(leaf.id);
    // The whole top-level node has nothing around it.
    const top = nodes.find((n) => n.parent === null)!;
    expect(e.enclosingNode(top.start, top.end)).toBeNull();
  });
});

describe('adaptive windows and relevant segments in the engine', () => {
  it('RSE hands over segments within the budget, inside one document each, with their value', async () => {
    const sets = readSquad(squadJson, { limitDocs: 2 });
    const e = new RetrievalEngine({ embedder });
    e.addDocuments(sets.docs);
    await e.embedUnits('leaf');
    for (const q of sets.questions.slice(0, 15)) {
      const [r] = await e.search(q.question, ['rse'], { retriever: 'hybrid', topK: 30, budgetTokens: 512 });
      expect(r!.totalTokens).toBeLessThanOrEqual(512);
      for (const b of r!.blocks) {
        expect(b.provenance.segment!.value).toBeGreaterThanOrEqual(0.5);
        expect(b.provenance.segment!.retrieved).toBeGreaterThanOrEqual(1);
        expect(b.provenance.segment!.units).toBeLessThanOrEqual(15);
        expect(e.corpus.sentences[b.sentences.end - 1]!.doc).toBe(b.doc);
        expect(b.hits.length).toBeGreaterThan(0);
      }
      const ranges = r!.blocks.map((b) => [b.sentences.start, b.sentences.end]).sort((a, b) => a[0]! - b[0]!);
      for (let i = 1; i < ranges.length; i++) expect(ranges[i]![0]!).toBeGreaterThanOrEqual(ranges[i - 1]![1]!);
    }
  });

  it('adaptive windows use vector similarity when vectors exist, word overlap otherwise, and say why they stopped', async () => {
    const q = set.questions[3]!.question;
    const [withVectors] = await engine.search(q, ['adaptive'], { retriever: 'vector', topK: 5, budgetTokens: 256, adaptive: { threshold: 0.2, maxBefore: 4, maxAfter: 4, policy: 'query' } });
    expect(withVectors!.blocks[0]!.provenance.adaptive!.relevance).toBe('vector');
    const bm25Only = new RetrievalEngine();
    bm25Only.addDocuments(set.docs);
    const [withWords] = await bm25Only.search(q, ['adaptive'], { retriever: 'bm25', topK: 5, budgetTokens: 256 });
    for (const b of withWords!.blocks) {
      const a = b.provenance.adaptive!;
      expect(a.relevance).toBe('words');
      expect(['threshold', 'edge', 'budget', 'max']).toContain(a.stopped.before);
      expect(['threshold', 'edge', 'budget', 'max']).toContain(a.stopped.after);
      expect(a.before).toBeLessThanOrEqual(5);
      expect(a.after).toBeLessThanOrEqual(5);
    }
    expect(withWords!.totalTokens).toBeLessThanOrEqual(256);
  });
});

describe('RetrievalEngine.blockCoherence', () => {
  it('is the mean cosine with the query and among the sentences, and falls as unrelated sentences join', async () => {
    const q = set.questions[0]!.question;
    await engine.search(q, ['sentence'], { retriever: 'vector', topK: 1 });
    const [r] = await engine.search(q, ['sentence'], { retriever: 'vector', topK: 1 });
    const hit = r!.blocks[0]!.sentences.start;
    const alone = engine.blockCoherence(hit, hit + 1, q)!;
    expect(alone.toQuery).toBeCloseTo(r!.blocks[0]!.score, 5);
    expect(alone.internal).toBeNull();
    const wide = engine.blockCoherence(Math.max(0, hit - 10), hit + 10, q)!;
    expect(wide.toQuery).toBeLessThan(alone.toQuery);
    expect(wide.internal).toBeGreaterThan(-1);
    expect(wide.internal).toBeLessThan(1);
    expect(new RetrievalEngine().blockCoherence(0, 1, q)).toBeNull();
  });
});

describe('sentence-packed and semantic chunks in the engine', () => {
  /** Units of a kind: in document order, each a run of whole sentences inside one document. */
  function checkRuns(e: RetrievalEngine, kind: 'packed' | 'semantic'): { doc: number; start: number; end: number }[] {
    const spans = Array.from({ length: e.unitCount(kind) }, (_, id) => e.unitSpan(kind, id));
    spans.forEach((u, id) => {
      expect(u.start).toBeLessThan(u.end);
      expect(u.start).toBeGreaterThanOrEqual(e.corpus.docStarts[u.doc]!);
      expect(u.end).toBeLessThanOrEqual(e.corpus.docStarts[u.doc + 1]!);
      expect(e.unitText(kind, id)).toBe(e.corpus.docs[u.doc]!.text.slice(e.corpus.sentences[u.start]!.start, e.corpus.sentences[u.end - 1]!.end));
      if (id > 0) {
        const prev = spans[id - 1]!;
        expect(u.doc > prev.doc || (u.doc === prev.doc && u.start >= prev.start && u.end > prev.end)).toBe(true);
      }
    });
    return spans;
  }

  /** Blocks made of whole sentences: the text is the span from the first sentence to the last, and tokens are theirs. */
  function checkSentenceBlocks(e: RetrievalEngine, r: StrategyResult, kind: 'packed' | 'semantic', budget: number): void {
    checkBlocks(e, r, budget);
    const s = e.corpus.sentences;
    for (const b of r.blocks) {
      expect(b.text).toBe(e.corpus.docs[b.doc]!.text.slice(s[b.sentences.start]!.start, s[b.sentences.end - 1]!.end));
      expect(b.id).toBe(`${kind}:${b.doc}:${b.sentences.start}-${b.sentences.end}`);
      expect(b.provenance.unit).toBe(kind);
      expect(b.hits).toEqual([]);
    }
  }

  it('packed chunks are LlamaIndex’s packing of each document’s sentence token counts, in document order', () => {
    const two = readSquad(squadJson, { limitDocs: 2 });
    const e = new RetrievalEngine({ structure: { packed: { size: 100, overlap: 30 } } });
    e.addDocuments(two.docs);
    const spans = checkRuns(e, 'packed');
    const c = e.corpus;
    const expected = c.docs.flatMap((_, d) => {
      const first = c.docStarts[d]!;
      const tokens = c.sentences.slice(first, c.docStarts[d + 1]).map((x) => x.tokens);
      return packSentences(tokens, { size: 100, overlap: 30 }).map((r) => ({ doc: d, start: first + r.start, end: first + r.end }));
    });
    expect(spans.map(({ doc, start, end }) => ({ doc, start, end }))).toEqual(expected);
    // Overlap happens (whole sentences repeated), and no chunk crosses a document.
    expect(spans.some((u, i) => i > 0 && spans[i - 1]!.doc === u.doc && u.start < spans[i - 1]!.end)).toBe(true);
    expect(e.unitCount('packed')).toBe(expected.length);
    // Documents added already split get the same packed chunks, not split again.
    const adopted = new RetrievalEngine({ structure: { packed: { size: 100, overlap: 30 } } });
    adopted.addSplitDocuments(e.splitDocuments());
    expect(checkRuns(adopted, 'packed')).toEqual(spans);
  });

  it('BM25 without a model: packed blocks within the budget; the semantic column says it needs a model', async () => {
    const e = new RetrievalEngine();
    e.addDocuments(set.docs);
    expect(e.unitCount('semantic')).toBe(0);
    await expect(e.buildSemanticChunks()).rejects.toThrow(SEMANTIC_NEEDS_MODEL);
    for (const q of set.questions.slice(0, 5)) {
      const [packed, semantic] = await e.search(q.question, ['packed', 'semantic'], { retriever: 'bm25', budgetTokens: BUDGET, topK: 50 });
      expect(packed!.blocks.length).toBeGreaterThan(0);
      expect(packed!.notes).toEqual([]);
      checkSentenceBlocks(e, packed!, 'packed', BUDGET);
      expect(semantic!.blocks).toEqual([]);
      expect(semantic!.notes).toEqual([SEMANTIC_NEEDS_MODEL]);
    }
  });

  it('semantic chunks follow LlamaIndex’s rule on the buffered sentences’ embeddings, and both columns hand over whole sentences (TEST model)', async () => {
    // The shared engine found and embedded them in beforeAll.
    const spans = checkRuns(engine, 'semantic');
    const c = engine.corpus;
    // Recomputed here: each sentence with one neighbour each side, embedded; 1 − cosine; 95th percentile.
    const n = c.docStarts[1]! - c.docStarts[0]!;
    const texts = bufferedRanges(n, 1).map(([a, b]) => c.docs[0]!.text.slice(c.sentences[a]!.start, c.sentences[b - 1]!.end));
    const { vectors } = await embedder.embed(texts, { kind: 'passage' });
    const expected = semanticGroups(n, neighbourDistances(vectors, embedder.dim, n), 95);
    expect(spans.map(({ start, end }) => ({ start, end }))).toEqual(expected);
    // About 5 % of the gaps are breaks: more than one chunk, far fewer than sentences.
    expect(expected.length).toBeGreaterThan(1);
    expect(expected.length).toBeLessThan(n / 5);
    expect(engine.semanticCoverage()).toEqual({ done: 1, total: 1 });
    for (const retriever of RETRIEVERS) {
      for (const q of set.questions.slice(0, 5)) {
        const [packed, semantic] = await engine.search(q.question, ['packed', 'semantic'], { retriever, budgetTokens: 512, topK: 50 });
        expect(packed!.notes).toEqual([]);
        expect(semantic!.notes).toEqual([]);
        expect(packed!.blocks.length).toBeGreaterThan(0);
        checkSentenceBlocks(engine, packed!, 'packed', 512);
        checkSentenceBlocks(engine, semantic!, 'semantic', 512);
      }
    }
  });

  it('semantic chunks: built in document order, a note while some are missing, kept through split documents', async () => {
    const two = readSquad(squadJson, { limitDocs: 2 });
    const e = new RetrievalEngine({ embedder, structure: { semantic: { buffer: 0, percentile: 90 } } });
    e.addDocuments([two.docs[0]!]);
    const [before] = await e.search('Super Bowl', ['semantic'], { retriever: 'bm25' });
    expect(before!.notes).toEqual(['semantic chunks are not built yet: each sentence is embedded with its neighbours first (embedding continues)']);
    expect(before!.blocks).toEqual([]);
    await e.buildSemanticChunks();
    const firstDoc = e.unitCount('semantic');
    e.addDocuments([two.docs[1]!]);
    const [partial] = await e.search('Super Bowl', ['semantic'], { retriever: 'bm25' });
    expect(partial!.notes).toEqual(['semantic chunks cover 1 of 2 documents (embedding continues)']);
    expect(partial!.blocks.length).toBeGreaterThan(0);
    const totals: number[] = [];
    await e.embedUnits('semantic', { onEmbedProgress: (p) => totals.push(p.total) });
    // First the second document's sentences (the first has its chunks), then every chunk's vector.
    expect(totals[0]).toBe(e.corpus.docStarts[2]! - e.corpus.docStarts[1]!);
    expect(totals.at(-1)).toBe(e.unitCount('semantic'));
    expect(e.vectorCoverage('semantic')).toEqual({ done: e.unitCount('semantic'), total: e.unitCount('semantic') });
    const spans = checkRuns(e, 'semantic');
    expect(spans.slice(0, firstDoc).every((u) => u.doc === 0)).toBe(true);
    expect(spans.slice(firstDoc).every((u) => u.doc === 1)).toBe(true);
    // Buffer 0, percentile 90: the same chunks as one build over both documents.
    const once = new RetrievalEngine({ embedder, structure: { semantic: { buffer: 0, percentile: 90 } } });
    once.addDocuments(two.docs);
    await once.buildSemanticChunks();
    expect(checkRuns(once, 'semantic')).toEqual(spans);
    // Split documents carry them: an engine that adopts them finds nothing again.
    const adopted = new RetrievalEngine({ embedder, structure: { semantic: { buffer: 0, percentile: 90 } } });
    adopted.addSplitDocuments(e.splitDocuments());
    expect(adopted.semanticCoverage()).toEqual({ done: 2, total: 2 });
    expect(checkRuns(adopted, 'semantic')).toEqual(spans);
  });

  it('rejects invalid packed and semantic parameters with the field name', () => {
    expect(() => new RetrievalEngine({ structure: { packed: { size: 64, overlap: 64 } } })).toThrow(/^packed\.overlap/);
    expect(() => new RetrievalEngine({ structure: { packed: { size: 0, overlap: 0 } } })).toThrow(RangeError);
    expect(() => new RetrievalEngine({ structure: { semantic: { buffer: 1, percentile: 120 } } })).toThrow(/^semantic\.percentile/);
    expect(() => new RetrievalEngine({ structure: { semantic: { buffer: -1, percentile: 95 } } })).toThrow(/^semantic\.buffer/);
  });
});
