import { describe, expect, it } from 'vitest';
import { ASSUMED_RATE, generateQuestions, planGeneration, REPLY_TOKENS, STOP_AFTER_FAILURES, type CompleteFn } from './generate';
import { QUESTION_RESPONSE_FORMAT, RESPONSE_FORMATS } from './prompts';
import { documentPassages, type PassageItem } from './sample';
import { towerCorpus } from './test-corpus';

const corpus = towerCorpus();
const P = [...documentPassages(corpus, 0, 30, 5), ...documentPassages(corpus, 1, 30, 5)];
const single = (index: number, p: number): PassageItem => ({ index, type: 'specific', passages: [P[p]!] });

/** Each item's reply, in order; an Error is thrown as a failed call. */
const SCRIPT: (string | Error)[] = [
  '{"question": "How many steps lead to the second floor?", "answer": "674 steps"}',
  'Here you go:\n```json\n{"question": "When did the Golden Gate Bridge open?", "answer": "May 1937"}\n```',
  '{"question": "", "answer": "unknown"}',
  '{"question": "How many steps lead up to the second floor?", "answer": "674"}',
  '{"question": "The tower was designed by the engineering firm of whom?", "answer": "Gustave Eiffel"}',
  '{"question": "Who added the arches?", "answer": "Gustave Eiffel built them"}',
  'I cannot write a question for this.',
  new Error('the server at http://127.0.0.1/v1/chat/completions failed (HTTP 500)'),
  '{"question": "", "answer": "Stephen Sauvestre"}',
  '{"question": "How many years before the World Fair were the first sketches drawn?", "answer": "1884"}',
];
const ITEMS: PassageItem[] = [single(0, 3), single(1, 4), single(2, 0), single(3, 3), single(4, 1), single(5, 2), single(6, 0), single(7, 1), single(8, 2), { index: 9, type: 'multi-passage', passages: [P[0]!, P[1]!] }];

function scripted(script: (string | Error)[]) {
  const calls: { messages: unknown; responseFormat: unknown }[] = [];
  const complete: CompleteFn = async (messages, { responseFormat }) => {
    const r = script[calls.length]!;
    calls.push({ messages, responseFormat });
    if (r instanceof Error) throw r;
    return r;
  };
  return { calls, complete };
}

describe('generateQuestions', () => {
  it('keeps or rejects each reply with its reason', async () => {
    const { calls, complete } = scripted(SCRIPT);
    const progress: number[] = [];
    const r = await generateQuestions({ corpus, items: ITEMS, complete, model: 'mock', seed: 7, onProgress: (p) => progress.push(p.done) });
    expect(r.kept.map((q) => [q.id, q.question, q.answers[0]!.text, q.type, q.copyShare])).toEqual([
      ['gen-7-1', 'How many steps lead to the second floor?', '674 steps', 'specific', 0.75],
      ['gen-7-2', 'When did the Golden Gate Bridge open?', 'May 1937', 'specific', 0.75],
      ['gen-7-10', 'How many years before the World Fair were the first sketches drawn?', '1884', 'multi-passage', 0.6667],
    ]);
    expect(r.rejected.map((x) => x.reason)).toEqual(['dont-know', 'duplicate', 'copies-passage', 'answer-not-found', 'not-json', 'error', 'no-question']);
    expect(r.rejected.map((x) => x.detail)).toEqual([
      'the model said the passage has no answer ("unknown")',
      'near-duplicate of "How many steps lead to the second floor?" (word overlap 0.89 > 0.70)',
      '100 % of its content words are copied from the passage (> 80 %)',
      'the answer "Gustave Eiffel built them" is not in the passage (best match 0.00 < 0.80)',
      'the reply is not JSON: "I cannot write a question for this."',
      'the server at http://127.0.0.1/v1/chat/completions failed (HTTP 500)',
      'the reply has an answer but no question',
    ]);
    // The gold span is the answer's place in its document; the source records the passages.
    const bridge = corpus.docs[1]!;
    const q = r.kept[1]!;
    expect(bridge.text.slice(q.answers[0]!.start, q.answers[0]!.end)).toBe('May 1937');
    expect(q.source).toEqual({ kind: 'generated', model: 'mock', passage: [{ doc: bridge.id, start: P[4]!.start, end: P[4]!.end, text: P[4]!.text }] });
    expect(r.kept[2]!.source.passage).toHaveLength(2);
    // A multi-passage reply with one answer (an old-style prompt, a model ignoring the schema) keeps one span, as any question.
    expect([r.kept[2]!.answers.length, r.kept[2]!.needs]).toEqual([1, undefined]);
    expect(calls[9]!.responseFormat).toEqual(RESPONSE_FORMATS['multi-passage']);
    expect(r.run).toMatchObject({ model: 'mock', asked: 10, kept: 3, seed: 7, rejected: { 'dont-know': 1, duplicate: 1, 'copies-passage': 1, 'answer-not-found': 1, 'not-json': 1, error: 1, 'no-question': 1 } });
    expect(r.cancelled).toBe(false);
    expect(r.error).toBeUndefined();
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(r.progress).toMatchObject({ done: 10, total: 10, kept: 3, calls: 10, leftMs: 0 });
    // Each call asks with structured outputs and carries the passage.
    expect(calls[0]!.responseFormat).toEqual(QUESTION_RESPONSE_FORMAT);
    expect(JSON.stringify(calls[0]!.messages)).toContain('Visitors can climb 674 steps');
    expect(JSON.stringify(calls[9]!.messages)).toContain('Passage B');
  });

  it('a multi-passage question quotes one fact per passage: both are its gold spans and it needs both', async () => {
    const item = (index: number): PassageItem => ({ index, type: 'multi-passage', passages: [P[0]!, P[1]!] });
    const { calls, complete } = scripted([
      '{"question": "How many years lay between the first drawings and the completion of the Paris landmark?", "answer_a": "March 1889", "answer_b": "1884"}',
      // The facts swapped: each is found in the other passage.
      '```json\n{"question": "Which metal was used, and who ran the design office?", "answer_a": "Gustave Eiffel", "answer_b": "wrought iron"}\n```',
      '{"question": "How heavy is it and who painted it?", "answer_a": "7,300 tonnes", "answer_b": "Claude Monet"}',
      '{"question": "What links its weight to its designer?", "answer_a": "7,300 tonnes", "answer_b": "unknown"}',
    ]);
    const r = await generateQuestions({ corpus, items: [item(0), item(1), item(2), item(3)], complete, model: 'mock', seed: 3 });
    const tower = corpus.docs[0]!;
    expect(r.kept.map((q) => [q.id, q.answers.map((a) => a.text), q.needs, q.type])).toEqual([
      ['gen-3-1', ['March 1889', '1884'], 'all', 'multi-passage'],
      ['gen-3-2', ['Gustave Eiffel', 'wrought iron'], 'all', 'multi-passage'],
    ]);
    for (const q of r.kept) for (const a of q.answers) expect(tower.text.slice(a.start, a.end)).toBe(a.text);
    expect(r.rejected.map((x) => [x.reason, x.detail, x.answer])).toEqual([
      ['answer-not-found', 'the answer from passage B "Claude Monet" is not in the passages (best match 0.00 < 0.80)', '7,300 tonnes … Claude Monet'],
      ['dont-know', 'the model said the passage has no answer ("unknown")', '7,300 tonnes … unknown'],
    ]);
    expect(calls.every((c) => c.responseFormat === RESPONSE_FORMATS['multi-passage'])).toBe(true);
  });

  it('does not keep a question that duplicates one already in the set', async () => {
    const existing = [{ id: 'm1', question: 'How many steps lead to the second floor', answers: [], source: { kind: 'marked' as const } }];
    const r = await generateQuestions({ corpus, items: ITEMS.slice(0, 1), complete: scripted(SCRIPT).complete, model: 'mock', existing });
    expect(r.rejected.map((x) => x.reason)).toEqual(['duplicate']);
  });

  it('on cancel returns what was kept', async () => {
    const ctrl = new AbortController();
    const { complete } = scripted(SCRIPT);
    const r = await generateQuestions({ corpus, items: ITEMS, complete, model: 'mock', signal: ctrl.signal, onProgress: (p) => p.done === 2 && ctrl.abort() });
    expect(r.kept.map((q) => q.answers[0]!.text)).toEqual(['674 steps', 'May 1937']);
    expect(r.cancelled).toBe(true);
    expect(r.run).toMatchObject({ asked: 2, kept: 2, cancelled: true });
  });

  it('waits at the pause gate before each call', async () => {
    let open!: () => void;
    let gateCalls = 0;
    const gate = () => {
      gateCalls++;
      return gateCalls === 2 ? new Promise<void>((r) => (open = r)) : Promise.resolve();
    };
    const { calls, complete } = scripted(SCRIPT);
    const running = generateQuestions({ corpus, items: ITEMS.slice(0, 3), complete, model: 'mock', gate });
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toHaveLength(1);
    open();
    const r = await running;
    expect(calls).toHaveLength(3);
    expect(r.progress.done).toBe(3);
  });

  it('stops with one message when the first calls all fail', async () => {
    const fail = new Error('the endpoint at http://127.0.0.1:9/v1/chat/completions refused the key (HTTP 401)');
    const { calls, complete } = scripted(Array(10).fill(fail));
    const r = await generateQuestions({ corpus, items: ITEMS, complete, model: 'mock' });
    expect(STOP_AFTER_FAILURES).toBe(3);
    expect(calls).toHaveLength(3);
    expect(r.error).toBe(`the first 3 calls all failed, so the run stopped: ${fail.message}`);
    expect(r.rejected.map((x) => x.reason)).toEqual(['error', 'error', 'error']);
  });

  it('goes on after a failed call once one has succeeded, and can skip structured outputs', async () => {
    const { calls, complete } = scripted([SCRIPT[0]!, new Error('a'), new Error('b'), new Error('c'), SCRIPT[1]!]);
    const r = await generateQuestions({ corpus, items: [ITEMS[0]!, ITEMS[2]!, ITEMS[3]!, ITEMS[4]!, ITEMS[1]!], complete, model: 'mock', structured: false });
    expect(r.kept).toHaveLength(2);
    expect(r.error).toBeUndefined();
    expect(calls[0]!.responseFormat).toBeUndefined();
  });
});

describe('planGeneration', () => {
  it('states passages, calls, tokens and time before starting', () => {
    const plan = planGeneration(corpus, { n: 4, seed: 1, maxTokens: 30, minTokens: 5, types: ['specific', 'multi-passage'] });
    expect(plan.calls).toBe(4);
    expect(plan.passages).toBe(5);
    expect(plan.replyTokens).toBe(4 * REPLY_TOKENS);
    // Passage tokens 30 + (27 + 8) + 29 + 23, plus each template's characters / 4 (171 specific, 214 multi-passage).
    expect(plan.promptTokens).toBe(117 + 3 * 171 + 214);
    expect(plan.rate).toBe('assumed');
    expect(plan.seconds).toBe(Math.round(plan.promptTokens / ASSUMED_RATE.promptTokensPerSecond + plan.replyTokens / ASSUMED_RATE.replyTokensPerSecond));
    const measured = planGeneration(corpus, { n: 4, seed: 1, maxTokens: 30, minTokens: 5, types: ['specific', 'multi-passage'], rate: { promptTokensPerSecond: 1000, replyTokensPerSecond: 10 } });
    expect(measured).toMatchObject({ rate: 'measured', seconds: Math.round(plan.promptTokens / 1000 + 24) });
  });
});
