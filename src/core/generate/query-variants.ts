/**
 * Query variants for query fusion (LlamaIndex QueryFusionRetriever; RAG-Fusion): the prompt
 * that asks an LLM for rewrites of the question, and the reading of its reply. Fusing what
 * each query retrieves is ../retrieve/query-fusion.ts.
 */
import { queryKey } from '../retrieve/query-fusion';
import type { ChatMessage } from './openai';

/**
 * LlamaIndex's QUERY_GEN_PROMPT, verbatim (llama-index-core,
 * llama_index/core/retrievers/fusion_retriever.py). LlamaIndex fills {num_queries} with
 * num_queries − 1, because its num_queries counts the original question; here `n` is
 * the number of variants wanted, so it is filled with n itself.
 */
export const QUERY_GEN_PROMPT =
  'You are a helpful assistant that generates multiple search queries based on a ' +
  'single input query. Generate {num_queries} search queries, one on each line, ' +
  'related to the following input query:\n' +
  'Query: {query}\n' +
  'Queries:\n';

/**
 * The chat messages that ask for `n` variants of `query`. The user message is
 * LlamaIndex's prompt unchanged; a system message adds what it leaves implicit: the
 * question's language (a Portuguese question searched with English variants finds
 * nothing by BM25) and bare lines (parseQueryVariants copes with numbering anyway).
 */
export function queryGenerationPrompt(query: string, n: number): ChatMessage[] {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`the number of query variants must be a whole number ≥ 1, got ${n}`);
  const q = query.trim();
  if (!q) throw new Error('query fusion needs a question');
  return [
    {
      role: 'system',
      content:
        'Write every search query in the same language as the input query. ' +
        'Reply with the queries only, one per line, without numbering, quotes or any other text.',
    },
    // A function replacer: a "$&" or "$1" in the question must stay literal.
    { role: 'user', content: QUERY_GEN_PROMPT.replace('{num_queries}', () => String(n)).replace('{query}', () => q) },
  ];
}

// List markers: "1.", "1)", "(1)", "-", "*", "•", "+", and labels "Query 2:", "Q2:", "Variant 2 -".
const MARKER = /^(?:[-*•+–]\s+|\(?\d{1,2}[.)](?!\d)\s*|(?:query|queries|variant|question|q)\s*\d{0,2}\s*[:：.)-]\s+)/iu;
// A chatty first line without a colon ("Sure! Here are three queries.").
const PREAMBLE = /^(?:sure|certainly|of course|okay|ok|here (?:are|is)|here's)\b/i;
// Paired wrappers a model puts around a line: quotes, backticks, Markdown bold/italics.
const WRAPPERS: [string, string][] = [
  ['**', '**'],
  ['__', '__'],
  ['"', '"'],
  ["'", "'"],
  ['`', '`'],
  ['“', '”'],
  ['‘', '’'],
  ['«', '»'],
  ['「', '」'],
  ['『', '』'],
  ['*', '*'],
  ['_', '_'],
];

function cleanLine(line: string): string {
  let s = line.trim();
  for (let changed = true; changed && s; ) {
    changed = false;
    const m = MARKER.exec(s);
    if (m && m[0].length < s.length) {
      s = s.slice(m[0].length).trim();
      changed = true;
    }
    for (const [open, close] of WRAPPERS) {
      if (s.length > open.length + close.length && s.startsWith(open) && s.endsWith(close)) {
        s = s.slice(open.length, s.length - close.length).trim();
        changed = true;
      }
    }
  }
  return s;
}

/**
 * Reads the LLM's reply into at most `n` variants. Where LlamaIndex splits on "\d+\."
 * anywhere (which also cuts "version 2.5" in two), this strips one list marker per line
 * ("1.", "1)", "- ", "* ", "Query 2:"), wrapping quotes and bold, skips blank lines,
 * code fences and preamble lines ending in a colon ("Here are 3 queries:"), and drops
 * repeats and the question itself (queryKey). Order is the reply's.
 */
export function parseQueryVariants(text: string, query: string, n: number): string[] {
  if (!(n > 0)) return [];
  const seen = new Set<string>([queryKey(query)]);
  const out: string[] = [];
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('```')) continue;
    if (/[:：]$/u.test(line)) continue; // "Here are 3 search queries:", "Queries:"
    if (PREAMBLE.test(line)) continue;
    const q = cleanLine(line);
    const key = queryKey(q);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    out.push(q);
    if (out.length >= n) break;
  }
  return out;
}
