/** The unit kinds contexts are written for (a light module: strategies and the CLI's options read it without the store's schema). */
import type { UnitKind } from '../retrieve/param-types';

/** Semantic chunks exist only once found, so they have none. */
export const CONTEXT_UNIT_KINDS = ['sentence', 'leaf', 'chunk', 'packed'] as const satisfies readonly UnitKind[];
export type ContextUnitKind = (typeof CONTEXT_UNIT_KINDS)[number];

export function isContextUnitKind(k: unknown): k is ContextUnitKind {
  return typeof k === 'string' && (CONTEXT_UNIT_KINDS as readonly string[]).includes(k);
}
