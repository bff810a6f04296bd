/**
 * Measured points in words, the same in the evaluation lab, its exports and the CLI:
 * "sentence windows (BM25; window ±2 sentences)". Each strategy words its own parameters.
 */
import { DEFAULT_LEXICAL, lexicalKey, lexicalLabel, type LexicalParams } from '../index/lexical-index';
import { RETRIEVER_NAMES, type RetrieverName } from '../retrieve/retrievers';
import { strategyOf, strategyWords, type StrategyName } from '../strategies/registry';
import { short } from '../strategies/types';
import { TRANSFORM_WORDS, type QueryTransform } from '../transform/rewrites';

export interface PointToWord {
  strategy: StrategyName;
  retriever: RetrieverName;
  /** The point's reported parameters (strategyParams). */
  params: Record<string, unknown>;
  rerank?: boolean;
  headers?: boolean;
}

/** "window 2 before, 3 after", "merge threshold 0.5", "RRF c 60, weights BM25 0.5 / vector 0.5", "headers on", "contextual retrieval on", "reranked", a query transformation. */
export function paramsInWords(point: PointToWord): string {
  const p = point.params as { rrfC?: number; weights?: { bm25: number; vector: number }; headers?: boolean; contextual?: boolean; rerank?: boolean; lexical?: LexicalParams };
  const parts = [...(strategyOf(point.strategy).words?.(point.params, 'long') ?? [])];
  // Said only when it is not the default lexical model, so default points read as before.
  if (p.lexical && lexicalKey(p.lexical) !== lexicalKey(DEFAULT_LEXICAL)) parts.push(lexicalLabel(p.lexical));
  if (point.retriever === 'hybrid' && p.rrfC !== undefined && p.weights) {
    parts.push(`RRF c ${short(p.rrfC)}, weights BM25 ${short(p.weights.bm25)} / vector ${short(p.weights.vector)}`);
  }
  if (point.headers ?? p.headers) parts.push('headers on');
  if ((point.params as { late?: boolean }).late) parts.push('late chunking on');
  if (p.contextual) parts.push('contextual retrieval on');
  if (point.rerank || p.rerank) parts.push('reranked');
  const t = (point.params as { queryTransform?: QueryTransform; tools?: string }).queryTransform;
  if (t && t !== 'none') parts.push(`${TRANSFORM_WORDS[t]}${(point.params as { tools?: string }).tools ? ` (tools: ${(point.params as { tools?: string }).tools})` : ''}`);
  return parts.join('; ');
}

/** "sentence windows (BM25; window ±2 sentences)". */
export function pointInWords(point: PointToWord): string {
  const params = paramsInWords(point);
  return `${strategyWords(point.strategy)} (${RETRIEVER_NAMES[point.retriever].long}${params ? `; ${params}` : ''})`;
}
