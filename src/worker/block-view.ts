/**
 * A retrieved block with what the page needs to show it without asking again: its
 * document, section path, pages, the spans of its hit sentences, its coherence with the
 * question and the chunk-tree node around it.
 */
import type { RetrievalEngine } from '../core/engine';
import { blockPlace } from '../core/structure/block-place';
import type { ContextBlock } from '../core/types';
import type { BlockView } from './protocol';

export function blockView(engine: RetrievalEngine, b: ContextBlock, query?: string): BlockView {
  const c = engine.corpus;
  const doc = c.docs[b.doc]!;
  const hitSpans: [number, number][] = b.hits
    .map((i) => c.sentences[i]!)
    .map((s) => [Math.max(0, s.start - b.start), Math.min(b.end - b.start, s.end - b.start)] as [number, number])
    .filter(([a, z]) => z > a);
  const parent = engine.enclosingNode(b.sentences.start, b.sentences.end);
  const coherence = query ? engine.blockCoherence(b.sentences.start, b.sentences.end, query) : null;
  return {
    ...b,
    ...(coherence ? { coherence } : {}),
    ...(parent ? { parent: { start: c.sentences[parent.start]!.start, end: c.sentences[parent.end - 1]!.end, level: parent.level, tokens: parent.tokens } } : {}),
    ...blockPlace(c, b.sentences),
    ...(doc.meta.format === 'pptx' || doc.meta.format === 'odp' ? { pageUnit: 'slide' as const } : {}),
    ...ocrOf(doc.ocr, b.start, b.end),
    hitSpans,
  };
}

/** The lowest confidence of the OCR'd paragraphs a block overlaps, if any. */
function ocrOf(spans: readonly { start: number; end: number; confidence: number }[] | undefined, start: number, end: number): { ocrConfidence?: number } {
  let low = Infinity;
  for (const s of spans ?? []) if (s.start < end && s.end > start) low = Math.min(low, s.confidence);
  return low < Infinity ? { ocrConfidence: Math.round(low) } : {};
}
