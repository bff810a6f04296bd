import type { Embedder } from '../embed/embedder';
import { RetrievalEngine, type EngineOptions } from '../engine';
import type { StructureParams, UnitKind } from '../retrieve/params';
import type { ChunkNode, Document } from '../types';
import type { SentenceSpan } from '../structure/corpus';
import type { SplitDocument } from '../structure/units';
import { BundleError, MANIFEST, parquetPath, type BundleFile, type TableName } from './format';
import { parseManifest, type Manifest } from './manifest';
import { yieldToEventLoop } from '../util/yield';
import { documentsOf } from './bundle-documents';
import { Checks, col, columnsOf, digestOf, table, timer, type BundleReads, type Files } from './import-tables';
import { lexicalFromPostings } from './import-lexical';
import { adoptContexts, CONTEXTS_FILE, contextualVectors, readBundleContexts } from './contexts';

export { postingsAnalyzer } from './import-lexical';
export type { BundleReads } from './import-tables';
import { checkVectorRows, sentencesInOrder, unitsInOrder } from './bundle-keys';

export interface ImportOptions {
  /** The loaded embedding model; the bundle's vectors must come from the same model and dimensions. */
  embedder: Embedder | null;
  /** The corpus already open: the bundle's documents are added to a copy of it. */
  into?: RetrievalEngine | null;
  /** Into an empty corpus: the vector index and reranker of the new engine (default: exact scan, none), so it need not be rebuilt for its user. */
  vectorIndex?: EngineOptions['vectorIndex'];
  reranker?: EngineOptions['reranker'];
  /**
   * Cancels the import: checked between its steps (tables, checksums, split, BM25, vectors,
   * each kind's index), it throws the signal's reason there. Nothing the caller holds has
   * changed by then (the import builds a new engine), so a cancel leaves everything as it was.
   */
  signal?: AbortSignal;
}

export interface ImportResult {
  /** A new engine (the one passed as `into` is never changed). */
  engine: RetrievalEngine;
  manifest: Manifest;
  added: Document[];
  /** Documents already in the corpus (same id): not added again. */
  duplicates: Document[];
  vectorKinds: UnitKind[];
  /** Unit kinds whose BM25 index was taken from the bundle's postings (the others are built from their text on first use). */
  lexicalKinds: UnitKind[];
  /** Where the time went, ms, in this order: tables, checksumWait (checksums not done when the tables were), split, bm25, vectorsRead, vectorIndex. */
  timings: Record<string, number>;
}

function structureKey(s: StructureParams): string {
  // Plain and late-chunked vectors of the same units never mix in one set (bundles before the variant were plain).
  return JSON.stringify({ chunkLevels: s.chunkLevels, sectionLevel: s.sectionLevel, naive: s.naive, headers: { ...s.headers, fields: [...s.headers.fields].sort() }, vectors: s.vectors ?? 'plain' });
}

/**
 * Loads a bundle into a new engine without re-embedding or re-splitting: its sentences and
 * naive chunks are taken from its tables (checked against their documents' text), the chunk
 * tree is rebuilt from their token counts and checked against the bundle's leaves and
 * parents, its vectors are taken as they are and, into a fresh corpus, its BM25 postings
 * when they are what this lab would index (lexicalFromPostings). Every fault — another model
 * or dimensions, a missing, truncated or corrupt file, an unknown version, a missing column,
 * sentences or units that do not fit — is one BundleError, thrown before anything the
 * caller holds is changed.
 */
export async function importBundle(bundle: BundleFile[] | BundleReads, options: ImportOptions): Promise<ImportResult> {
  const files: Files = Array.isArray(bundle) ? new Map(bundle.map((f) => [f.name.replace(/^\.?\//, ''), Promise.resolve(f.bytes)])) : (bundle as BundleReads);
  const manifest = parseManifest(await files.get(MANIFEST));
  const { embedder, signal } = options;
  signal?.throwIfAborted();
  const kinds = manifest.vectors.kinds ?? [];
  const emb = manifest.embedding;
  if (emb && kinds.length) {
    const theirs = `${emb.model} (${emb.dims} dimensions)`;
    if (!embedder) throw new BundleError(`the bundle's vectors were made with ${theirs}, but no embedding model is loaded`);
    if (embedder.model !== emb.model || embedder.dim !== emb.dims) {
      throw new BundleError(`the bundle's vectors were made with ${theirs}, but the loaded embedder is ${embedder.model} (${embedder.dim} dimensions)`);
    }
  }
  const into = options.into && options.into.corpus.docs.length ? options.into : null;
  const counterName = into?.counter.name ?? embedder?.counter.name ?? 'approx';
  if (manifest.tokenizer !== counterName) {
    throw new BundleError(`the bundle counts tokens with ${manifest.tokenizer}, but this lab counts them with ${counterName}: load that embedding model first`);
  }
  if (into && structureKey(into.structure) !== structureKey(manifest.structure)) {
    throw new BundleError(`the bundle's chunking (${structureKey(manifest.structure)}) differs from the open corpus's (${structureKey(into.structure)}): import it into an empty corpus, or export it with the same settings`);
  }

  // Checksums of every table that may be read start now, and are computed (off the thread,
  // by Web Crypto) while the tables decode; they are all awaited before the tables are used.
  const mark = timer(signal);
  /** Within a step: a cancel stops the import here too (the tables of a large bundle take seconds to decode). */
  const between = async () => {
    if (!signal) return;
    await yieldToEventLoop();
    signal.throwIfAborted();
  };
  const checks = new Checks(new Map());
  const wanted: TableName[] = ['documents', 'sections', 'pages', 'sentences', 'units', ...(kinds.length ? (['vectors'] as const) : []), ...(into ? [] : (['postings'] as const))];
  for (const name of wanted) {
    // Each as soon as its bytes are there (a dropped zip's entries arrive one by one).
    void files.get(parquetPath(name))?.then((bytes) => digestOf(checks.digests, parquetPath(name), bytes), () => undefined);
  }
  const { docs: docsRaw, sections, pages, sentences: sentencesRaw, units: unitsRaw } = await checks.reading(async () => {
    const docs = await table(files, manifest, 'documents', checks);
    await between();
    const sections = await table(files, manifest, 'sections', checks);
    const pages = await table(files, manifest, 'pages', checks);
    await between();
    const sentences = await columnsOf(files, manifest, 'sentences', ['sentence', 'doc', 'section', 'page', 'char_start', 'char_end', 'tokens', 'part_index', 'part_of'], checks);
    await between();
    const units = await columnsOf(files, manifest, 'units', ['kind', 'id', 'node', 'parent', 'doc', 'sent_start', 'sent_end', 'char_start', 'char_end', 'tokens'], checks);
    return { docs, sections, pages, sentences, units };
  });
  await mark('tables');
  // Every table read so far is the manifest's before anything is built from it (the vectors' below, before they are taken).
  await checks.verify();
  await mark('checksumWait');
  const { docs, documents } = documentsOf(docsRaw, sections, pages);
  // Joined by their keys, whatever order another tool left the rows in.
  const sentences = sentencesInOrder(sentencesRaw, docs);
  const units = unitsInOrder(unitsRaw, docs, sentences.rows);

  const engine = into
    ? await into.withoutDocuments([])
    : new RetrievalEngine({ embedder, structure: manifest.structure, maxSentenceTokens: manifest.corpus.maxSentenceTokens, ...(options.vectorIndex ? { vectorIndex: options.vectorIndex } : {}), reranker: options.reranker ?? null });
  if (engine.corpus.maxSentenceTokens !== manifest.corpus.maxSentenceTokens) {
    throw new BundleError(`the bundle splits sentences above ${manifest.corpus.maxSentenceTokens} tokens, but ${into ? 'the open corpus' : 'this lab with the loaded model'} splits above ${engine.corpus.maxSentenceTokens}: ${into ? 'import it into an empty corpus' : 'export it again with this model'}`);
  }
  const before = { sentences: engine.corpus.sentences.length, leaves: engine.hierarchy.leaves.length, nodes: engine.hierarchy.nodes.length, chunks: engine.chunks.length, docs: engine.corpus.docs.length };
  // Vectors already there are carried into the new engine; a kind still being embedded cannot take the bundle's after it.
  const existing = engine.exportVectors();
  for (const kind of kinds) {
    const have = (existing[kind]?.length ?? 0) / (embedder?.dim ?? 1);
    if (have !== engine.unitCount(kind)) {
      throw new BundleError(`the open corpus is still being embedded (${have} of ${engine.unitCount(kind)} ${kind}s): wait for it to finish, then import`);
    }
  }

  // The bundle's sentences and naive chunks are taken as they are (splitting 100k sentences
  // again is most of an import's time); the chunk tree is rebuilt from their token counts
  // and must come out as the bundle's.
  const docIndex = col<number>(docs, 'doc');
  const docStart = col<number>(docs, 'sent_start');
  const docEnd = col<number>(docs, 'sent_end');
  const sDoc = sentences.ints.doc!;
  const uKind = units.values.kind as string[];
  const uDoc = units.ints.doc!;
  const uSentStart = units.ints.sent_start!;
  const uSentEnd = units.ints.sent_end!;
  const uCharStart = units.ints.char_start!;
  const uCharEnd = units.ints.char_end!;
  const chunkRowsOf = new Map<number, number[]>();
  for (let i = 0; i < units.rows; i++) {
    if (uKind[i] !== 'chunk') continue;
    let rows = chunkRowsOf.get(uDoc[i]!);
    if (!rows) chunkRowsOf.set(uDoc[i]!, (rows = []));
    rows.push(i);
  }
  const split: SplitDocument[] = documents.map((doc, row) => {
    const d = docIndex[row]!;
    const a = docStart[row]!;
    const b = docEnd[row]!;
    if (!(Number.isInteger(a) && Number.isInteger(b) && a >= 0 && a <= b && b <= sentences.rows)) throw new BundleError(`parquet/documents.parquet is corrupt: document ${row} has the sentence range [${a}, ${b}) of ${sentences.rows} sentences`);
    const spans: SentenceSpan[] = [];
    const page = sentences.values.page!;
    const partIndex = sentences.values.part_index!;
    const partOf = sentences.values.part_of!;
    for (let i = a; i < b; i++) {
      if (sDoc[i] !== d) throw new BundleError(`parquet/sentences.parquet is corrupt: sentence ${i} belongs to document ${sDoc[i]}, not to document ${d} whose range holds it`);
      const p = page[i] as number | null;
      const pi = partIndex[i] as number | null;
      spans.push({
        section: sentences.ints.section![i]!,
        ...(p !== null ? { page: p } : {}),
        start: sentences.ints.char_start![i]!,
        end: sentences.ints.char_end![i]!,
        tokens: sentences.ints.tokens![i]!,
        ...(pi !== null ? { part: { index: pi, of: partOf[i] as number } } : {}),
      });
    }
    const chunks = (chunkRowsOf.get(d) ?? []).map((i) => ({ start: uCharStart[i]!, end: uCharEnd[i]!, tokens: units.ints.tokens![i]!, sentences: { start: uSentStart[i]! - a, end: uSentEnd[i]! - a } }));
    return { doc, sentences: spans, chunks };
  });
  let added: Document[];
  let duplicates: Document[];
  try {
    ({ added, duplicates } = engine.addSplitDocuments(split));
  } catch (e) {
    throw new BundleError(`the bundle's sentences or naive chunks do not fit its documents: ${(e as Error).message}`);
  }
  const addedIds = new Set(added.map((d) => d.id));
  // Contexts before the BM25 postings, which hold them; into an open corpus only once all is checked (export/contexts.ts).
  const bundleContexts = await readBundleContexts(manifest, await files.get(CONTEXTS_FILE));
  if (bundleContexts && !into) adoptContexts(engine, bundleContexts, addedIds);
  const bundleDocs = documents.map((d, i) => ({ id: d.id, index: docIndex[i]! }));
  const keepDoc = new Set(bundleDocs.filter((d) => addedIds.has(d.id)).map((d) => d.index));

  // The chunk tree this lab builds over the bundle's sentences must be the bundle's, or leaf vectors would not match.
  const check = (what: string, ours: number[][], theirs: number[][]) => {
    if (ours.length !== theirs.length) throw new BundleError(`the bundle's ${what} differ from what this lab makes of its documents (${theirs.length} in the bundle, ${ours.length} here): it was made by another version`);
    for (let i = 0; i < ours.length; i++) {
      if (ours[i]!.some((v, j) => v !== theirs[i]![j])) throw new BundleError(`the bundle's ${what} differ from what this lab makes of its documents (at ${what} ${i}): it was made by another version`);
    }
  };
  const c = engine.corpus;
  const unitRows = (kind: string) => {
    const out: number[] = [];
    for (let i = 0; i < units.rows; i++) if (uKind[i] === kind && keepDoc.has(uDoc[i]!)) out.push(i);
    return out;
  };
  const leafRows = unitRows('leaf');
  const parentRows = unitRows('parent');
  const h = engine.hierarchy;
  // Bundle unit ranges are in the bundle's numbering: compare them relative to each document's first sentence.
  const ourDoc = new Map(c.docs.map((d, i) => [d.id, i]));
  const shiftOf = new Map(bundleDocs.flatMap((d, row) => (addedIds.has(d.id) ? [[d.index, c.docStarts[ourDoc.get(d.id)!]! - docStart[row]!] as const] : [])));
  const rel = (i: number) => {
    const k = shiftOf.get(uDoc[i]!)!;
    return [uSentStart[i]! + k, uSentEnd[i]! + k, uCharStart[i]!, uCharEnd[i]!];
  };
  const nodeSpan = (n: ChunkNode) => [n.start, n.end, c.sentences[n.start]!.start, c.sentences[n.end - 1]!.end];
  check('leaves', h.leaves.slice(before.leaves).map((id) => nodeSpan(h.nodes[id]!)), leafRows.map(rel));
  // Parent node ids follow the order documents were added in (one by one, or together), as
  // today's import renumbers them: the parents are compared as ranges, in sentence order.
  const bySpan = (a: number[], b: number[]) => a[0]! - b[0]! || b[1]! - a[1]!;
  check('parent chunks', h.nodes.slice(before.nodes).filter((n) => n.children.length).map(nodeSpan).sort(bySpan), parentRows.map(rel).sort(bySpan));

  await mark('split');

  // BM25: a fresh corpus of the bundle's documents alone takes the bundle's postings
  // instead of analysing every unit's text again (the first search's main cost). Before the
  // vectors: a dropped zip's vector file (most of its bytes) is often still being read.
  const lexicalKinds = !into && duplicates.length === 0 ? await lexicalFromPostings(engine, manifest, files, checks.digests, between) : [];
  await mark('bm25');

  const vectorsRaw = kinds.length ? await checks.reading(() => columnsOf(files, manifest, 'vectors', ['kind', 'unit', 'embedding'], checks)) : null;
  await checks.verify();
  // In (kind, unit) order, each kind's units 0…n-1 once, every value finite and of the model's dimensions.
  const vectors = vectorsRaw ? checkVectorRows(vectorsRaw, kinds, embedder!.dim) : null;
  await mark('vectorsRead');
  let unitColumn: Int32Array | undefined;
  if (vectors) {
    const dim = embedder!.dim;
    const vKind = vectors.values.kind as string[];
    const v = vectors.vectors!;
    if (vectors.rows && (v.badRow >= 0 || v.dims !== dim)) {
      const row = v.badRow >= 0 ? v.badRow : 0;
      throw new BundleError(`parquet/vectors.parquet is corrupt: a ${vKind[row]} vector has ${v.badRow >= 0 ? v.badLength : v.dims} values, not ${dim}`);
    }
    const unitDocOf = (kind: UnitKind): ((u: number) => number) => {
      if (kind === 'sentence') return (u) => sDoc[u]!;
      const m = new Map<number, number>();
      const ids = units.ints.id!;
      for (let i = 0; i < units.rows; i++) if (uKind[i] === kind) m.set(ids[i]!, uDoc[i]!);
      return (u) => m.get(u) ?? -1;
    };
    const everyDoc = keepDoc.size === bundleDocs.length;
    for (const kind of kinds) {
      // Packed chunks have no rows in the units table (they are rebuilt from the sentences):
      // when only some documents are taken, their vectors are left to be embedded here.
      if (!everyDoc && kind === 'packed') continue;
      const rowsOfKind: number[] = [];
      for (let i = 0; i < vectors.rows; i++) if (vKind[i] === kind) rowsOfKind.push(i);
      // Every document kept: the kind's rows are taken as they are (one block when they are contiguous, as the export writes them).
      let take = rowsOfKind;
      if (!everyDoc) {
        const docOf = unitDocOf(kind);
        const unitCol = await vectorUnits();
        take = rowsOfKind.filter((i) => keepDoc.has(docOf(unitCol[i]!)));
      }
      const have = existing[kind]?.length ?? 0;
      const contiguous = take.length > 0 && take[take.length - 1]! - take[0]! === take.length - 1;
      let data: Float32Array;
      if (!have && contiguous) data = v.data.subarray(take[0]! * dim, (take[take.length - 1]! + 1) * dim);
      else {
        data = new Float32Array(have + take.length * dim);
        if (have) data.set(existing[kind]!);
        take.forEach((i, j) => data.set(v.data.subarray(i * dim, (i + 1) * dim), have + j * dim));
      }
      try {
        await engine.importVectors(kind, data);
      } catch (e) {
        throw new BundleError(`parquet/vectors.parquet is incomplete: ${(e as Error).message}`);
      }
      // Each kind's index takes a while at 100k: a cancel need not wait for the others.
      await between();
    }
  }

  if (bundleContexts) {
    if (into) adoptContexts(engine, bundleContexts, addedIds);
    contextualVectors(engine, kinds, addedIds);
  }
  await mark('vectorIndex');
  return { engine, manifest, added, duplicates, vectorKinds: kinds.filter((k) => engine.vectorCoverage(k).done === engine.unitCount(k)), lexicalKinds, timings: mark.all };

  /** The vectors table's unit column (in key order, as the vectors). */
  async function vectorUnits(): Promise<Int32Array> {
    unitColumn ??= vectors!.ints.unit!;
    return unitColumn;
  }
}


