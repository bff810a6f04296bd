/**
 * The engine variants an evaluation compares: contextual headers, late-chunked vectors and
 * contextual retrieval, each off and on where asked, else as the engine has it. A sweep runs
 * once per variant (sweep.ts measures the engine as it is); the engine keeps each variant's
 * vectors and indexes, so going back costs nothing. Shared by the worker's evaluation and the
 * CLI's `eval`.
 */
import type { Embedder } from '../embed/embedder';
import { lateChunkingOf } from '../embed/late-chunking';
import type { StructureParams } from '../retrieve/params';
import type { HeaderParams } from '../structure/headers';

export type VariantAxis = 'headers' | 'late' | 'contextual';

/** In the order variants are listed: the first axis changes slowest. */
export const VARIANT_AXES: readonly VariantAxis[] = ['headers', 'late', 'contextual'];

/** One variant: each axis off or on. */
export type EngineVariant = Record<VariantAxis, boolean>;

const AXIS_WORDS: Record<VariantAxis, string> = { headers: 'headers', late: 'late chunking', contextual: 'contextual retrieval' };

/** What switching variants needs of an engine (RetrievalEngine has it). */
export interface VariantEngine {
  readonly structure: Readonly<StructureParams>;
  readonly embedder: Embedder | null;
  setHeaders(headers: HeaderParams): void;
  setVectorVariant(vectors: StructureParams['vectors']): void;
  setContextual?(contextual: boolean): void;
}

/** The variant the engine is in now. */
export function currentVariant(engine: VariantEngine): EngineVariant {
  const s = engine.structure;
  return { headers: s.headers.enabled, late: s.vectors === 'late', contextual: s.contextual };
}

/**
 * Every combination of the axes compared (off before on), the others as the engine has them.
 * Throws before any work when a variant needs late chunking the model cannot do (its reason),
 * or contextual retrieval the engine cannot switch.
 */
export function variantsToCompare(engine: VariantEngine, compare: Partial<Record<VariantAxis, boolean>>): EngineVariant[] {
  let variants: EngineVariant[] = [currentVariant(engine)];
  for (const axis of VARIANT_AXES) {
    if (compare[axis]) variants = variants.flatMap((v) => [false, true].map((on) => ({ ...v, [axis]: on })));
  }
  if (variants.some((v) => v.late)) {
    const late = lateChunkingOf(engine.embedder);
    if (!late.available) throw new Error(late.reason);
  }
  if (compare.contextual && !engine.setContextual) throw new Error('this engine cannot switch contextual retrieval');
  return variants;
}

/** Puts the engine in a variant; only what differs is switched. */
export function applyVariant(engine: VariantEngine, v: EngineVariant): void {
  const now = currentVariant(engine);
  if (v.headers !== now.headers) engine.setHeaders({ ...engine.structure.headers, enabled: v.headers });
  if (v.late !== now.late) engine.setVectorVariant(v.late ? 'late' : 'plain');
  if (v.contextual !== now.contextual) {
    if (!engine.setContextual) throw new Error('this engine cannot switch contextual retrieval');
    engine.setContextual(v.contextual);
  }
}

/** The compared axes of a variant in words ("headers on · late chunking off"); empty when none is compared. */
export function variantLabel(v: EngineVariant, compared: Partial<Record<VariantAxis, boolean>>): string {
  return VARIANT_AXES.filter((a) => compared[a])
    .map((a) => `${AXIS_WORDS[a]} ${v[a] ? 'on' : 'off'}`)
    .join(' · ');
}

/**
 * Runs `run` once in each variant, in order, and puts the engine back as it was afterwards
 * (also when a run throws). Returns the runs' results in the variants' order.
 */
export async function forEachVariant<T>(engine: VariantEngine, variants: readonly EngineVariant[], run: (v: EngineVariant) => Promise<T>): Promise<T[]> {
  const original = currentVariant(engine);
  const out: T[] = [];
  try {
    for (const v of variants) {
      applyVariant(engine, v);
      out.push(await run(v));
    }
  } finally {
    applyVariant(engine, original);
  }
  return out;
}
