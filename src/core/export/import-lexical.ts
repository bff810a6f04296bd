/**
 * BM25 from a bundle's postings: the indexes are taken as they are when they are what the
 * engine would build (the same analyzer, and a sample of units analysed here gives exactly
 * their postings); otherwise a kind is indexed from its text on first use.
 */
import type { RetrievalEngine } from '../engine';
import { isAnalyzer, type AnalyzerName } from '../index/analyzer';
import { LexicalIndex, type PostingRows } from '../index/lexical-index';
import type { UnitKind } from '../retrieve/params';
import type { Manifest } from './manifest';
import type { ColumnTable } from './read-columns';
import { BUNDLE_KINDS as EXPORTED_KINDS } from './tables';
import { columnsOf, Checks, type Digests, type Files } from './import-tables';

/** Units whose analysed text is compared with the postings before they are taken (per unit kind). */
const LEXICAL_SAMPLE = 100;

/**
 * The analyzer the bundle's postings were made with, when the manifest says: a name in
 * `bm25.lexical.analyzer` or `bm25.analyzer`, or the first bundles' description of the
 * plain word analyzer. Null when it does not say (the sample check then decides alone).
 */
export function postingsAnalyzer(manifest: Manifest): AnalyzerName | null {
  const bm25 = manifest.bm25 as unknown as { lexical?: { analyzer?: unknown }; analyzer?: unknown } | undefined;
  if (isAnalyzer(bm25?.lexical?.analyzer)) return bm25.lexical.analyzer;
  if (isAnalyzer(bm25?.analyzer)) return bm25.analyzer;
  if (typeof bm25?.analyzer === 'string' && bm25.analyzer.startsWith('Intl.Segmenter word segments') && bm25.analyzer.includes('no stemming, no stop words')) return 'words';
  return null;
}

/**
 * Puts BM25 indexes built from the bundle's postings table into the engine, per unit kind,
 * when they are what the engine would build: the postings' analyzer is the engine's, and a
 * sample of units analysed here gives exactly their postings. Anything else (another
 * analyzer, a postings table that is missing, corrupt or incomplete) leaves the kind to be
 * indexed from its text on first use, as before. Returns the kinds taken.
 */
export async function lexicalFromPostings(engine: RetrievalEngine, manifest: Manifest, files: Files, digests: Digests, between: () => Promise<void>): Promise<UnitKind[]> {
  const lexical = engine.structure.lexical;
  const declared = postingsAnalyzer(manifest);
  if (declared !== null && declared !== lexical.analyzer) return [];
  let post: ColumnTable;
  try {
    const checks = new Checks(digests);
    post = await columnsOf(files, manifest, 'postings', ['kind', 'term', 'unit', 'tf'], checks);
    await checks.verify();
  } catch {
    return [];
  }
  const kindCol = post.values.kind as string[];
  const rows: PostingRows = { term: post.values.term as string[], unit: post.ints.unit!, tf: post.ints.tf! };
  const taken: UnitKind[] = [];
  for (const kind of EXPORTED_KINDS) {
    // A cancel need not wait for every kind's index (a second or more each at 100k).
    await between();
    // A kind's rows are one run (the export writes kind by kind).
    const from = kindCol.indexOf(kind);
    if (from < 0) continue;
    let to = from;
    while (to < post.rows && kindCol[to] === kind) to++;
    if (kindCol.indexOf(kind, to) >= 0) continue;
    const count = engine.unitCount(kind);
    // A sample of units analysed here must give their postings exactly.
    const sample = new Map<number, Map<string, number>>();
    const step = Math.max(1, Math.floor(count / LEXICAL_SAMPLE));
    for (let u = 0; u < count; u += step) sample.set(u, new Map());
    for (let i = from; i < to; i++) sample.get(rows.unit[i]!)?.set(rows.term[i]!, rows.tf[i]!);
    const probe = new LexicalIndex(lexical);
    let ok = true;
    for (const [u, theirs] of sample) {
      const language = engine.corpus.docs[engine.unitDoc(kind, u)]!.language;
      const ours = new Map<string, number>();
      let empty = false;
      for (const t of probe.analyze(engine.unitText(kind, u), language)) {
        // An empty term counts in MiniSearch's lengths but is in no postings: such a unit is not taken.
        if (!t) empty = true;
        ours.set(t, (ours.get(t) ?? 0) + 1);
      }
      if (empty || ours.size !== theirs.size || [...ours].some(([t, n]) => theirs.get(t) !== n)) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    try {
      if (engine.adoptLexicalIndex(kind, LexicalIndex.fromPostings(lexical, count, rows, from, to))) taken.push(kind);
    } catch {
      // Postings that do not make an index (ids out of range or out of order): built from the text instead.
    }
  }
  return taken;
}
