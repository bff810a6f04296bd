import type { RetrievalEngine } from '../engine';
import { spanTargets, type Target } from '../eval/dataset';
import { judged, meanMetrics, scoreQuestion, type JudgedBlock, type Metrics } from '../eval/metrics';
import { analyze, queryLanguage } from '../index/analyzer';
import { l2normalize } from '../index/vector-index';
import { retrievalParams, type RetrievalParams, type RetrieverName, type UnitKind } from '../retrieve/params';
import type { ContextBlock } from '../types';
import type { SqlStrategy } from './manifest';
import { needsAll } from '../questions/needs';
import type { LabelledQuestion } from '../questions/types';

/** Unit kind each SQL strategy retrieves (as the lab's STRATEGY_UNIT). */
export const SQL_STRATEGY_UNIT: Record<SqlStrategy, UnitKind> = { naive: 'chunk', sentence: 'sentence', window: 'sentence', automerge: 'leaf' };

/** A question as another engine gets it: the lab's analysed terms and normalised vector. */
export interface GoldenQuestion {
  id: string;
  question: string;
  /** Language the query was analysed in (queryLanguage: the corpus's, or the detected one in a mixed corpus). */
  language: string;
  /** The query's BM25 terms under the exported analyzer (manifest.json "bm25".analyzer): stemmed when it stems. */
  terms: string[];
  /** The question's embedding as the lab's flat index uses it (L2-normalised float32); null without a model. */
  vector: number[] | null;
  /** Gold answers and targets, when the question comes from an evaluation set. */
  answers: string[];
  targets: Target[];
  /** 'all': found only when every target is in the context (see scoreQuestion); absent: any one. */
  needs?: 'all';
}

export interface GoldenBlock {
  id: string;
  doc: number;
  sentences: [number, number];
  chars: [number, number];
  score: number;
  tokens: number;
  /** FNV-1a of header + NUL + text: the handed-over text must match to the character. */
  textHash: string;
}

export interface GoldenRun {
  retriever: RetrieverName;
  strategy: SqlStrategy;
  /** Per question (in `questions` order): ranked units with scores, and the blocks handed over. */
  results: { units: { id: number; score: number }[]; blocks: GoldenBlock[] }[];
  /** Mean metrics over the questions with targets; null when none has any. */
  metrics: Metrics | null;
}

export interface Golden {
  /** Document ids by document index (metrics judge blocks by document id). */
  docIds: string[];
  /** Document-level sets (no answer spans) are judged on documents, as the lab's evaluation does. */
  byDocument: boolean;
  questions: GoldenQuestion[];
  runs: GoldenRun[];
}

export interface QuestionInput {
  id?: string;
  question: string;
  answers?: string[];
  targets?: Target[];
  needs?: 'all';
}

/** 32-bit FNV-1a over UTF-16 code units, hex: a short fingerprint of a block's text. */
export function textHash(header: string, text: string): string {
  const s = `${header}\u0000${text}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

export function goldenBlock(b: ContextBlock): GoldenBlock {
  return { id: b.id, doc: b.doc, sentences: [b.sentences.start, b.sentences.end], chars: [b.start, b.end], score: b.score, tokens: b.tokens, textHash: textHash(b.header ?? '', b.text) };
}

/** Metrics of blocks for the questions that have targets; null when none has. */
export function runMetrics(questions: GoldenQuestion[], blocks: JudgedBlock[][], byDocument: boolean): Metrics | null {
  const per: Metrics[] = [];
  questions.forEach((q, i) => {
    if (!q.targets.length) return;
    per.push(scoreQuestion({ id: q.id, question: q.question, answers: q.answers, targets: q.targets, ...(q.needs === 'all' ? { needs: q.needs } : {}) }, blocks[i]!, { byDocument }));
  });
  return per.length ? meanMetrics(per) : null;
}

/**
 * The golden run: for each question, each retriever and each SQL strategy, the ranked
 * units and the blocks the lab hands over, and the metrics it measures. Another engine
 * that loads the bundle must reproduce these.
 */
export async function goldenRun(
  engine: RetrievalEngine,
  inputs: QuestionInput[],
  params: RetrievalParams,
  options: { retrievers: RetrieverName[]; strategies: readonly SqlStrategy[] },
): Promise<Golden> {
  const docIds = engine.corpus.docs.map((d) => d.id);
  const languages = engine.corpus.docs.map((d) => d.language);
  const questions: GoldenQuestion[] = [];
  if (engine.embedder && options.retrievers.some((r) => r !== 'bm25')) await engine.embedQueries(inputs.map((q) => q.question));
  for (const [i, q] of inputs.entries()) {
    const language = queryLanguage(q.question, languages);
    const v = engine.embedder ? await engine.queryEmbedding(q.question) : null;
    questions.push({
      id: q.id ?? `q${i + 1}`,
      question: q.question,
      language,
      terms: analyze(q.question, language, engine.structure.lexical.analyzer).filter(Boolean),
      vector: v ? [...l2normalize(Float32Array.from(v))] : null,
      answers: q.answers ?? [],
      targets: q.targets ?? [],
      ...(q.needs === 'all' ? { needs: q.needs } : {}),
    });
  }
  const byDocument = questions.length > 0 && questions.every((q) => q.targets.every((t) => !t.spans));
  const runs: GoldenRun[] = [];
  for (const retriever of options.retrievers) {
    const p = retrievalParams({ ...params, retriever });
    const perStrategy = new Map<SqlStrategy, GoldenRun['results']>(options.strategies.map((s) => [s, []]));
    const judgedBlocks = new Map<SqlStrategy, JudgedBlock[][]>(options.strategies.map((s) => [s, []]));
    for (const q of questions) {
      const results = await engine.search(q.question, options.strategies, p);
      for (const r of results) {
        const s = r.strategy as SqlStrategy;
        const { candidates } = await engine.candidates(q.question, SQL_STRATEGY_UNIT[s], p);
        perStrategy.get(s)!.push({ units: candidates.map((c) => ({ id: c.id, score: c.score })), blocks: r.blocks.map(goldenBlock) });
        judgedBlocks.get(s)!.push(judged(r.blocks, docIds));
      }
    }
    for (const s of options.strategies) {
      runs.push({ retriever, strategy: s, results: perStrategy.get(s)!, metrics: runMetrics(questions, judgedBlocks.get(s)!, byDocument) });
    }
  }
  return { docIds, byDocument, questions, runs };
}

/**
 * The corpus's question set as golden questions: each answerable question with its gold spans
 * in the exported documents (targets by document, the spans' texts as answers), so the bundle
 * carries metrics too. Left out, and counted: unanswerable questions (nothing to find),
 * document-level ones (relevant documents without spans, as from BEIR: the golden run judges
 * spans, and one run cannot mix both), questions whose documents were removed, and spans in
 * documents the corpus no longer holds.
 */
export function labelledGoldenInputs(questions: readonly LabelledQuestion[], docIds: readonly string[]): { inputs: QuestionInput[]; left: { unanswerable: number; documentLevel: number; missing: number } } {
  const have = new Set(docIds);
  const inputs: QuestionInput[] = [];
  const left = { unanswerable: 0, documentLevel: 0, missing: 0 };
  for (const q of questions) {
    if (q.unanswerable) {
      left.unanswerable++;
      continue;
    }
    if (q.answers.length === 0) {
      if (q.documents?.length) left.documentLevel++;
      else left.unanswerable++;
      continue;
    }
    const spans = q.answers.filter((a) => have.has(a.doc));
    const all = needsAll(q);
    // A question that needs every answer cannot lose one of them: it would be found too easily.
    if (q.missingDocs?.length || spans.length === 0 || (all && spans.length < q.answers.length)) {
      left.missing++;
      continue;
    }
    inputs.push({
      id: q.id,
      question: q.question,
      answers: [...new Set(spans.map((s) => s.text))],
      targets: spanTargets(spans, all ? 'all' : undefined),
      ...(all ? { needs: 'all' as const } : {}),
    });
  }
  return { inputs, left };
}
