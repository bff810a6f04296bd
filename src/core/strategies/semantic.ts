import { sentenceRunBlocks } from './packed';
import { defineStrategy } from './types';

/**
 * Semantic chunks (LlamaIndex SemanticSplitterNodeParser): runs of sentences broken where
 * neighbouring buffered sentences' embeddings are far apart. They need an embedding model.
 */
export const semantic = defineStrategy({
  name: 'semantic',
  label: 'Semantic chunks',
  unit: 'semantic',
  blockWords: 'the semantic chunk',
  colour: '#EE8866',
  groups: [],
  axes: [],
  report: (_p, structure) => (structure ? { semanticBuffer: structure.semantic.buffer, semanticPercentile: structure.semantic.percentile } : {}),
  words: (r, style) => (style === 'long' && r.semanticPercentile !== undefined ? [`breaks above the ${r.semanticPercentile}th percentile, buffer ${r.semanticBuffer}`] : []),
  blocks: (ctx, candidates, p) => sentenceRunBlocks(ctx, 'semantic', candidates, p.budgetTokens),
});
