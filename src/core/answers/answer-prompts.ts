/**
 * Every (point × block order × question) of a run as a prompt to answer: the point's blocks for
 * the question, in the order, assembled as the generator panel assembles them. Slots that hand
 * over the same blocks in the same order for the same question share one prompt — in a window
 * sweep most do — and identical prompts share one cache key, so each distinct context is sent
 * once.
 */
import type { ChatMessage } from '../generate/endpoint-types';
import type { AssembledPrompt, PromptBlock } from '../generate/prompt';
import { orderBlocks, type BlockOrder } from './block-order';
import type { HandedContexts } from './contexts';
import { chatOf, handedText } from './prompt';
import { replyKey, type ReplySettings } from './reply-cache';
import type { ReplyRequest } from './run-replies';

/** A question as an answer run needs it. */
export interface AnswerQuestion {
  id: string;
  question: string;
  /** Reference answers (any one counts); empty when the set has none (BEIR): judge scores only. */
  references: string[];
  /** The documents do not answer it: a correct reply abstains. */
  unanswerable: boolean;
  /** The language answers are normalised in (its document's). */
  language: string;
  /** Every reference is needed (a compound question: one fact per reference), not any one of them. */
  needsAll?: boolean;
}

/** One answered point: a measured point of the run and a block order. */
export interface AnswerPointRef {
  point: number;
  order: BlockOrder;
}

export interface AnswerPrompt extends ReplyRequest {
  question: number;
  /** Block indices as handed over, in order. */
  blocks: number[];
  /** The sources text as sent (for exports and the drill-down). */
  context: string;
  /** Blocks that did not fit the generator's context. */
  left: number;
}

export interface AnswerTable {
  points: AnswerPointRef[];
  prompts: AnswerPrompt[];
  /** [answer point][question] → index into `prompts`, or -1 where the point has no context for it. */
  slots: Int32Array[];
}

export type Assemble = (question: string, blocks: PromptBlock[]) => Promise<AssembledPrompt>;

export interface BuildOptions {
  questions: readonly AnswerQuestion[];
  handed: HandedContexts;
  /** Which measured points to answer (indices into handed.contexts); default all. */
  points?: readonly number[];
  orders: readonly BlockOrder[];
  assemble: Assemble;
  /** The generator's identity in cache keys ("endpoint <url> model <name>", "model <id>"). */
  model: string;
  settings: ReplySettings;
  signal?: AbortSignal;
}

/** Builds the table; see the module comment. */
export async function buildAnswerPrompts(o: BuildOptions): Promise<AnswerTable> {
  const pointIds = o.points ?? o.handed.contexts.map((_, i) => i);
  const points: AnswerPointRef[] = pointIds.flatMap((point) => o.orders.map((order) => ({ point, order })));
  const prompts: AnswerPrompt[] = [];
  const byContext = new Map<string, number>();
  const slots: Int32Array[] = [];
  for (const ref of points) {
    const row = new Int32Array(o.questions.length).fill(-1);
    const handed = o.handed.contexts[ref.point] ?? [];
    for (let q = 0; q < o.questions.length; q++) {
      const ids = handed[q];
      if (!ids) continue;
      const ordered = orderBlocks(ids.map((i) => ({ i, doc: o.handed.blocks[i]!.doc, start: o.handed.blocks[i]!.start })), ref.order).map((x) => x.i);
      const ctxKey = `${q}|${ordered.join(',')}`;
      let at = byContext.get(ctxKey);
      if (at === undefined) {
        if (o.signal?.aborted) throw new DOMException('the answer run was cancelled', 'AbortError');
        const assembled = await o.assemble(o.questions[q]!.question, ordered.map((i) => o.handed.blocks[i]!));
        const messages: ChatMessage[] = chatOf(assembled);
        at = prompts.length;
        prompts.push({
          key: replyKey(o.model, messages, o.settings),
          messages,
          promptTokens: assembled.promptTokens,
          question: q,
          blocks: ordered,
          context: handedText(assembled.user),
          left: assembled.left.length,
        });
        byContext.set(ctxKey, at);
      }
      row[q] = at;
    }
    slots.push(row);
  }
  return { points, prompts, slots };
}

/** The distinct requests of a table (prompts with the same key are one request). */
export function distinctRequests(prompts: readonly AnswerPrompt[]): AnswerPrompt[] {
  const seen = new Set<string>();
  return prompts.filter((p) => (seen.has(p.key) ? false : (seen.add(p.key), true)));
}

/**
 * A labelled set's questions as an answer run asks them: the answerable ones in the set's order,
 * then the unanswerable ones (the order the run's contexts are collected in). A question's
 * language is its first target document's; without one, the corpus's most common language.
 */
export function answerQuestionsOf(set: { questions: readonly { id: string; question: string; answers: readonly string[]; targets: readonly { doc: string }[]; needs?: 'all' }[]; unanswerable?: readonly { id: string; question: string }[] }, docs: readonly { id: string; language: string }[]): AnswerQuestion[] {
  const languageOf = new Map(docs.map((d) => [d.id, d.language]));
  const counts = new Map<string, number>();
  for (const d of docs) counts.set(d.language, (counts.get(d.language) ?? 0) + 1);
  const common = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'en';
  return [
    ...set.questions.map((q) => ({ id: q.id, question: q.question, references: [...q.answers], unanswerable: false, language: languageOf.get(q.targets[0]?.doc ?? '') ?? common, ...(q.needs === 'all' && q.answers.length > 1 ? { needsAll: true } : {}) })),
    ...(set.unanswerable ?? []).map((q) => ({ id: q.id, question: q.question, references: [], unanswerable: true, language: common })),
  ];
}
