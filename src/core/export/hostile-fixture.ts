/**
 * For the hostile-input tests and the fuzz harness: a small corpus with vectors from a
 * deterministic hashing embedder (test only: 16 dimensions of word hashes, no meaning), its
 * bundle, and helpers that rewrite one table of a bundle (and the manifest's checksums with
 * it, so the table itself is what an import has to judge).
 */
import type { Embedder } from '../embed/embedder';
import { RetrievalEngine } from '../engine';
import type { Document } from '../types';
import { ApproxTokenCounter } from '../segment/tokens';
import { exportBundle, type ExportResult } from './bundle';
import { MANIFEST, parquetPath, type BundleFile, type Table, type TableName } from './format';
import { sha256 } from './manifest';
import { readParquet, writeParquet } from './parquet';
import { BUNDLE_KINDS } from './tables';

const DIM = 16;

/** Word hashes into 16 buckets, L2-normalised: texts sharing words get close vectors. */
export function hashEmbedder(): Embedder {
  return {
    model: 'test/hash-embedder',
    dim: DIM,
    maxTokens: 512,
    isTestModel: true,
    counter: new ApproxTokenCounter(),
    async embed(texts) {
      const out = new Float32Array(texts.length * DIM);
      texts.forEach((t, i) => {
        for (const w of t.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
          if (!w) continue;
          let h = 2166136261;
          for (let j = 0; j < w.length; j++) h = Math.imul(h ^ w.charCodeAt(j), 16777619);
          out[i * DIM + ((h >>> 0) % DIM)]! += 1;
        }
        let n = 0;
        for (let j = 0; j < DIM; j++) n += out[i * DIM + j]! ** 2;
        // A text without words gets a fixed unit vector (cosine needs a non-zero one).
        if (n === 0) out[i * DIM] = 1;
        else for (let j = 0; j < DIM; j++) out[i * DIM + j]! /= Math.sqrt(n);
      });
      return { vectors: out, truncated: [] };
    },
  };
}

/** An engine over the documents with every bundle kind embedded. */
export async function embeddedEngine(docs: Document[], embedder: Embedder = hashEmbedder()): Promise<RetrievalEngine> {
  const engine = new RetrievalEngine({ embedder });
  engine.addDocuments(docs);
  for (const kind of BUNDLE_KINDS) await engine.embedUnits(kind);
  return engine;
}

export async function bundleOf(engine: RetrievalEngine, questions: string[] = []): Promise<ExportResult> {
  return exportBundle(engine, { strategy: 'window', params: { retriever: 'hybrid' }, questions: questions.map((question, i) => ({ id: `q${i + 1}`, question })), labVersion: 'test' });
}

export const manifestJson = (files: BundleFile[]) => JSON.parse(new TextDecoder().decode(files.find((f) => f.name === MANIFEST)!.bytes));

/** The bundle with its manifest replaced by `edit`'s result. */
export function withManifest(files: BundleFile[], edit: (m: Record<string, any>) => unknown): BundleFile[] {
  const m = manifestJson(files);
  const next = edit(m) ?? m;
  return files.map((f) => (f.name === MANIFEST ? { name: MANIFEST, bytes: new TextEncoder().encode(JSON.stringify(next)) } : f));
}

/** The bundle with one file's bytes replaced, and the manifest's size and checksum of it updated. */
export async function withFile(files: BundleFile[], name: string, bytes: Uint8Array): Promise<BundleFile[]> {
  const digest = await sha256(bytes);
  const replaced = files.map((f) => (f.name === name ? { name, bytes } : f));
  return withManifest(replaced, (m) => {
    m.files = m.files.map((f: { name: string }) => (f.name === name ? { name, bytes: bytes.length, sha256: digest } : f));
  });
}

/** The bundle with one Parquet table rewritten by `edit` (a consistent change: checksums follow). */
export async function withTable(files: BundleFile[], name: TableName, edit: (t: Table) => Table): Promise<BundleFile[]> {
  const path = parquetPath(name);
  const t = await readParquet(name, path, files.find((f) => f.name === path)!.bytes);
  const next = edit(t);
  const out = await withFile(files, path, writeParquet(next));
  return withManifest(out, (m) => {
    if (m.tables?.[name]) m.tables[name].rows = next.rows;
  });
}

/** A table with its rows in another order (`order[i]` = old row of new row i). */
export function reordered(t: Table, order: number[]): Table {
  return { ...t, rows: order.length, columns: Object.fromEntries(Object.entries(t.columns).map(([n, c]) => [n, order.map((i) => c[i])])) };
}

/** Rows in a seeded shuffled order (mulberry32): the same order on every run. */
export function shuffledOrder(rows: number, seed = 7): number[] {
  let a = seed >>> 0;
  const rand = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const order = Array.from({ length: rows }, (_, i) => i);
  for (let i = rows - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}
