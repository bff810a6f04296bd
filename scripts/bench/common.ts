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
  data: { title: string; paragraphs: { context: string; qas: { question: string }[] }[] }[];
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
