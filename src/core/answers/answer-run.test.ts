import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../generate/endpoint-types';
import { assemblePrompt } from '../generate/prompt';
import { ApproxTokenCounter } from '../segment/tokens';
import type { AnswerQuestion } from './answer-prompts';
import { answerDifference } from './answer-metrics';
import { planAnswerRun, runAnswerRun, type AnswerGenerator, type AnswerRunSpec } from './answer-run';
import type { HandedContexts } from './contexts';
import { DEFAULT_JUDGE_PROMPTS } from './judge';
import { JUDGE_SETTINGS } from './judge-run';
import { DEFAULT_ANSWER_INSTRUCTIONS } from './prompt';
import { MemoryReplyCache, replyKey } from './reply-cache';
import type { ReplyResult } from './run-replies';

const counter = new ApproxTokenCounter();
const questions: AnswerQuestion[] = [
  { id: 'q0', question: 'Where is the Eiffel Tower?', references: ['Paris'], unanswerable: false, language: 'en' },
  { id: 'q1', question: 'Who painted the ceiling?', references: ['Michelangelo'], unanswerable: false, language: 'en' },
  { id: 'q2', question: 'What colour are the moons of Mars?', references: [], unanswerable: true, language: 'en' },
];
const block = (id: string, text: string, doc: number, start: number) => ({ id, text, docTitle: `Doc ${doc}`, sectionPath: [], doc, start, end: start + text.length, docId: `d${doc}` });
const handed: HandedContexts = {
  blocks: [block('b0', 'The Eiffel Tower is in Paris.', 0, 0), block('b1', 'The ceiling was painted by Michelangelo.', 1, 0), block('b2', 'Trains leave every hour.', 0, 100)],
  contexts: [
    [[0], [1], [2]],
    [[0, 2], [2], [2]],
  ],
};

const userOf = (m: ChatMessage[]) => m.find((x) => x.role === 'user')!.content;

/** Answers from the sources it is given, like a careful model; counts its calls. */
function scriptedGenerator(): AnswerGenerator & { calls: string[] } {
  const calls: string[] = [];
  return {
    model: 'scripted',
    label: 'scripted',
    calls,
    count: (m) => m.reduce((n, x) => n + counter.count(x.content), 0),
    caller: {
      concurrency: 2,
      complete: async (messages): Promise<ReplyResult> => {
        const user = userOf(messages);
        calls.push(user);
        const text = /Eiffel Tower\?/.test(user) && /in Paris/.test(user) ? 'Paris [1].' : /ceiling\?/.test(user) && /Michelangelo/.test(user) ? 'Answer: Michelangelo [1]' : 'I cannot answer from the sources.';
        return { text, finishReason: 'stop', stopped: false };
      },
    },
  };
}

/** Grades by the reference, splits into one statement, supports it when the context has its last word; Michelangelo's statements come back unreadable. */
function scriptedJudge(): AnswerGenerator & { calls: string[] } {
  const calls: string[] = [];
  return {
    model: 'judge',
    label: 'judge',
    calls,
    count: (m) => m.reduce((n, x) => n + counter.count(x.content), 0),
    caller: {
      concurrency: 1,
      complete: async (messages): Promise<ReplyResult> => {
        const user = userOf(messages);
        calls.push(user);
        let text: string;
        if (user.startsWith('Question:') && user.includes('Reference answer(s):')) {
          const ref = /Reference answer\(s\): (.*)\n/.exec(user)![1]!;
          const answer = /Answer to grade: (.*)$/.exec(user)![1]!;
          text = JSON.stringify({ correct: answer.includes(ref), reason: 'compared' });
        } else if (user.startsWith('Question:')) {
          text = /Michelangelo/.test(user) ? 'The answer is fine.' : '```json\n{"statements": ["The Eiffel Tower is in Paris."]}\n```';
        } else {
          text = JSON.stringify({ verdicts: [{ statement: 'The Eiffel Tower is in Paris.', supported: /in Paris/.test(user) }] });
        }
        return { text, finishReason: 'stop', stopped: false };
      },
    },
  };
}

function spec(cache: MemoryReplyCache, generator: AnswerGenerator, judge?: AnswerGenerator): AnswerRunSpec {
  return {
    questions,
    handed,
    orders: ['score'],
    assemble: async (question, blocks) => assemblePrompt(question, blocks, { contextTokens: 4096, answerTokens: 64, counter, instructions: DEFAULT_ANSWER_INSTRUCTIONS }),
    generator,
    settings: { temperature: 0, maxTokens: 64 },
    ...(judge ? { judge: { generator: judge, prompts: DEFAULT_JUDGE_PROMPTS, settings: JUDGE_SETTINGS } } : {}),
    cache,
  };
}

describe('an answer run', () => {
  it('sends each distinct context once, and a repeated run sends nothing', async () => {
    const cache = new MemoryReplyCache();
    const gen = scriptedGenerator();
    const plan = await planAnswerRun(spec(cache, gen));
    // 6 slots; point 1 hands q2 the same block as point 0: 5 distinct prompts.
    expect(plan.slots).toBe(6);
    expect(plan.table.prompts).toHaveLength(5);
    expect(plan.answers).toMatchObject({ requests: 5, cached: 0, calls: 5 });
    expect(plan.table.slots.map((r) => [...r])).toEqual([
      [0, 1, 2],
      [3, 4, 2],
    ]);
    const run = await runAnswerRun(spec(cache, gen), plan);
    expect(gen.calls).toHaveLength(5);
    expect(run.answerRun.progress).toMatchObject({ done: 5, total: 5, cached: 0, calls: 5, failed: 0 });

    const again = scriptedGenerator();
    const plan2 = await planAnswerRun(spec(cache, again));
    expect(plan2.answers).toMatchObject({ requests: 5, cached: 5, calls: 0, promptTokens: 0 });
    expect(plan2.answers.savedPromptTokens).toBe(plan.answers.promptTokens);
    const run2 = await runAnswerRun(spec(cache, again), plan2);
    expect(again.calls).toHaveLength(0);
    expect(run2.results.map((r) => r.metrics)).toEqual(run.results.map((r) => r.metrics));
  });

  it('scores exact match, F1 and abstentions per point, with paired differences', async () => {
    const run = await runAnswerRun(spec(new MemoryReplyCache(), scriptedGenerator()), await planAnswerRun(spec(new MemoryReplyCache(), scriptedGenerator())));
    const [p0, p1] = run.results;
    expect(p0!.metrics).toMatchObject({ answerExact: 1, answerF1: 1, abstention: 1 });
    expect(p0!.counts).toEqual({ questions: 3, asked: 3, answered: 3, failed: 0, unanswerable: 1, abstainedAnswerable: 0, judged: 0, judgeFailed: 0 });
    // Point 1 handed q1 only the trains: the model abstained, which scores 0 on an answerable question.
    expect(p1!.metrics).toMatchObject({ answerExact: 0.5, answerF1: 0.5, abstention: 1 });
    expect(p1!.counts.abstainedAnswerable).toBe(1);
    expect([...p1!.perQuestion.answerExact]).toEqual([1, 0, Number.NaN]);
    const prompts = run.plan.table.prompts;
    expect(p0!.metrics.promptTokens).toBeCloseTo((prompts[0]!.promptTokens + prompts[1]!.promptTokens + prompts[2]!.promptTokens) / 3, 9);
    expect(p0!.metrics.judgeCorrect).toBeNull();
    const d = answerDifference(p0!, p1!, 'answerExact');
    expect(d).toMatchObject({ mean: 0.5 });
    expect(run.outcomes[0]).toMatchObject({ answer: 'Paris.', exact: 1, f1: 1, abstained: false, failed: null });
    expect(run.outcomes[1]!.answer).toBe('Michelangelo');
  });

  it('asks the judge once per distinct answer and context, and leaves an unreadable verdict out of the mean', async () => {
    const judge = scriptedJudge();
    const s = spec(new MemoryReplyCache(), scriptedGenerator(), judge);
    const run = await runAnswerRun(s, await planAnswerRun(s));
    // Round one: the grade and statements of "Paris." (shared by two points) and of "Michelangelo"; round two: two contexts' verdicts on Paris.
    expect(judge.calls).toHaveLength(6);
    const [p0, p1] = run.results;
    expect(p0!.metrics).toMatchObject({ judgeCorrect: 1, faithfulness: 1 });
    expect(p0!.counts).toMatchObject({ judged: 2, judgeFailed: 1 });
    // An abstention on an answerable question is graded incorrect without a call.
    expect(p1!.metrics).toMatchObject({ judgeCorrect: 0.5, faithfulness: 1 });
    expect(run.outcomes[1]!.judge).toMatchObject({ correct: 1, faithfulness: null });
    expect(run.outcomes[1]!.judge!.failed).toMatch(/statements could not be read/);
  });

  it('keeps failed answers out of the means, and asks a failed call again on the next run', async () => {
    const cache = new MemoryReplyCache();
    const gen = scriptedGenerator();
    const flaky: AnswerGenerator = {
      ...gen,
      caller: {
        concurrency: 1,
        complete: async (messages, o) => {
          if (/ceiling\?/.test(userOf(messages))) return { text: '   ', finishReason: 'stop', stopped: false };
          if (/moons/.test(userOf(messages))) throw new Error('HTTP 503 from the server');
          return gen.caller.complete(messages, o);
        },
      },
    };
    const run = await runAnswerRun(spec(cache, flaky), await planAnswerRun(spec(cache, flaky)));
    expect([...run.answerRun.failures.values()]).toEqual(['HTTP 503 from the server']);
    expect(run.outcomes.map((o) => o.failed)).toEqual([null, 'the reply is empty', 'HTTP 503 from the server', null, 'the reply is empty']);
    const [p0] = run.results;
    expect(p0!.counts).toMatchObject({ answered: 1, failed: 2 });
    expect(p0!.metrics).toMatchObject({ answerExact: 1, abstention: null });
    // The server's failure is asked again; the empty replies came back and are kept (the same model would say the same).
    const plan = await planAnswerRun(spec(cache, scriptedGenerator()));
    expect(plan.answers).toMatchObject({ cached: 4, calls: 1 });
  });

  it('keys a reply by model, messages and settings', () => {
    const m: ChatMessage[] = [
      { role: 'system', content: 's' },
      { role: 'user', content: 'u' },
    ];
    const k = replyKey('a', m, { temperature: 0, maxTokens: 64 });
    expect(k).toMatch(/^[0-9a-f]{64}$/);
    expect(replyKey('a', [...m], { temperature: 0, maxTokens: 64 })).toBe(k);
    expect(replyKey('b', m, { temperature: 0, maxTokens: 64 })).not.toBe(k);
    expect(replyKey('a', m, { temperature: 0.7, maxTokens: 64 })).not.toBe(k);
    expect(replyKey('a', [m[0]!, { role: 'user', content: 'u ' }], { temperature: 0, maxTokens: 64 })).not.toBe(k);
  });
});
