/**
 * The question generator's one request to the lab worker (joined into LabApi in protocol.ts):
 * the run's plan over the worker's corpus (seeded passages, calls, tokens, time). The model
 * itself is called from the page (the chosen generator: the generation worker or an
 * endpoint), like answers are.
 */
import type { GenerationPlan, PlanOptions } from '../core/questions/generate';
import type { RpcMethod } from '../rpc/wire';

/** What a prompt needs to know about a passage's document. */
export interface PassageDocInfo {
  title: string;
  language: string;
}

export interface QuestionPlan extends GenerationPlan {
  /** Title (its contextual title when set) and language of each document an item comes from, by document index. */
  docs: Record<number, PassageDocInfo>;
}

export type QuestionGenerationApi = {
  /** A generation run's plan (core/questions: round-robin over documents and sections, seeded). */
  questionPassages: RpcMethod<{ options: PlanOptions }, QuestionPlan>;
};
