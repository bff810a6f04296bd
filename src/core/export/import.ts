import type { Embedder } from '../embed/embedder';
import { RetrievalEngine } from '../engine';
import type { StructureParams, UnitKind } from '../retrieve/params';
import type { Document } from '../types';
import { BundleError, MANIFEST, parquetPath, type BundleFile, type Table, type TableName } from './format';
import { parseManifest, sha256, type Manifest } from './manifest';
import { readParquet } from './parquet';

export interface ImportOptions {
  /** The loaded embedding model; the bundle's vectors must come from the same model and dimensions. */
  embedder: Embedder | null;
  /** The corpus already open: the bundle's documents are added to a copy of it. */
  into?: RetrievalEngine | null;
}

export interface ImportResult {
  /** A new engine (the one passed as `into` is never changed). */
  engine: RetrievalEngine;
  manifest: Manifest;
  added: Document[];
  /** Documents already in the corpus (same id): not added again. */
  duplicates: Document[];
  vectorKinds: UnitKind[];
}

/** Reads a bundle's Parquet table, checking presence, shape, columns and the manifest's checksum. */
async function table(files: Map<string, Uint8Array>, manifest: Manifest, name: TableName): Promise<Table> {
  const path = parquetPath(name);
  const bytes = files.get(path);
  if (!bytes) throw new BundleError(`the bundle is incomplete: ${path} is missing`);
  const entry = manifest.files.find((f) => f.name === path);
  const t = await readParquet(name, path, bytes, entry?.bytes);
  if (entry && bytes.length !== entry.bytes) throw new BundleError(`${path} is ${bytes.length < entry.bytes ? 'truncated' : 'corrupt'} (${bytes.length} of ${entry.bytes} bytes)`);
  if (entry && (await sha256(bytes)) !== entry.sha256) throw new BundleError(`${path} is corrupt: its checksum differs from the manifest's`);
  return t;
}

/** A column of a table read from Parquet (readParquet gives plain arrays). */
const col = <T>(t: Table, name: string) => t.columns[name] as T[];

function structureKey(s: StructureParams): string {
  return JSON.stringify({ chunkLevels: s.chunkLevels, sectionLevel: s.sectionLevel, naive: s.naive, headers: { ...s.headers, fields: [...s.headers.fields].sort() } });
}

/** The documents of a bundle, as loaders made them. */
function documentsOf(docs: Table, sections: Table, pages: Table): Document[] {
  const out: Document[] = col<number>(docs, 'doc').map((_, i) => {
    let meta: Document['meta'];
    let extra: Partial<Document>;
    try {
      meta = JSON.parse(col<string>(docs, 'meta')[i]!);
      extra = JSON.parse(col<string>(docs, 'extra')[i]!);
    } catch {
      throw new BundleError(`parquet/documents.parquet is corrupt: document ${i} has unreadable metadata`);
    }
    return {
      id: col<string>(docs, 'id')[i]!,
      title: col<string>(docs, 'title')[i]!,
      language: col<string>(docs, 'language')[i]!,
      text: col<string>(docs, 'text')[i]!,
      sections: [],
      pages: [],
      meta,
      ...extra,
    };
  });
  const docIndex = col<number>(docs, 'doc');
  const byIndex = new Map(docIndex.map((d, i) => [d, out[i]!]));
  for (let i = 0; i < sections.rows; i++) {
    const d = byIndex.get(col<number>(sections, 'doc')[i]!);
    if (!d) throw new BundleError(`parquet/sections.parquet is corrupt: section row ${i} names no document`);
    d.sections.push({
      id: col<number>(sections, 'section')[i]!,
      title: col<string>(sections, 'title')[i]!,
      level: col<number>(sections, 'level')[i]!,
      parent: col<number | null>(sections, 'parent')[i]!,
      start: col<number>(sections, 'char_start')[i]!,
      end: col<number>(sections, 'char_end')[i]!,
    });
  }
  for (let i = 0; i < pages.rows; i++) {
    const d = byIndex.get(col<number>(pages, 'doc')[i]!);
    if (!d) throw new BundleError(`parquet/pages.parquet is corrupt: page row ${i} names no document`);
    d.pages.push({ number: col<number>(pages, 'page')[i]!, start: col<number>(pages, 'char_start')[i]!, end: col<number>(pages, 'char_end')[i]! });
  }
  return out;
}

/**
 * Loads a bundle into a new engine without re-embedding: its documents are split again
 * by this lab (and checked against the bundle's sentences and units), and its vectors
 * are taken as they are. Every fault — another model or dimensions, a missing, truncated
 * or corrupt file, an unknown version, a missing column, a corpus that splits differently —
 * is one BundleError, thrown before anything the caller holds is changed.
 */
export async function importBundle(bundle: BundleFile[], options: ImportOptions): Promise<ImportResult> {
  const files = new Map(bundle.map((f) => [f.name.replace(/^\.?\//, ''), f.bytes]));
  const manifest = parseManifest(files.get(MANIFEST));
  const { embedder } = options;
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
    throw new BundleError(`the bundle's chunking (${structureKey(manifest.structure)}) differs from the open corpus's (${structureKey(into.structure)}): clear the corpus first, or export with the same settings`);
  }

  // One at a time, so the first fault reported is the first table's.
  const docs = await table(files, manifest, 'documents');
  const sections = await table(files, manifest, 'sections');
  const pages = await table(files, manifest, 'pages');
  const sentences = await table(files, manifest, 'sentences');
  const units = await table(files, manifest, 'units');
  const vectors = kinds.length ? await table(files, manifest, 'vectors') : null;
  const documents = documentsOf(docs, sections, pages);

  const engine = into
    ? await into.withoutDocuments([])
    : new RetrievalEngine({ embedder, structure: manifest.structure, maxSentenceTokens: manifest.corpus.maxSentenceTokens });
  if (engine.corpus.maxSentenceTokens !== manifest.corpus.maxSentenceTokens) {
    throw new BundleError(`the bundle splits sentences above ${manifest.corpus.maxSentenceTokens} tokens, this lab above ${engine.corpus.maxSentenceTokens}: clear the corpus first`);
  }
  const before = { sentences: engine.corpus.sentences.length, leaves: engine.hierarchy.leaves.length, chunks: engine.chunks.length, docs: engine.corpus.docs.length };
  // Vectors already there are carried into the new engine; a kind still being embedded cannot take the bundle's after it.
  const existing = engine.exportVectors();
  for (const kind of kinds) {
    const have = (existing[kind]?.length ?? 0) / (embedder?.dim ?? 1);
    if (have !== engine.unitCount(kind)) {
      throw new BundleError(`the open corpus is still being embedded (${have} of ${engine.unitCount(kind)} ${kind}s): wait for it to finish, then import`);
    }
  }
  const { added, duplicates } = engine.addDocuments(documents);
  const addedIds = new Set(added.map((d) => d.id));
  const bundleDocs = col<string>(docs, 'id').map((id, i) => ({ id, index: col<number>(docs, 'doc')[i]! }));
  const keepDoc = new Set(bundleDocs.filter((d) => addedIds.has(d.id)).map((d) => d.index));

  // The lab must split the documents exactly as the bundle did, or units and vectors would not match.
  const check = (what: string, ours: number[][], theirs: number[][]) => {
    if (ours.length !== theirs.length) throw new BundleError(`the bundle's ${what} differ from what this lab makes of its documents (${theirs.length} in the bundle, ${ours.length} here): it was made by another version`);
    for (let i = 0; i < ours.length; i++) {
      if (ours[i]!.some((v, j) => v !== theirs[i]![j])) throw new BundleError(`the bundle's ${what} differ from what this lab makes of its documents (at ${what} ${i}): it was made by another version`);
    }
  };
  const c = engine.corpus;
  const bundleSentences = Array.from({ length: sentences.rows }, (_, i) => i).filter((i) => keepDoc.has(col<number>(sentences, 'doc')[i]!));
  check(
    'sentences',
    c.sentences.slice(before.sentences).map((s) => [s.start, s.end, s.tokens]),
    bundleSentences.map((i) => [col<number>(sentences, 'char_start')[i]!, col<number>(sentences, 'char_end')[i]!, col<number>(sentences, 'tokens')[i]!]),
  );
  const unitRows = (kind: string) => Array.from({ length: units.rows }, (_, i) => i).filter((i) => col<string>(units, 'kind')[i] === kind && keepDoc.has(col<number>(units, 'doc')[i]!));
  const leafRows = unitRows('leaf');
  const chunkRows = unitRows('chunk');
  const h = engine.hierarchy;
  const span = (i: number) => [col<number>(units, 'sent_start')[i]!, col<number>(units, 'sent_end')[i]!, col<number>(units, 'char_start')[i]!, col<number>(units, 'char_end')[i]!];
  // Bundle unit ranges are in the bundle's numbering: compare them relative to each document's first sentence.
  const ourDoc = new Map(c.docs.map((d, i) => [d.id, i]));
  const shiftOf = new Map(bundleDocs.flatMap((d, row) => (addedIds.has(d.id) ? [[d.index, c.docStarts[ourDoc.get(d.id)!]! - col<number>(docs, 'sent_start')[row]!] as const] : [])));
  const shift = (i: number) => shiftOf.get(col<number>(units, 'doc')[i]!)!;
  const rel = (i: number) => {
    const [a, b, cs, ce] = span(i);
    const k = shift(i);
    return [a! + k, b! + k, cs!, ce!];
  };
  check(
    'leaves',
    h.leaves.slice(before.leaves).map((id) => {
      const n = h.nodes[id]!;
      return [n.start, n.end, c.sentences[n.start]!.start, c.sentences[n.end - 1]!.end];
    }),
    leafRows.map(rel),
  );
  check('naive chunks', engine.chunks.slice(before.chunks).map((ch) => [ch.sentences.start, ch.sentences.end, ch.start, ch.end]), chunkRows.map(rel));

  if (vectors) {
    const dim = embedder!.dim;
    for (const kind of kinds) {
      const rowsOfKind = Array.from({ length: vectors.rows }, (_, i) => i).filter((i) => col<string>(vectors, 'kind')[i] === kind);
      const unitDoc = kind === 'sentence' ? (u: number) => col<number>(sentences, 'doc')[u]! : (() => {
        const m = new Map<number, number>();
        unitRows(kind).forEach((i) => m.set(col<number>(units, 'id')[i]!, col<number>(units, 'doc')[i]!));
        return (u: number) => m.get(u) ?? -1;
      })();
      const take = rowsOfKind.filter((i) => keepDoc.has(unitDoc(col<number>(vectors, 'unit')[i]!)));
      const have = existing[kind]?.length ?? 0;
      const data = new Float32Array(have + take.length * dim);
      if (have) data.set(existing[kind]!);
      take.forEach((i, j) => {
        const v = col<Float32Array>(vectors, 'embedding')[i]!;
        if (v.length !== dim) throw new BundleError(`parquet/vectors.parquet is corrupt: a ${kind} vector has ${v.length} values, not ${dim}`);
        data.set(v, have + j * dim);
      });
      try {
        await engine.importVectors(kind, data);
      } catch (e) {
        throw new BundleError(`parquet/vectors.parquet is incomplete: ${(e as Error).message}`);
      }
    }
  }
  return { engine, manifest, added, duplicates, vectorKinds: [...kinds] };
}
