import { CONTEXT_UNIT_KINDS, type ContextUnitKind } from '../context/unit-kinds';
import type { ContextBlock } from '../types';
import { defineGroup, defineStrategy } from './types';

const KIND_WORDS: Record<ContextUnitKind, string> = { sentence: 'sentences', leaf: 'leaves', chunk: 'naive chunks', packed: 'sentence-packed chunks' };

/** Which units the Contextual chunks column retrieves (their contexts are written per kind). */
export const CONTEXTUAL_PARAMS = defineGroup({
  key: 'contextual',
  defaults: { unit: 'chunk' as ContextUnitKind },
  fields: [{ key: 'unit', kind: 'choice', values: CONTEXT_UNIT_KINDS, url: 'cu', label: 'Contextual units', hint: 'the units whose contexts are written and retrieved' }],
  cli: {
    options: { 'context-unit': { type: 'string' } },
    help: [`  --context-unit K      units of the contextual column: ${CONTEXT_UNIT_KINDS.join(', ')} (default chunk)`],
    read(values, d) {
      const v = values['context-unit'];
      if (v === undefined) return d;
      if (typeof v !== 'string' || !(CONTEXT_UNIT_KINDS as readonly string[]).includes(v)) throw new RangeError(`--context-unit must be ${CONTEXT_UNIT_KINDS.join(', ')}, got "${String(v)}"`);
      return { unit: v as ContextUnitKind };
    },
  },
  fromReport: (q) => ((CONTEXT_UNIT_KINDS as readonly unknown[]).includes(q.contextUnit) ? { unit: q.contextUnit as ContextUnitKind } : null),
});

/**
 * Contextual chunks (Anthropic's contextual retrieval): units retrieved by their text with a
 * model-written situating context first — for BM25 and for the vectors alike — whatever the
 * structure's contextual switch says. Each retrieved unit is a block that hands over its context
 * (counted in its tokens) and its text; a unit without a context is retrieved and handed over as
 * plain text. Those that do not fit the budget are skipped.
 */
export const contextual = defineStrategy({
  name: 'contextual',
  label: 'Contextual chunks',
  unit: 'chunk',
  retrieves: (p) => ({ kind: p.contextual.unit, contextual: true }),
  blockWords: 'the unit with its situating context',
  colour: '#0077BB',
  groups: [CONTEXTUAL_PARAMS],
  axes: [],
  report: (p) => ({ contextUnit: p.contextual.unit }),
  words: (r) => (typeof r.contextUnit === 'string' && r.contextUnit in KIND_WORDS ? [`contexts on ${KIND_WORDS[r.contextUnit as ContextUnitKind]}`] : []),
  blocks(ctx, candidates, p) {
    const kind = p.contextual.unit;
    const out: ContextBlock[] = [];
    let used = 0;
    for (const c of candidates) {
      const context = ctx.unitContext(kind, c.id);
      const contextCost = context ? ctx.headerCost(context.text) : 0;
      let block: ContextBlock;
      if (kind === 'chunk') {
        // Naive chunks ignore sentence bounds: the block is the chunk's own span, as in the baseline.
        const ch = ctx.chunks[c.id]!;
        const header = ctx.header(ch.sentences.start, ch.sentences.end);
        block = { id: `contextual:${ch.doc}:${ch.start}-${ch.end}`, doc: ch.doc, sentences: { ...ch.sentences }, start: ch.start, end: ch.end, text: ch.text, ...(header ? { header } : {}), hits: [], score: c.score, tokens: ch.tokens + ctx.headerCost(header), provenance: ctx.provenance('chunk', [c], {}) };
      } else {
        const u = ctx.unitSpan(kind, c.id);
        block = ctx.block({ strategy: 'contextual', unit: kind, start: u.start, end: u.end, hits: [c], score: c.score, hitSentences: kind === 'sentence' ? [c.id] : [] });
      }
      const cost = block.tokens + contextCost;
      if (p.budgetTokens !== null && used + cost > p.budgetTokens) continue;
      used += cost;
      out.push(context ? { ...block, tokens: cost, context: { ...context } } : block);
    }
    return out;
  },
});
