/** The worker's side of question generation: the run's plan over the corpus, with its documents' titles. */
import type { Corpus } from '../core/structure/corpus';
import { planGeneration, type PlanOptions } from '../core/questions/generate';
import type { QuestionPlan } from './question-generation-protocol';

/** Largest run the page may ask for: a bound on one message's size, not a quality limit. */
export const MAX_ITEMS = 2000;

export function questionPassages(corpus: Corpus, options: PlanOptions): QuestionPlan {
  // The worker trusts no message: sizes are clamped, the seed made an integer.
  const n = Math.max(0, Math.min(MAX_ITEMS, Math.floor(Number(options.n) || 0)));
  const seed = Math.floor(Number(options.seed) || 0);
  const plan = planGeneration(corpus, { ...options, n, seed });
  const docs: QuestionPlan['docs'] = {};
  for (const item of plan.items) {
    for (const p of item.passages) {
      const d = corpus.docs[p.doc]!;
      docs[p.doc] ??= { title: d.context?.title ?? d.title, language: d.language };
    }
  }
  return { ...plan, docs };
}
