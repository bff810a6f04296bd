/**
 * Shared pieces of `npm run bench` (scripts/bench/run.ts): percentiles, the SQuAD text the
 * corpora are built from, a random-vector embedder for Node, the column list of the app.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Embedder, EmbedOptions, EmbedResult } from '../../src/core/embed/embedder';
import type { TokenCounter } from '../../src/core/segment/tokens';
import { TopK } from '../../src/core/index/top-k';
import { mulberry32 } from '../../src/core/util/random';
import { PROJECT_ROOT, SHARED_DATA } from '../../src/node/paths';

export { PROJECT_ROOT, SHARED_DATA };

export function percentile(xs: number[], p: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
}

export const round = (x: number, d = 2): number => (Number.isFinite(x) ? Number(x.toFixed(d)) : x);

/** The MiniLM-shaped stand-in when present, else the generated test model. */
export function pickModel(): { id: string; dir: string; dtype: 'q8' | 'fp32'; onnx: string; label: string; dim: number } {
  const standIn = resolve(PROJECT_ROOT, '../shared/models/stand-ins/minilm-l6-shape-random');
  if (existsSync(join(standIn, 'onnx/model_quantized.onnx')) && existsSync(join(standIn, 'tokenizer.json'))) {
    return { id: 'rag-lab/minilm-stand-in', dir: standIn, dtype: 'q8', onnx: 'onnx/model_quantized.onnx', label: 'MiniLM-L6 stand-in (real architecture, random weights, q8) from ../shared/models/stand-ins/minilm-l6-shape-random', dim: 384 };
  }
  const test = resolve(PROJECT_ROOT, 'public/models/rag-lab/test-embedder');
  if (!existsSync(join(test, 'config.json'))) throw new Error('no model: run npm run models:test (the stand-in in ../shared/models/stand-ins is missing too)');
  const cfg = JSON.parse(readFileSync(join(test, 'config.json'), 'utf8')) as { hidden_size?: number };
  return { id: 'rag-lab/test-embedder', dir: test, dtype: 'fp32', onnx: 'onnx/model.onnx', label: 'generated TEST embedder (public/models/rag-lab/test-embedder, fp32) — the MiniLM stand-in was not found', dim: cfg.hidden_size ?? 128 };
}

interface SquadFile {
  data: { title: string; paragraphs: { context: string; qas: { question: string; answers?: { text: string }[] }[] }[] }[];
}

let squadCache: SquadFile | null = null;
function squad(): SquadFile {
  squadCache ??= JSON.parse(readFileSync(join(SHARED_DATA, 'squad_en/squad-dev-v1.1.from-explorer.json'), 'utf8')) as SquadFile;
  return squadCache;
}

/** SQuAD dev articles as compact {title, paragraphs} (the parsed JSON can then be dropped). */
export function squadArticles(): { title: string; paragraphs: string[] }[] {
  return squad().data.map((a) => ({ title: a.title.replace(/_/g, ' '), paragraphs: a.paragraphs.map((p) => p.context) }));
}

export function squadQuestions(): string[] {
  return squad().data.flatMap((a) => a.paragraphs.flatMap((p) => p.qas.map((q) => q.question)));
}

/** The gold answer texts of each of squadQuestions(), in the same order. */
export function squadAnswers(): string[][] {
  return squad().data.flatMap((a) => a.paragraphs.flatMap((p) => p.qas.map((q) => (q.answers ?? []).map((x) => x.text))));
}

/**
 * Copy `rep` of an article as Markdown: paragraphs rotated by `rep` and a numbered title, so
 * every copy is a distinct document (another content id) with the same kind of text.
 */
export function articleCopy(a: { title: string; paragraphs: string[] }, rep: number): string {
  const n = a.paragraphs.length;
  const order = a.paragraphs.map((_, i) => a.paragraphs[(i + rep) % n]!);
  return `# ${a.title}${rep ? ` (copy ${rep})` : ''}\n\n${order.join('\n\n')}\n`;
}

/** A long plain-text document of about `sentences` sentences from SQuAD contexts. */
export function longSquadText(sentences: number): string {
  const parts: string[] = [];
  let approx = 0;
  for (const a of squadArticles()) {
    for (const p of a.paragraphs) {
      parts.push(p);
      approx += (p.match(/[.!?](\s|$)/g) ?? []).length;
      if (approx >= sentences) return parts.join('\n\n');
    }
  }
  return parts.join('\n\n');
}

function randomUnit(dim: number, seed: number): Float32Array {
  const r = mulberry32(seed);
  const v = new Float32Array(dim);
  let n = 0;
  for (let i = 0; i < dim; i++) n += (v[i] = r() * 2 - 1) ** 2;
  n = Math.sqrt(n);
  for (let i = 0; i < dim; i++) v[i]! /= n;
  return v;
}

export function randomUnits(count: number, dim: number, seed: number): Float32Array {
  const r = mulberry32(seed);
  const v = new Float32Array(count * dim);
  for (let i = 0; i < v.length; i++) v[i] = r() * 2 - 1;
  for (let row = 0; row < count; row++) {
    const x = v.subarray(row * dim, (row + 1) * dim);
    let n = 0;
    for (let i = 0; i < dim; i++) n += x[i]! * x[i]!;
    n = Math.sqrt(n);
    for (let i = 0; i < dim; i++) x[i]! /= n;
  }
  return v;
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * An Embedder whose vectors are random unit vectors (seeded by the text): corpus vectors are
 * imported with engine.importVectors, and queries get a random vector without a model call,
 * so query timings are retrieval only (the model's query embedding is not in them).
 */
export class RandomEmbedder implements Embedder {
  readonly isTestModel = true;
  readonly maxTokens = 512;
  constructor(
    readonly counter: TokenCounter,
    readonly dim = 384,
    readonly model = 'bench/random-unit-vectors',
  ) {}
  async embed(texts: string[], _options?: EmbedOptions): Promise<EmbedResult> {
    const vectors = new Float32Array(texts.length * this.dim);
    texts.forEach((t, i) => vectors.set(randomUnit(this.dim, hash(t)), i * this.dim));
    return { vectors, truncated: [] };
  }
}

export { columnsFor } from '../../src/state/columns';

/** A bare exact scan: dot products over one Float32Array and the core's top-k heap. */
export function bareScan(data: Float32Array, dim: number, q: Float32Array, k: number): number[] {
  const n = data.length / dim;
  const top = new TopK(Math.min(k, n));
  for (let i = 0; i < n; i++) {
    const off = i * dim;
    let s = 0;
    for (let j = 0; j < dim; j++) s += q[j]! * data[off + j]!;
    if (s >= top.threshold) top.push(i, s);
  }
  return top.result().map((h) => h.id);
}

/**
 * Distinct real sentences: SQuAD dev v1.1 contexts and SciFact abstracts (title + text) split
 * at sentence ends, duplicates and fragments under 20 characters dropped; and real questions
 * (SQuAD questions, SciFact queries). The scale bench and the ANN tests embed these.
 */
export function realSentences(): { sentences: string[]; questions: string[] } {
  const seen = new Set<string>();
  const sentences: string[] = [];
  const push = (text: string) => {
    for (const s of text.split(/(?<=[.!?])\s+/)) {
      const t = s.trim();
      if (t.length >= 20 && !seen.has(t)) seen.add(t), sentences.push(t);
    }
  };
  for (const a of squadArticles()) for (const p of a.paragraphs) push(p);
  const scifact = readFileSync(join(SHARED_DATA, 'scifact_beir/corpus.jsonl'), 'utf8').split('\n').filter(Boolean);
  for (const line of scifact) {
    const d = JSON.parse(line) as { title: string; text: string };
    push(`${d.title}. ${d.text}`);
  }
  const queries = readFileSync(join(SHARED_DATA, 'scifact_beir/queries.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { text: string }).text);
  return { sentences, questions: [...squadQuestions(), ...queries] };
}

/**
 * Test-model vectors (public/models/rag-lab/test-embedder, 128 dims: a seeded bag of word
 * pieces, so similar words give similar vectors) of realSentences(), cached under
 * node_modules/.cache/rag-lab-bench: embedding ~60k sentences takes a minute or two once.
 */
export async function realSentenceVectors(): Promise<{ dim: number; count: number; vectors: Float32Array; questions: Float32Array; questionCount: number }> {
  const cache = resolve(PROJECT_ROOT, 'node_modules/.cache/rag-lab-bench');
  const file = join(cache, 'real-sentences.test-embedder.f32');
  const { sentences, questions } = realSentences();
  const { mkdirSync, writeFileSync } = await import('node:fs');
  if (!existsSync(file)) {
    const { setupNode } = await import('../../src/node/setup');
    const { TransformersEmbedder } = await import('../../src/core/embed/transformers-embedder');
    setupNode();
    const embedder = await TransformersEmbedder.load({ model: 'rag-lab/test-embedder', dtype: 'fp32' });
    const s = (await embedder.embed(sentences, { batchSize: 64 })).vectors;
    const q = (await embedder.embed(questions, { kind: 'query', batchSize: 64 })).vectors;
    const all = new Float32Array(s.length + q.length);
    all.set(s);
    all.set(q, s.length);
    mkdirSync(cache, { recursive: true });
    writeFileSync(file, new Uint8Array(all.buffer));
  }
  const buf = readFileSync(file);
  const all = new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
  const dim = all.length / (sentences.length + questions.length);
  if (!Number.isInteger(dim)) throw new Error(`${file} does not match the sentences; delete it`);
  return { dim, count: sentences.length, vectors: all.subarray(0, sentences.length * dim), questions: all.subarray(sentences.length * dim), questionCount: questions.length };
}
