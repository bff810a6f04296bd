import type { RetrievalEngine } from '../engine';
import { analyze, WordMemo } from '../index/analyzer';
import { rangeMask, sentenceMask, type MetadataFilter } from '../retrieve/filters';
import type { UnitKind } from '../retrieve/params';
import { boundaryGroups, sectionPath } from '../structure/corpus';
import { chunkHeader } from '../structure/headers';
import type { Document, Sentence } from '../types';
import { buildPostings, variantParams, type Postings } from './postings';
import { UnitWords } from './unit-words';
import { BundleError, type Table, type TableName } from './format';

/**
 * Unit kinds whose postings and vectors a bundle carries. Sentence-packed chunks are rebuilt
 * from the sentences on import (a pure function of them and the manifest's structure), so
 * only their vectors and postings travel. Semantic chunks are cut by the model and are not
 * carried yet: an import finds them again by embedding.
 */
export const BUNDLE_KINDS: readonly UnitKind[] = ['sentence', 'leaf', 'chunk', 'packed'];

/** Headers with the page field over more (section, page pair) rows than this are refused. */
const MAX_HEADER_ROWS = 500_000;

function table(name: TableName, columns: Record<string, ArrayLike<unknown>>): Table {
  const rows = Object.values(columns)[0]?.length ?? 0;
  return { name, columns, rows };
}

/** Section ids from the root down to `s`. */
function ancestors(doc: Document, s: number): number[] {
  const out: number[] = [];
  for (let x: number | null = s; x !== null; x = doc.sections[x]!.parent) out.unshift(x);
  return out;
}

/**
 * The corpus of an engine as tables (documents, sections, pages, sentences, units,
 * headers, BM25 postings, vectors), read through the engine's public API only. Vectors
 * are taken for unit kinds whose every unit has one (current header variant).
 */
export function corpusTables(engine: RetrievalEngine, filters: MetadataFilter): { tables: Table[]; vectorKinds: UnitKind[]; dim: number | null } {
  const c = engine.corpus;
  const h = engine.hierarchy;
  const structure = engine.structure;

  const documents = table('documents', {
    doc: c.docs.map((_, i) => i),
    id: c.docs.map((d) => d.id),
    title: c.docs.map((d) => d.title),
    language: c.docs.map((d) => d.language),
    sent_start: c.docs.map((_, i) => c.docStarts[i]!),
    sent_end: c.docs.map((_, i) => c.docStarts[i + 1]!),
    meta: c.docs.map((d) => JSON.stringify(d.meta)),
    extra: c.docs.map((d) =>
      JSON.stringify({ ...(d.tags ? { tags: d.tags } : {}), ...(d.warnings ? { warnings: d.warnings } : {}), ...(d.context ? { context: d.context } : {}), ...(d.languageInfo ? { languageInfo: d.languageInfo } : {}) }),
    ),
    text: c.docs.map((d) => d.text),
  });

  const sec: Record<string, unknown[]> = { doc: [], section: [], parent: [], level: [], title: [], char_start: [], char_end: [], ancestors: [] };
  const pages: Record<string, unknown[]> = { doc: [], page: [], char_start: [], char_end: [] };
  c.docs.forEach((d, di) => {
    for (const s of d.sections) {
      sec.doc!.push(di);
      sec.section!.push(s.id);
      sec.parent!.push(s.parent);
      sec.level!.push(s.level);
      sec.title!.push(s.title);
      sec.char_start!.push(s.start);
      sec.char_end!.push(s.end);
      sec.ancestors!.push(ancestors(d, s.id));
    }
    for (const p of d.pages) {
      pages.doc!.push(di);
      pages.page!.push(p.number);
      pages.char_start!.push(p.start);
      pages.char_end!.push(p.end);
    }
  });

  // Section-bounded windows stay inside runs of one boundary group, as the engine's bounds do.
  const groups = boundaryGroups(c, structure.sectionLevel);
  const n = c.sentences.length;
  const boundStart = new Int32Array(n);
  const boundEnd = new Int32Array(n);
  for (let i = 0; i < n; ) {
    let j = i;
    while (j < n && groups[j] === groups[i]) j++;
    boundStart.fill(i, i, j);
    boundEnd.fill(j, i, j);
    i = j;
  }
  const mask = sentenceMask(c, filters);
  let before = 0;
  const tokensBefore = c.sentences.map((s) => {
    const t = before;
    before += s.tokens;
    return t;
  });
  const sentences = table('sentences', {
    sentence: c.sentences.map((_, i) => i),
    doc: c.sentences.map((s) => s.doc),
    section: c.sentences.map((s) => s.section),
    section_path: c.sentences.map((s) => sectionPath(c.docs[s.doc]!, s.section).join(' > ')),
    page: c.sentences.map((s) => s.page ?? null),
    char_start: c.sentences.map((s) => s.start),
    char_end: c.sentences.map((s) => s.end),
    tokens: c.sentences.map((s) => s.tokens),
    tokens_before: tokensBefore,
    bound_start: [...boundStart],
    bound_end: [...boundEnd],
    part_index: c.sentences.map((s) => s.part?.index ?? null),
    part_of: c.sentences.map((s) => s.part?.of ?? null),
    allowed: c.sentences.map((_, i) => !mask || mask[i] === 1),
    text: c.sentences.map((s) => s.text),
  });

  const leafRanges = h.leaves.map((id) => h.nodes[id]!);
  const leafMask = rangeMask(mask, leafRanges);
  const chunkMask = rangeMask(mask, engine.chunks.map((ch) => ch.sentences));
  const nodeMask = rangeMask(mask, h.nodes);
  const u: Record<string, unknown[]> = { kind: [], id: [], node: [], parent: [], level: [], children: [], doc: [], sent_start: [], sent_end: [], char_start: [], char_end: [], tokens: [], allowed: [] };
  const push = (row: Record<string, unknown>) => {
    for (const k of Object.keys(u)) u[k]!.push(row[k]);
  };
  const charSpan = (start: number, end: number) => [c.sentences[start]!.start, c.sentences[end - 1]!.end] as const;
  h.leaves.forEach((nodeId, leaf) => {
    const node = h.nodes[nodeId]!;
    const [cs, ce] = charSpan(node.start, node.end);
    push({ kind: 'leaf', id: leaf, node: nodeId, parent: node.parent, level: node.level, children: 0, doc: node.doc, sent_start: node.start, sent_end: node.end, char_start: cs, char_end: ce, tokens: node.tokens, allowed: !leafMask || leafMask[leaf] === 1 });
  });
  for (const node of h.nodes) {
    if (!node.children.length) continue;
    const [cs, ce] = charSpan(node.start, node.end);
    push({ kind: 'parent', id: node.id, node: node.id, parent: node.parent, level: node.level, children: node.children.length, doc: node.doc, sent_start: node.start, sent_end: node.end, char_start: cs, char_end: ce, tokens: node.tokens, allowed: !nodeMask || nodeMask[node.id] === 1 });
  }
  engine.chunks.forEach((ch, i) => {
    push({ kind: 'chunk', id: i, node: null, parent: null, level: null, children: null, doc: ch.doc, sent_start: ch.sentences.start, sent_end: ch.sentences.end, char_start: ch.start, char_end: ch.end, tokens: ch.tokens, allowed: !chunkMask || chunkMask[i] === 1 });
  });
  const units = table('units', u);

  const headers = table('headers', headerRows(engine));

  // BM25: postings of the text each unit is indexed as (header included when headers are on),
  // under the engine's analyzer, with the lengths its variant normalises by.
  const { analyzer, bm25: variant } = structure.lexical;
  const unitWords = new UnitWords(c.docs);
  const memo = new WordMemo();
  const termsOf = (kind: UnitKind, id: number): string[] => {
    const [doc, start, end] = unitChars(engine, kind, id);
    // `words` slices one segmentation per document; other analyzers segment each unit.
    return analyzer === 'words' ? unitWords.of(engine.unitText(kind, id), doc, start, end) : analyze(engine.unitText(kind, id), c.docs[doc]!.language, analyzer, memo);
  };
  const perKind = BUNDLE_KINDS.map((kind) => ({
    kind,
    // Lucene's index keeps these very postings and token lengths (the golden run builds it anyway):
    // read them rather than analyse the corpus again. BM25+ keeps its own inside MiniSearch.
    p: variant === 'lucene' ? indexPostings(engine, kind) : buildPostings(engine.unitCount(kind), (id) => termsOf(kind, id), variant),
  }));
  let rows = 0;
  for (const { p } of perKind) for (const { units } of p.terms.values()) rows += units.length;
  const post = { kind: new Array<string>(rows), term: new Array<string>(rows), unit: new Int32Array(rows), tf: new Int32Array(rows) };
  let r = 0;
  for (const { kind, p } of perKind) {
    for (const [term, { units: ids, tf }] of p.terms) {
      for (let i = 0; i < ids.length; i++, r++) {
        post.kind[r] = kind;
        post.term[r] = term;
        post.unit[r] = ids[i]!;
        post.tf[r] = tf[i]!;
      }
    }
  }
  const lengthRows = perKind.reduce((n, { p }) => n + p.units, 0);
  const lens = { kind: new Array<string>(lengthRows), unit: new Int32Array(lengthRows), length: new Int32Array(lengthRows) };
  r = 0;
  for (const { kind, p } of perKind) {
    for (let id = 0; id < p.units; id++, r++) {
      lens.kind[r] = kind;
      lens.unit[r] = id;
      lens.length[r] = p.lengths[id]!;
    }
  }
  const stats = {
    kind: perKind.map(({ kind }) => kind),
    units: perKind.map(({ p }) => p.units),
    avg_length: perKind.map(({ p }) => p.avgLength),
    k1: perKind.map(() => variantParams(variant).k1),
    b: perKind.map(() => variantParams(variant).b),
    delta: perKind.map(() => variantParams(variant).delta),
  };

  const vec: Record<string, unknown[]> = { kind: [], unit: [], embedding: [] };
  const vectorKinds: UnitKind[] = [];
  const dim = engine.embedder?.dim ?? null;
  if (dim) {
    const all = engine.exportVectors();
    for (const kind of BUNDLE_KINDS) {
      // With contextual retrieval on, the vectors it searches: contextual where a unit has one (export/contexts.ts).
      const data = structure.contextual ? (engine.contexts.rows(kind, all[kind], dim) ?? undefined) : all[kind];
      // A kind still being embedded is left out: a bundle carries whole vector sets only.
      if (!data || data.length !== engine.unitCount(kind) * dim) continue;
      vectorKinds.push(kind);
      for (let id = 0; id < data.length / dim; id++) {
        vec.kind!.push(kind);
        vec.unit!.push(id);
        vec.embedding!.push(data.subarray(id * dim, (id + 1) * dim));
      }
    }
  }

  return {
    tables: [documents, table('sections', sec), table('pages', pages), sentences, units, headers, table('vectors', vec), table('postings', post), table('unit_lengths', lens), table('bm25_stats', stats)],
    vectorKinds,
    dim,
  };
}

/** The postings and token lengths of the engine's Lucene index of a unit kind, as buildPostings would give them. */
function indexPostings(engine: RetrievalEngine, kind: UnitKind): Postings {
  const idx = engine.lexicalIndex(kind);
  const lengths = Int32Array.from(idx.lengths());
  let total = 0;
  for (const n of lengths) total += n;
  const terms = new Map<string, { units: number[]; tf: number[] }>();
  // An empty term never matches a query (golden terms drop it): left out, as buildPostings does.
  for (const [t, p] of idx.postings()) if (t) terms.set(t, p as { units: number[]; tf: number[] });
  return { variant: 'lucene', terms, lengths, units: lengths.length, avgLength: lengths.length ? total / lengths.length : 0 };
}

/** A unit's document and character span: its text is its header (if any) and that span. */
export function unitChars(engine: RetrievalEngine, kind: UnitKind, id: number): [number, number, number] {
  const c = engine.corpus;
  if (kind === 'sentence') {
    const s = c.sentences[id]!;
    return [s.doc, s.start, s.end];
  }
  if (kind === 'leaf') {
    const n = engine.hierarchy.nodes[engine.hierarchy.leaves[id]!]!;
    return [n.doc, c.sentences[n.start]!.start, c.sentences[n.end - 1]!.end];
  }
  if (kind === 'chunk') {
    const ch = engine.chunks[id]!;
    return [ch.doc, ch.start, ch.end];
  }
  const u = engine.unitSpan(kind, id);
  return [u.doc, u.charStart, u.charEnd];
}

/**
 * Every header a block can get, with its token count as the lab counts it. A header
 * depends on the document, the deepest section holding the block's first and last
 * sentence and, with the page field, their pages: one row per such key.
 */
function headerRows(engine: RetrievalEngine): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = { doc: [], section: [], page_first: [], page_last: [], tokens: [], header: [] };
  const p = engine.structure.headers;
  if (!p.enabled) return out;
  const c = engine.corpus;
  const usesPage = p.fields.includes('page');
  c.docs.forEach((doc, di) => {
    const secs = p.section ? doc.sections.map((s) => s.id) : [0];
    // Pages of the sentences under each section (a block's pages lie within its section's).
    const pagesUnder = new Map<number, Set<number>>();
    if (usesPage) {
      for (let i = c.docStarts[di]!; i < c.docStarts[di + 1]!; i++) {
        const s = c.sentences[i]!;
        if (s.page === undefined) continue;
        for (let x: number | null = p.section ? s.section : 0; x !== null; x = doc.sections[x]!.parent) {
          let set = pagesUnder.get(x);
          if (!set) pagesUnder.set(x, (set = new Set()));
          set.add(s.page);
        }
      }
    }
    for (const section of secs) {
      const pages = usesPage ? [...(pagesUnder.get(section) ?? [])].sort((a, b) => a - b) : [];
      const pairs: [number | null, number | null][] = pages.length ? pages.flatMap((a, i) => pages.slice(i).map((b) => [a, b] as [number, number])) : [[null, null]];
      for (const [pf, pl] of pairs) {
        const first = { doc: di, section, start: 0, end: 0, text: '', tokens: 0, ...(pf !== null ? { page: pf } : {}) } as Sentence;
        const last = { ...first, ...(pl !== null ? { page: pl } : {}) } as Sentence;
        const header = chunkHeader(doc, first, last, p);
        out.doc!.push(di);
        out.section!.push(section);
        out.page_first!.push(pf);
        out.page_last!.push(pl);
        out.tokens!.push(header ? engine.counter.count(header) : 0);
        out.header!.push(header);
        if (out.doc!.length > MAX_HEADER_ROWS) {
          throw new BundleError(`headers with pages make more than ${MAX_HEADER_ROWS} distinct headers: export without the page field in headers`);
        }
      }
    }
  });
  return out;
}
