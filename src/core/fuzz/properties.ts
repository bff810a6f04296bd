/**
 * The properties the fuzz harness checks (fuzz.test.ts with few seeded cases in `npm test`,
 * scripts/fuzz.ts with many for a stated time). Each resolves when the property holds and
 * throws, saying what broke, when it does not:
 *  - text: whatever the text, a document is refused in one LoaderError or loads clean; its
 *    bundle imports to the same answers and verifies in Postgres (PGlite) with the same ones;
 *  - readers: a SQuAD/BEIR/JSONL/CSV input is read (every text clean) or refused in one
 *    DatasetError, never another exception;
 *  - bundles: a mutated bundle is imported or refused in one BundleError; a re-sorted one gives
 *    the same answers; the corpus it is imported into never changes.
 */
import { LoaderError } from '../documents/builder';
import { documentFromText } from '../documents/load';
import type { Embedder } from '../embed/embedder';
import { RetrievalEngine } from '../engine';
import { DatasetError, type EvalSet } from '../eval/dataset';
import { exportBundle } from '../export/bundle';
import { BundleError, MANIFEST, parquetPath, TABLES, type BundleFile, type TableName } from '../export/format';
import { reordered, shuffledOrder, withFile, withManifest, withTable } from '../export/hostile-fixture';
import { importBundle } from '../export/import';
import { verifyBundle, type SqlDatabase } from '../export/verify';
import type { StrategyName } from '../retrieve/params';
import { ApproxTokenCounter } from '../segment/tokens';
import { needsCleaning } from '../util/clean-text';

const STRATEGIES: StrategyName[] = ['sentence', 'window', 'automerge', 'naive'];

/** What a user sees of a search: per strategy, the blocks' documents, spans and text. */
export async function answers(engine: RetrievalEngine, questions: string[], retrievers: ('bm25' | 'vector')[] = ['bm25']): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const q of questions) for (const retriever of retrievers) out.push((await engine.search(q, STRATEGIES, { retriever, topK: 4 })).map((r) => r.blocks.map((b) => [engine.corpus.docs[b.doc]!.id, b.start, b.end, b.text, Number(b.score.toFixed(5))])));
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function assertClean(what: string, text: string): void {
  if (needsCleaning(text)) throw new Error(`${what} still holds a control character or a lone surrogate: ${JSON.stringify(text.slice(0, 80))}`);
}

/**
 * Load → index → export → import → verify. `db` is a PostgreSQL connection with pgvector
 * (PGlite); its raglab schema is dropped first, so one database serves many cases.
 */
export async function textRoundTrip(texts: string[], questions: string[], language: string, db: SqlDatabase | null): Promise<void> {
  const docs = [];
  for (const [i, text] of texts.entries()) {
    try {
      docs.push(documentFromText(text, `doc${i}\n.txt`, i % 2 ? 'md' : 'txt', language));
    } catch (e) {
      if (!(e instanceof LoaderError)) throw e;
    }
  }
  for (const d of docs) {
    assertClean('document text', d.text);
    assertClean('document title', d.title);
  }
  if (!docs.length) return;
  const engine = new RetrievalEngine({ counter: new ApproxTokenCounter() });
  engine.addDocuments(docs);
  const lab = await answers(engine, questions);
  const { files } = await exportBundle(engine, { strategy: 'window', params: { retriever: 'bm25' }, questions: questions.map((question, i) => ({ id: `q${i}`, question })), labVersion: 'fuzz', retrievers: ['bm25'] });
  const { engine: back } = await importBundle(files, { embedder: null });
  const imported = await answers(back, questions);
  if (!same(imported, lab)) throw new Error(`the imported bundle answers differently: lab ${JSON.stringify(lab).slice(0, 300)}, bundle ${JSON.stringify(imported).slice(0, 300)}`);
  if (!db) return;
  await db.exec('DROP SCHEMA IF EXISTS raglab CASCADE;');
  const report = await verifyBundle(files, db);
  if (!report.agree) throw new Error(`PGlite disagrees with the lab: ${report.runs.map((r) => r.firstDifference).filter(Boolean).join('; ') || 'metrics or scores'}`);
}

/** A reader's result: read (with every text clean) or one DatasetError. */
export function readerProperty(read: () => EvalSet): void {
  let set: EvalSet;
  try {
    set = read();
  } catch (e) {
    if (e instanceof DatasetError) return;
    throw e;
  }
  for (const d of set.docs) {
    assertClean('document text', d.text);
    assertClean('document title', d.title);
    assertClean('document id', d.id);
  }
  for (const q of set.questions) {
    assertClean('question', q.question);
    for (const a of q.answers) assertClean('answer', a);
    if (!q.targets.length) throw new Error(`question ${q.id} has no target`);
  }
}

/** One change to a bundle, as the fuzz harness draws them. */
export type Mutation =
  | { kind: 'flip'; file: number; at: number; bit: number; fixChecksum: boolean }
  | { kind: 'truncate'; file: number; keep: number }
  | { kind: 'manifest'; path: string[]; value: unknown }
  | { kind: 'reorder'; table: TableName; seed: number }
  | { kind: 'duplicateRow'; table: TableName; row: number }
  | { kind: 'key'; table: TableName; column: string; row: number; value: number }
  | { kind: 'vector'; row: number; index: number; value: number };

/** Whether the mutation leaves the bundle's content as it was (only row order changes). */
const keepsContent = (m: Mutation) => m.kind === 'reorder';

export async function applyMutation(files: BundleFile[], m: Mutation): Promise<BundleFile[]> {
  const pick = (i: number) => files[i % files.length]!;
  switch (m.kind) {
    case 'flip': {
      const f = pick(m.file);
      if (!f.bytes.length) return files;
      const bytes = f.bytes.slice();
      bytes[Math.floor(m.at * bytes.length) % bytes.length]! ^= 1 << m.bit;
      return m.fixChecksum && f.name !== MANIFEST ? withFile(files, f.name, bytes) : files.map((x) => (x === f ? { name: f.name, bytes } : x));
    }
    case 'truncate': {
      const f = pick(m.file);
      return files.map((x) => (x === f ? { name: f.name, bytes: f.bytes.subarray(0, Math.floor(m.keep * f.bytes.length)) } : x));
    }
    case 'manifest':
      return withManifest(files, (json) => {
        let at: Record<string, unknown> = json;
        for (const k of m.path.slice(0, -1)) {
          if (!at[k] || typeof at[k] !== 'object') return;
          at = at[k] as Record<string, unknown>;
        }
        at[m.path[m.path.length - 1]!] = m.value;
      });
    case 'reorder':
      return withTable(files, m.table, (t) => reordered(t, shuffledOrder(t.rows, m.seed)));
    case 'duplicateRow':
      return withTable(files, m.table, (t) => (t.rows ? reordered(t, [...Array.from({ length: t.rows }, (_, i) => i), m.row % t.rows]) : t));
    case 'key':
      // Integer key columns only: a number in a text column is no Parquet the writer makes (the flips cover corrupt bytes).
      if (!TABLES[m.table].some((c) => c.name === m.column && c.type === 'int')) return files;
      return withTable(files, m.table, (t) => (t.rows && t.columns[m.column] ? { ...t, columns: { ...t.columns, [m.column]: Array.from(t.columns[m.column]!, (v, i) => (i === m.row % t.rows ? m.value : v)) } } : t));
    case 'vector':
      return withTable(files, 'vectors', (t) => ({
        ...t,
        columns: {
          ...t.columns,
          embedding: Array.from(t.columns.embedding!, (v, i) => {
            if (i !== m.row % t.rows) return v;
            const f = new Float32Array(v as Float32Array);
            f[m.index % f.length] = m.value;
            return f;
          }),
        },
      }));
  }
}

export interface BundleBase {
  engine: RetrievalEngine;
  files: BundleFile[];
  embedder: Embedder;
  questions: string[];
  /** The engine's answers before any import. */
  answers: unknown[];
}

/** Imports the mutated bundle alone and into the base corpus: a BundleError or an import; the base never changes. */
export async function bundleMutation(base: BundleBase, m: Mutation): Promise<'imported' | 'refused'> {
  const files = await applyMutation(base.files, m);
  let outcome: 'imported' | 'refused' = 'imported';
  try {
    const { engine } = await importBundle(files, { embedder: base.embedder });
    if (keepsContent(m)) {
      const got = await answers(engine, base.questions, ['bm25', 'vector']);
      if (!same(got, base.answers)) throw new Error(`re-sorted rows (${JSON.stringify(m)}) answer differently`);
    }
  } catch (e) {
    if (!(e instanceof BundleError)) throw new Error(`${JSON.stringify(m).slice(0, 200)} ended in ${(e as Error).name}: ${(e as Error).message}`);
    outcome = 'refused';
  }
  try {
    await importBundle(files, { embedder: base.embedder, into: base.engine });
  } catch (e) {
    if (!(e instanceof BundleError)) throw new Error(`${JSON.stringify(m).slice(0, 200)} into a corpus ended in ${(e as Error).name}: ${(e as Error).message}`);
  }
  if (!same(await answers(base.engine, base.questions, ['bm25', 'vector']), base.answers)) throw new Error(`importing ${JSON.stringify(m).slice(0, 200)} changed the corpus it was imported into`);
  return outcome;
}

export const MUTABLE_TABLES: TableName[] = ['documents', 'sections', 'sentences', 'units', 'vectors', 'postings'];
export const parquetOf = (t: TableName) => parquetPath(t);
