/**
 * The tools a question can be sent to, as LlamaIndex wraps its indexes in QueryEngineTools: a
 * name, the retriever it searches with, a description the generator reads to choose, and
 * optionally one document it is limited to. The description's wording is part of what is
 * measured (routing precision per set of descriptions), so it is the user's to edit; these are
 * the defaults.
 */
import type { RetrieverName } from '../retrieve/retrievers';
import { RETRIEVERS } from '../retrieve/retrievers';

export interface QueryTool {
  /** What the generator answers with: letters, digits, _ and -. */
  name: string;
  retriever: RetrieverName;
  description: string;
  /** Limits the tool to one document (its id). */
  document?: string;
}

/** LlamaIndex's fusion example wording: one tool per index, each said in one line. */
export const DEFAULT_TOOLS: QueryTool[] = [
  { name: 'keyword_search', retriever: 'bm25', description: 'Useful for questions that name exact words: names, numbers, codes, rare terms. Keyword (BM25) search over all the documents.' },
  { name: 'semantic_search', retriever: 'vector', description: 'Useful for questions asked in other words than the documents use, or about a meaning rather than a term. Semantic similarity (vector) search over all the documents.' },
];

/** Most tools a set may hold: the prompt lists them all. */
export const MAX_TOOLS = 20;

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** A tool per document (searched with `retriever`), named from its title: "doc_brazil". */
export function documentTools(docs: readonly { id: string; title: string; context?: { summary?: string } }[], retriever: RetrieverName): QueryTool[] {
  const used = new Set<string>();
  return docs.map((d) => {
    const base = `doc_${d.title.normalize('NFKD').replace(/\p{M}/gu, '').replace(/[^\p{L}\p{N}]+/gu, '_').replace(/[^A-Za-z0-9_]/g, '').replace(/^_+|_+$/g, '').toLowerCase().slice(0, 40) || 'document'}`;
    let name = base;
    for (let i = 2; used.has(name); i++) name = `${base}_${i}`;
    used.add(name);
    const about = d.context?.summary ? ` ${d.context.summary}` : '';
    return { name, retriever, description: `Useful for questions about the document "${d.title}".${about}`, document: d.id };
  });
}

export class ToolsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolsError';
  }
}

/**
 * A tool set as given in a file or typed in the page (JSON `[{name, retriever, description,
 * document?}]`), checked: a ToolsError names the entry and field at fault.
 */
export function readTools(value: unknown): QueryTool[] {
  if (!Array.isArray(value)) throw new ToolsError('the tools must be a JSON list: [{"name", "retriever", "description"}]');
  if (!value.length) throw new ToolsError('the tool list is empty');
  if (value.length > MAX_TOOLS) throw new ToolsError(`at most ${MAX_TOOLS} tools, got ${value.length}`);
  const names = new Set<string>();
  return value.map((raw, i) => {
    const t = raw as Record<string, unknown> | null;
    const at = `tool ${i + 1}`;
    if (!t || typeof t !== 'object') throw new ToolsError(`${at} is not an object`);
    if (typeof t.name !== 'string' || !NAME.test(t.name)) throw new ToolsError(`${at}: "name" must be 1–64 letters, digits, _ or -`);
    if (names.has(t.name)) throw new ToolsError(`${at}: the name "${t.name}" is used twice`);
    names.add(t.name);
    if (typeof t.retriever !== 'string' || !(RETRIEVERS as readonly string[]).includes(t.retriever)) throw new ToolsError(`${at} (${t.name}): "retriever" must be ${RETRIEVERS.join(', ')}`);
    if (typeof t.description !== 'string' || !t.description.trim()) throw new ToolsError(`${at} (${t.name}): "description" is empty`);
    if (t.document !== undefined && typeof t.document !== 'string') throw new ToolsError(`${at} (${t.name}): "document" must be a document id or title`);
    return { name: t.name, retriever: t.retriever as RetrieverName, description: t.description.trim(), ...(typeof t.document === 'string' ? { document: t.document } : {}) };
  });
}
