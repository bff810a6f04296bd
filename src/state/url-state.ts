/**
 * The view's parameters as a URL query string, so a view can be shared. Decoding never
 * throws: unknown keys are ignored and bad values are clamped or dropped, each with a
 * notice the page shows. Pure (no DOM), so it is unit-tested in Node.
 */
import { DEFAULT_RETRIEVAL, DEFAULT_STRUCTURE, groupValue, type RetrievalParams, type StructureParams } from '../core/retrieve/params';
import { isRetriever, RETRIEVERS } from '../core/retrieve/retrievers';
import { PARAM_GROUPS } from '../core/strategies/registry';
import type { ParamField, ParamGroup } from '../core/strategies/types';
import type { HeaderField } from '../core/structure/headers';
import { DEFAULT_PACKED } from '../core/structure/packed-chunks';
import { DEFAULT_SEMANTIC } from '../core/structure/semantic-chunks';
import { ANALYZERS, isAnalyzer } from '../core/index/analyzer';
import { BM25_VARIANTS, DEFAULT_LEXICAL, isBm25Variant } from '../core/index/lexical-index';
import type { ColumnId, Device, Dtype, IndexBackend, ModelChoice } from '../worker/protocol';
import { endpointFromParam, endpointToParam } from '../core/embed/endpoint-choice';
import { COLUMN_IDS, isColumnId } from './columns';
import { embedderEditsFromParam, embedderEditsToParam } from './url-state-embedder';

export interface ViewState {
  query: string;
  retrieval: RetrievalParams;
  structure: StructureParams;
  embedder: ModelChoice | null;
  reranker: ModelChoice | null;
  /** Vector index: the exact scan (default) or voy-search's k-d tree. */
  indexBackend: IndexBackend;
  /** The columns shown, in their order; null: every column, in the default order. */
  columns: ColumnId[] | null;
  /** Compare two: two shown columns side by side with their shared sentences marked; null: off. */
  compare: [ColumnId, ColumnId] | null;
}

export const DEFAULT_EMBEDDER: ModelChoice = { model: 'Xenova/all-MiniLM-L6-v2', dtype: 'q8', device: 'wasm', source: 'hub' };
export const DEFAULT_RERANKER: ModelChoice = { model: 'Xenova/ms-marco-MiniLM-L-6-v2', dtype: 'q8', device: 'wasm', source: 'hub' };

export function defaultView(): ViewState {
  return {
    query: '',
    // The plain strategy columns use vector search; hybrid RRF has a column of its own.
    retrieval: { ...structuredClone(DEFAULT_RETRIEVAL), retriever: 'vector' },
    structure: structuredClone(DEFAULT_STRUCTURE),
    embedder: { ...DEFAULT_EMBEDDER },
    reranker: null,
    indexBackend: 'auto',
    columns: null,
    compare: null,
  };
}

/** A choice of columns as the view keeps it: known ids once each; all of them in the default order is null. */
export function normaliseColumns(ids: readonly ColumnId[] | null): ColumnId[] | null {
  if (!ids) return null;
  const unique = [...new Set(ids)].filter(isColumnId);
  if (!unique.length) return null;
  return unique.length === COLUMN_IDS.length && unique.every((id, i) => id === COLUMN_IDS[i]) ? null : unique;
}

/** The ids of the columns shown, in order. */
export function shownColumnIds(v: Pick<ViewState, 'columns'>): readonly ColumnId[] {
  return v.columns ?? COLUMN_IDS;
}

const HEADER_FIELDS: HeaderField[] = ['fileName', 'page', 'date', 'author', 'language', 'tags'];
const DTYPES: Dtype[] = ['fp32', 'fp16', 'q8', 'q4'];
const DEVICES: Device[] = ['wasm', 'webgpu'];
const MAX_QUERY = 2000;

/** Every strategy parameter that has a URL key, with its group. */
const GROUP_FIELDS: { group: ParamGroup; field: ParamField & { url: string } }[] = PARAM_GROUPS.flatMap((group) =>
  group.fields.filter((f): f is ParamField & { url: string } => f.url !== undefined).map((field) => ({ group, field })),
);

const listed = (xs: readonly string[]) => `${xs.slice(0, -1).join(', ')} or ${xs.at(-1)}`;

function modelToParam(m: ModelChoice | null): string {
  if (m?.endpoint) return 'endpoint';
  return m ? [m.model, m.dtype, m.device, m.source].join('~') : 'none';
}

/** Encodes only what differs from the defaults, so shared links stay short. */
export function encodeView(v: ViewState): string {
  const d = defaultView();
  const q = new URLSearchParams();
  const set = (k: string, value: unknown, def: unknown) => {
    if (JSON.stringify(value) !== JSON.stringify(def)) q.set(k, Array.isArray(value) ? value.join(',') : String(value));
  };
  if (v.query) q.set('q', v.query);
  const r = v.retrieval;
  const dr = d.retrieval;
  set('r', r.retriever, dr.retriever);
  set('k', r.topK, dr.topK);
  set('b', r.budgetTokens ?? 'none', dr.budgetTokens ?? 'none');
  for (const { group, field } of GROUP_FIELDS) {
    const value = groupValue(r, group)[field.key];
    const def = groupValue(dr, group)[field.key];
    if (field.kind === 'flag') set(field.url, value ? 1 : 0, def ? 1 : 0);
    else set(field.url, value, def);
  }
  set('c', r.rrf.c, dr.rrf.c);
  set('w', [r.rrf.weights.bm25, r.rrf.weights.vector], [dr.rrf.weights.bm25, dr.rrf.weights.vector]);
  set('rn', r.rerank.topN, dr.rerank.topN);
  if (r.filters.docs?.length) q.set('fd', r.filters.docs.join(','));
  if (r.filters.section) q.set('fs', r.filters.section);
  if (r.filters.languages?.length) q.set('fl', r.filters.languages.join(','));
  if (r.filters.dateFrom) q.set('df', r.filters.dateFrom);
  if (r.filters.dateTo) q.set('dt', r.filters.dateTo);
  const s = v.structure;
  const ds = d.structure;
  set('lv', s.chunkLevels, ds.chunkLevels);
  set('sl', s.sectionLevel, ds.sectionLevel);
  set('nc', s.naive.size, ds.naive.size);
  set('no', s.naive.overlap, ds.naive.overlap);
  // Views saved before these chunkers existed have no value: the defaults.
  set('pc', (s.packed ?? DEFAULT_PACKED).size, ds.packed.size);
  set('po', (s.packed ?? DEFAULT_PACKED).overlap, ds.packed.overlap);
  set('sb', (s.semantic ?? DEFAULT_SEMANTIC).buffer, ds.semantic.buffer);
  set('sp', (s.semantic ?? DEFAULT_SEMANTIC).percentile, ds.semantic.percentile);
  set('h', s.headers.enabled ? 1 : 0, ds.headers.enabled ? 1 : 0);
  set('ht', s.headers.title ? 1 : 0, ds.headers.title ? 1 : 0);
  set('hs', s.headers.section ? 1 : 0, ds.headers.section ? 1 : 0);
  set('hf', s.headers.fields, ds.headers.fields);
  // Late-chunked vectors (views saved before the switch existed hold none: plain).
  set('lc', s.vectors === 'late' ? 1 : 0, ds.vectors === 'late' ? 1 : 0);
  set('an', (s.lexical ?? DEFAULT_LEXICAL).analyzer, ds.lexical.analyzer);
  set('bm', (s.lexical ?? DEFAULT_LEXICAL).bm25, ds.lexical.bm25);
  set('em', modelToParam(v.embedder), modelToParam(d.embedder));
  set('rm', modelToParam(v.reranker), modelToParam(d.reranker));
  if (v.embedder?.endpoint) q.set('ee', endpointToParam(v.embedder.endpoint));
  const es = v.embedder && embedderEditsToParam(v.embedder);
  if (es) q.set('es', es);
  set('ix', v.indexBackend, d.indexBackend);
  if (v.columns) q.set('cols', v.columns.join(','));
  if (v.compare) q.set('cmp', v.compare.join(','));
  return q.toString();
}

export interface Decoded {
  view: ViewState;
  /** One line per value that was clamped or ignored. */
  notices: string[];
}

const KNOWN = new Set(['q', 'r', 'k', 'b', ...GROUP_FIELDS.map((f) => f.field.url), 'c', 'w', 'rn', 'fd', 'fs', 'fl', 'df', 'dt', 'lv', 'sl', 'nc', 'no', 'pc', 'po', 'sb', 'sp', 'h', 'ht', 'hs', 'hf', 'lc', 'an', 'bm', 'em', 'ee', 'es', 'rm', 'ix', 'cols', 'cmp']);

export function decodeView(search: string, base: ViewState = defaultView()): Decoded {
  const q = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const v = structuredClone(base);
  const notices: string[] = [];
  const int = (key: string, min: number, max: number, apply: (n: number) => void) => {
    const raw = q.get(key);
    if (raw === null) return;
    const n = Number(raw);
    if (!Number.isFinite(n) || raw.trim() === '') return void notices.push(`ignored ${key}=${raw}: not a number`);
    const c = Math.min(max, Math.max(min, Math.round(n)));
    if (c !== n) notices.push(`${key}=${raw} clamped to ${c}`);
    apply(c);
  };
  const real = (key: string, min: number, max: number, apply: (n: number) => void) => {
    const raw = q.get(key);
    if (raw === null) return;
    const n = Number(raw);
    if (!Number.isFinite(n) || raw.trim() === '') return void notices.push(`ignored ${key}=${raw}: not a number`);
    const c = Math.min(max, Math.max(min, n));
    if (c !== n) notices.push(`${key}=${raw} clamped to ${c}`);
    apply(c);
  };
  const flag = (key: string, apply: (b: boolean) => void) => {
    const raw = q.get(key);
    if (raw === null) return;
    if (raw !== '0' && raw !== '1') return void notices.push(`ignored ${key}=${raw}: use 0 or 1`);
    apply(raw === '1');
  };
  const model = (key: string, apply: (m: ModelChoice | null) => void) => {
    const raw = q.get(key);
    if (raw === null) return;
    if (raw === 'none') return apply(null);
    // An embedding endpoint (its settings in `ee`, never its key); loading it waits for the user's consent.
    if (raw === 'endpoint' && key === 'em') {
      const e = endpointFromParam(q.get('ee') ?? '');
      if (typeof e === 'string') return void notices.push(`ignored em=endpoint: ${e}`);
      return apply({ model: `${e.model} at ${e.baseUrl}`, dtype: 'fp32', device: 'wasm', source: 'hub', endpoint: e });
    }
    const [id, dtype, device, source] = raw.split('~');
    if (!id || !/^[\w.-]+\/[\w.-]+$/.test(id) || !DTYPES.includes(dtype as Dtype) || !DEVICES.includes(device as Device) || (source !== 'hub' && source !== 'local')) {
      return void notices.push(`ignored ${key}: not a model choice`);
    }
    apply({ model: id, dtype: dtype as Dtype, device: device as Device, source });
  };

  for (const key of q.keys()) if (!KNOWN.has(key)) notices.push(`ignored unknown parameter ${key}`);
  const query = q.get('q');
  if (query !== null) {
    v.query = query.slice(0, MAX_QUERY);
    if (query.length > MAX_QUERY) notices.push(`the question was cut to ${MAX_QUERY} characters`);
  }
  const r = v.retrieval;
  const retriever = q.get('r');
  if (retriever !== null) {
    if (isRetriever(retriever)) r.retriever = retriever;
    else notices.push(`ignored r=${retriever}: use ${listed(RETRIEVERS)}`);
  }
  int('k', 1, 200, (n) => (r.topK = n));
  const budget = q.get('b');
  if (budget === 'none') r.budgetTokens = null;
  else int('b', 16, 32768, (n) => (r.budgetTokens = n));
  for (const { group, field } of GROUP_FIELDS) {
    const apply = (v: number | boolean | string) => (groupValue(r, group)[field.key] = v);
    if (field.kind === 'int') int(field.url, field.min, field.urlMax ?? Number.MAX_SAFE_INTEGER, apply);
    else if (field.kind === 'real') real(field.url, field.min, field.max, apply);
    else if (field.kind === 'flag') flag(field.url, apply);
    else {
      const raw = q.get(field.url);
      if (raw === null) continue;
      if (field.values.includes(raw)) apply(raw);
      else notices.push(`ignored ${field.url}=${raw}: use ${listed(field.values)}`);
    }
  }
  real('c', 0, 1000, (n) => (r.rrf.c = n));
  const w = q.get('w');
  if (w !== null) {
    const [a, b] = w.split(',').map(Number);
    if (Number.isFinite(a) && Number.isFinite(b) && a! >= 0 && b! >= 0) r.rrf.weights = { bm25: a!, vector: b! };
    else notices.push(`ignored w=${w}: two weights ≥ 0`);
  }
  int('rn', 1, 200, (n) => (r.rerank.topN = n));
  const list = (key: string) => q.get(key)?.split(',').map((x) => x.trim()).filter(Boolean);
  const fd = list('fd');
  if (fd?.length) r.filters.docs = fd;
  const fs = q.get('fs');
  if (fs) r.filters.section = fs.slice(0, 200);
  const fl = list('fl');
  if (fl?.length) r.filters.languages = fl.filter((l) => /^[a-z]{2,3}$/.test(l));
  for (const [key, field] of [['df', 'dateFrom'], ['dt', 'dateTo']] as const) {
    const raw = q.get(key);
    if (raw === null) continue;
    if (/^\d{4}(-\d{2}(-\d{2})?)?$/.test(raw)) r.filters[field] = raw;
    else notices.push(`ignored ${key}=${raw}: use YYYY-MM-DD`);
  }
  const s = v.structure;
  const lv = q.get('lv');
  if (lv !== null) {
    const levels = lv.split(',').map(Number);
    if (levels.length >= 1 && levels.length <= 4 && levels.every((n, i) => Number.isInteger(n) && n >= 16 && n <= 8192 && (i === 0 || n < levels[i - 1]!))) s.chunkLevels = levels;
    else notices.push(`ignored lv=${lv}: 1–4 shrinking sizes between 16 and 8192`);
  }
  int('sl', 0, 6, (n) => (s.sectionLevel = n));
  int('nc', 16, 4096, (n) => (s.naive.size = n));
  int('no', 0, 2048, (n) => (s.naive.overlap = n));
  if (s.naive.overlap >= s.naive.size) {
    notices.push(`naive overlap clamped below the chunk size`);
    s.naive.overlap = Math.floor(s.naive.size / 2);
  }
  s.packed = { ...DEFAULT_PACKED, ...s.packed };
  int('pc', 16, 4096, (n) => (s.packed.size = n));
  int('po', 0, 2048, (n) => (s.packed.overlap = n));
  if (s.packed.overlap >= s.packed.size) {
    notices.push(`packed overlap clamped below the chunk size`);
    s.packed.overlap = Math.floor(s.packed.size / 2);
  }
  s.semantic = { ...DEFAULT_SEMANTIC, ...s.semantic };
  int('sb', 0, 10, (n) => (s.semantic.buffer = n));
  real('sp', 0, 100, (n) => (s.semantic.percentile = n));
  flag('h', (b) => (s.headers.enabled = b));
  flag('ht', (b) => (s.headers.title = b));
  flag('hs', (b) => (s.headers.section = b));
  const hf = list('hf');
  if (hf) {
    const ok = hf.filter((f): f is HeaderField => HEADER_FIELDS.includes(f as HeaderField));
    if (ok.length < hf.length) notices.push(`ignored unknown header fields in hf=${q.get('hf')}`);
    s.headers.fields = ok;
  }
  flag('lc', (b) => (s.vectors = b ? 'late' : 'plain'));
  s.lexical = { ...DEFAULT_LEXICAL, ...s.lexical };
  const an = q.get('an');
  if (an !== null) {
    if (isAnalyzer(an)) s.lexical.analyzer = an;
    else notices.push(`ignored an=${an}: use ${listed(ANALYZERS)}`);
  }
  const bm = q.get('bm');
  if (bm !== null) {
    if (isBm25Variant(bm)) s.lexical.bm25 = bm;
    else notices.push(`ignored bm=${bm}: use ${listed(BM25_VARIANTS)}`);
  }
  const ix = q.get('ix');
  if (ix !== null) {
    if (ix === 'auto' || ix === 'flat' || ix === 'voy' || ix === 'ann') v.indexBackend = ix;
    else notices.push(`ignored ix=${ix}: use auto, flat, voy or ann`);
  }
  model('em', (m) => (v.embedder = m));
  // The embedder's changed settings and size: for the model chosen above (or the default one).
  const es = q.get('es');
  if (es !== null) {
    const e = v.embedder && !v.embedder.endpoint ? embedderEditsFromParam(es, v.embedder.model) : 'no transformers.js embedder is chosen';
    if (typeof e === 'string') notices.push(`ignored es: ${e}`);
    else v.embedder = { ...v.embedder!, ...e };
  }
  model('rm', (m) => (v.reranker = m));
  const cols = list('cols');
  if (cols) {
    const unknown = cols.filter((id) => !isColumnId(id));
    if (unknown.length) notices.push(`ignored unknown columns in cols: ${unknown.join(', ')} (known: ${COLUMN_IDS.join(', ')})`);
    const known = cols.filter(isColumnId);
    if (known.length) v.columns = normaliseColumns(known);
  }
  const cmp = list('cmp');
  if (cmp) {
    const [a, b] = cmp;
    const shown = shownColumnIds(v);
    if (cmp.length === 2 && a !== b && isColumnId(a) && isColumnId(b) && shown.includes(a) && shown.includes(b)) v.compare = [a, b];
    else notices.push(`ignored cmp=${q.get('cmp')}: two different columns that are shown`);
  }
  return { view: v, notices };
}
