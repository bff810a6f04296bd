/**
 * Routing precision, as the issue defines it: for a question whose answer only one tool's own
 * retrieval has in its context (each tool alone: its retriever, its document), the right route
 * is that tool; routing precision is the share of such questions routed there. For the router,
 * "routed there" is its one choice; for sub-questions, that some sub-question went to it.
 * Questions that no tool, or several tools, find are not counted: their route cannot be wrong
 * or right by this measure. Measured per tool set, so descriptions can be compared.
 */
import type { Rewrite } from './rewrites';

/** Per question: the one tool whose retrieval has the answer in its context, else null. `found[tool][q]`. */
export function rightRoutes(found: ReadonlyMap<string, readonly boolean[]>, questions: number): (string | null)[] {
  const out: (string | null)[] = [];
  for (let q = 0; q < questions; q++) {
    const tools = [...found].filter(([, f]) => f[q]).map(([t]) => t);
    out.push(tools.length === 1 ? tools[0]! : null);
  }
  return out;
}

/** The tools a rewrite sent the question to (none for other transformations or a fallback). */
export function routedTools(r: Rewrite | undefined): string[] {
  if (!r) return [];
  if (r.kind === 'router') return [r.tool];
  if (r.kind === 'subquestions') return [...new Set(r.subquestions.map((s) => s.tool))];
  return [];
}

export interface RoutingPrecision {
  /** Questions with exactly one right tool. */
  cases: number;
  correct: number;
  /** correct / cases; null without cases. */
  precision: number | null;
  /** Per right tool: cases and correct. */
  byTool: Record<string, { cases: number; correct: number }>;
}

export function routingPrecision(right: readonly (string | null)[], routed: readonly string[][]): RoutingPrecision {
  let cases = 0;
  let correct = 0;
  const byTool: RoutingPrecision['byTool'] = {};
  right.forEach((tool, q) => {
    if (!tool) return;
    cases++;
    const t = (byTool[tool] ??= { cases: 0, correct: 0 });
    t.cases++;
    if (routed[q]?.includes(tool)) {
      correct++;
      t.correct++;
    }
  });
  return { cases, correct, precision: cases ? correct / cases : null, byTool };
}
