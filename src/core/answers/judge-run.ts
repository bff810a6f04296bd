/**
 * The judge's calls for a table of answers, in two rounds: first each distinct answer's grade
 * (answerable questions with references) and its statements, then each (context, statements)
 * pair's verdicts. An abstention on an answerable question is graded incorrect and has no
 * statements without a call; a failed answer is not judged. Identical requests share one call
 * and the reply cache, like answers.
 */
import type { AnswerQuestion, AnswerTable } from './answer-prompts';
import type { AnswerOutcome, JudgeOutcome } from './answer-metrics';
import { correctMessages, CORRECT_FORMAT, faithfulnessOf, readCorrect, readStatements, readVerdicts, statementMessages, STATEMENTS_FORMAT, verdictMessages, VERDICTS_FORMAT, type JudgePrompts } from './judge';
import { replyKey, type ReplySettings } from './reply-cache';
import type { ReplyRequest, StoredReply } from './run-replies';

export interface JudgeSpec {
  prompts: JudgePrompts;
  /** The judge's identity in cache keys. */
  model: string;
  settings: ReplySettings;
}

/** Judge settings: greedy, and room for a list of statements. */
export const JUDGE_SETTINGS: ReplySettings = { temperature: 0, maxTokens: 512 };

function request(judge: JudgeSpec, messages: ReplyRequest['messages'], responseFormat: Record<string, unknown>, count: (m: ReplyRequest['messages']) => number): ReplyRequest {
  return { key: replyKey(judge.model, messages, judge.settings), messages, promptTokens: count(messages), responseFormat };
}

export interface FirstRound {
  requests: ReplyRequest[];
  /** Prompt index → the keys of its grade and statements requests (absent when not asked). */
  keys: Map<number, { correct?: string; statements?: string }>;
}

/** Round one: grades and statements. `count` estimates a request's prompt tokens. */
export function firstJudgeRound(table: AnswerTable, questions: readonly AnswerQuestion[], outcomes: readonly AnswerOutcome[], judge: JudgeSpec, count: (m: ReplyRequest['messages']) => number): FirstRound {
  const requests: ReplyRequest[] = [];
  const keys: FirstRound['keys'] = new Map();
  outcomes.forEach((o, i) => {
    if (o.failed !== null || o.answer === null || o.abstained) return;
    const q = questions[table.prompts[i]!.question]!;
    const k: { correct?: string; statements?: string } = {};
    if (!q.unanswerable && q.references.length) {
      const r = request(judge, correctMessages(judge.prompts, q.question, q.references, o.answer, q.needsAll), CORRECT_FORMAT, count);
      requests.push(r);
      k.correct = r.key;
    }
    const s = request(judge, statementMessages(judge.prompts, q.question, o.answer), STATEMENTS_FORMAT, count);
    requests.push(s);
    k.statements = s.key;
    keys.set(i, k);
  });
  return { requests, keys };
}

export interface SecondRound {
  requests: ReplyRequest[];
  /** Prompt index → its statements and the key of their verdicts request (none without statements). */
  verdicts: Map<number, { statements: string[]; key?: string }>;
  /** Prompt index → why its statements could not be had. */
  failed: Map<number, string>;
}

/** Round two: the verdicts on each answer's statements against its own context. */
export function secondJudgeRound(table: AnswerTable, first: FirstRound, replies: ReadonlyMap<string, StoredReply>, failures: ReadonlyMap<string, string>, judge: JudgeSpec, count: (m: ReplyRequest['messages']) => number): SecondRound {
  const requests: ReplyRequest[] = [];
  const verdicts: SecondRound['verdicts'] = new Map();
  const failed: SecondRound['failed'] = new Map();
  for (const [i, k] of first.keys) {
    if (!k.statements) continue;
    const reply = replies.get(k.statements);
    if (!reply) {
      failed.set(i, `the judge's statements call failed: ${failures.get(k.statements) ?? 'not made'}`);
      continue;
    }
    const statements = readStatements(reply.text);
    if (!statements) {
      failed.set(i, `the judge's statements could not be read: "${reply.text.slice(0, 80)}"`);
      continue;
    }
    if (!statements.length) {
      verdicts.set(i, { statements });
      continue;
    }
    const r = request(judge, verdictMessages(judge.prompts, table.prompts[i]!.context, statements), VERDICTS_FORMAT, count);
    requests.push(r);
    verdicts.set(i, { statements, key: r.key });
  }
  return { requests, verdicts, failed };
}

/** The judge's outcome for every judged prompt. Abstentions on answerable questions are graded 0 without a call. */
export function judgeOutcomes(table: AnswerTable, questions: readonly AnswerQuestion[], outcomes: readonly AnswerOutcome[], first: FirstRound, second: SecondRound, replies: ReadonlyMap<string, StoredReply>, failures: ReadonlyMap<string, string>): Map<number, JudgeOutcome> {
  const out = new Map<number, JudgeOutcome>();
  outcomes.forEach((o, i) => {
    if (o.failed !== null) return;
    const q = questions[table.prompts[i]!.question]!;
    if (o.abstained) {
      out.set(i, { correct: !q.unanswerable && q.references.length ? 0 : null, faithfulness: null });
      return;
    }
    const k = first.keys.get(i);
    if (!k) return;
    const j: JudgeOutcome = {};
    const problems: string[] = [];
    if (k.correct) {
      const r = replies.get(k.correct);
      const grade = r ? readCorrect(r.text) : null;
      if (grade) j.correct = grade.correct ? 1 : 0;
      else {
        j.correct = null;
        problems.push(r ? `the judge's grade could not be read: "${r.text.slice(0, 80)}"` : `the judge's grade call failed: ${failures.get(k.correct) ?? 'not made'}`);
      }
    } else j.correct = null;
    const v = second.verdicts.get(i);
    if (second.failed.has(i)) {
      j.faithfulness = null;
      problems.push(second.failed.get(i)!);
    } else if (v && !v.key) j.faithfulness = null;
    else if (v?.key) {
      const r = replies.get(v.key);
      const verdicts = r ? readVerdicts(r.text, v.statements.length) : null;
      if (verdicts) j.faithfulness = faithfulnessOf(verdicts);
      else {
        j.faithfulness = null;
        problems.push(r ? `the judge's verdicts could not be read (${v.statements.length} statements): "${r.text.slice(0, 80)}"` : `the judge's verdicts call failed: ${failures.get(v.key) ?? 'not made'}`);
      }
    }
    if (problems.length) j.failed = problems.join('; ');
    out.set(i, j);
  });
  return out;
}
