import { SHARED_DATA } from '../../node/paths';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readBeir } from './beir';
import { DatasetError, spanTargets, type EvalQuestion, type Target } from './dataset';
import { documentFromText } from '../documents/load';
import { ApproxTokenCounter } from '../segment/tokens';
import { buildCorpus } from '../structure/corpus';
import { bootstrapMean } from './bootstrap';
import { contextPrecision, covers, dedupeByDoc, goldRegions, meanMetrics, metricIntervals, normalizeAnswer, scoreQuestion, type JudgedBlock, type Metrics } from './metrics';
import { readSquad } from './squad';

function block(doc: string, start: number, end: number, text = '', tokens = 10): JudgedBlock {
  return { doc, start, end, text, tokens };
}

function question(targets: Target[], answers: string[] = []): EvalQuestion {
  return { id: 'q', question: '?', answers, targets };
}

describe('covers', () => {
  const t: Target = { doc: 'A', grade: 1, spans: [{ start: 15, end: 25 }] };
  it('needs the whole answer span inside the block', () => {
    expect(covers(block('A', 10, 30), t)).toBe(true);
    expect(covers(block('A', 15, 25), t)).toBe(true);
    // Blocks that cut the span in half do not count.
    expect(covers(block('A', 10, 20), t)).toBe(false);
    expect(covers(block('A', 20, 40), t)).toBe(false);
    expect(covers(block('A', 16, 25), t)).toBe(false);
    expect(covers(block('A', 15, 24), t)).toBe(false);
    // Another document never counts.
    expect(covers(block('B', 0, 100), t)).toBe(false);
  });
  it('any one of several spans is enough', () => {
    const two: Target = { doc: 'A', grade: 1, spans: [{ start: 5, end: 8 }, { start: 50, end: 60 }] };
    expect(covers(block('A', 45, 70), two)).toBe(true);
    expect(covers(block('A', 7, 55), two)).toBe(false);
  });
  it('a document-level target (no spans) is held by any block of its document', () => {
    const d: Target = { doc: 'A', grade: 1 };
    expect(covers(block('A', 0, 1), d)).toBe(true);
    expect(covers(block('B', 0, 1000), d)).toBe(false);
  });
});

describe('scoreQuestion', () => {
  it('relevant target first found at block 3', () => {
    const q = question([{ doc: 'A', grade: 1, spans: [{ start: 100, end: 110 }] }]);
    const blocks = [block('A', 0, 50), block('B', 90, 200), block('A', 95, 120), block('A', 100, 110), block('A', 200, 300)];
    const m = scoreQuestion(q, blocks);
    expect(m.hitAt1).toBe(0);
    expect(m.hitAt5).toBe(1);
    expect(m.mrr).toBeCloseTo(1 / 3, 12);
    expect(m.ndcg10).toBeCloseTo(1 / Math.log2(4), 12);
    expect(m.ndcg10).toBeCloseTo(0.5, 12);
    expect(m.recallAt5).toBe(1);
    expect(m.meanContextTokens).toBe(50);
  });

  it('found at rank 6: a hit@10 for nDCG but not hit@5', () => {
    const q = question([{ doc: 'A', grade: 1, spans: [{ start: 0, end: 5 }] }]);
    const blocks = [...Array.from({ length: 5 }, () => block('B', 0, 10)), block('A', 0, 10)];
    const m = scoreQuestion(q, blocks);
    expect(m).toMatchObject({ hitAt1: 0, hitAt5: 0, recallAt5: 0 });
    expect(m.mrr).toBeCloseTo(1 / 6, 12);
    expect(m.ndcg10).toBeCloseTo(1 / Math.log2(7), 12);
  });

  it('beyond rank 10 nDCG@10 is 0 but MRR still counts', () => {
    const q = question([{ doc: 'A', grade: 1 }]);
    const blocks = [...Array.from({ length: 11 }, () => block('B', 0, 10)), block('A', 0, 10)];
    const m = scoreQuestion(q, blocks);
    expect(m.ndcg10).toBe(0);
    expect(m.mrr).toBeCloseTo(1 / 12, 12);
  });

  it('two graded targets (grades 2 and 1) found at ranks 2 and 1: nDCG by hand', () => {
    const q = question([
      { doc: 'A', grade: 2 },
      { doc: 'B', grade: 1 },
    ]);
    const m = scoreQuestion(q, [block('B', 0, 10), block('A', 0, 10), block('C', 0, 10)]);
    // DCG = 2/log2(3) + 1/log2(2); ideal = 2/log2(2) + 1/log2(3).
    const dcg = 2 / Math.log2(3) + 1;
    const ideal = 2 + 1 / Math.log2(3);
    expect(m.ndcg10).toBeCloseTo(dcg / ideal, 12);
    expect(m.ndcg10).toBeCloseTo(0.859719, 5);
    expect(m.hitAt1).toBe(1);
    expect(m.mrr).toBe(1);
    expect(m.recallAt5).toBe(1);
  });

  it('recall@5 with two targets, one found', () => {
    const q = question([
      { doc: 'A', grade: 1 },
      { doc: 'B', grade: 1 },
    ]);
    const m = scoreQuestion(q, [block('C', 0, 1), block('A', 0, 1)]);
    expect(m.recallAt5).toBe(0.5);
    expect(m.hitAt5).toBe(1);
    expect(m.mrr).toBe(0.5);
    // DCG = 1/log2(3); ideal = 1 + 1/log2(3).
    expect(m.ndcg10).toBeCloseTo(1 / Math.log2(3) / (1 + 1 / Math.log2(3)), 12);
  });

  it('a target found in several blocks counts once, at its first block', () => {
    const q = question([{ doc: 'A', grade: 1 }]);
    const m = scoreQuestion(q, [block('A', 0, 1), block('A', 5, 6), block('A', 9, 10)]);
    expect(m.ndcg10).toBe(1);
    expect(m.recallAt5).toBe(1);
  });

  it('nothing found: all zeros, tokens still counted', () => {
    const q = question([{ doc: 'A', grade: 1, spans: [{ start: 0, end: 5 }] }], ['gold']);
    const m = scoreQuestion(q, [block('B', 0, 10, 'nothing here', 7)]);
    expect(m).toEqual({ hitAt1: 0, hitAt5: 0, answerInContext: 0, recallAt5: 0, mrr: 0, ndcg10: 0, contextPrecision: 0, meanContextTokens: 7 });
    expect(scoreQuestion(q, [])).toEqual({ hitAt1: 0, hitAt5: 0, answerInContext: 0, recallAt5: 0, mrr: 0, ndcg10: 0, contextPrecision: 0, meanContextTokens: 0 });
  });

  it('answer-in-context normalises case and whitespace only', () => {
    const t: Target = { doc: 'A', grade: 1, spans: [{ start: 1000, end: 1001 }] };
    const ctx = [block('A', 0, 10, 'It happened in New\n  York City in 1990.')];
    expect(scoreQuestion(question([t], ['new york']), ctx).answerInContext).toBe(1);
    expect(scoreQuestion(question([t], ['NEW   YORK city']), ctx).answerInContext).toBe(1);
    expect(scoreQuestion(question([t], ['Boston', '  new york ']), ctx).answerInContext).toBe(1);
    // Nothing else is stripped: punctuation and articles must match as written.
    expect(scoreQuestion(question([t], ['New York, City']), ctx).answerInContext).toBe(0);
    expect(scoreQuestion(question([t], ['the New York City']), ctx).answerInContext).toBe(0);
    expect(scoreQuestion(question([t], ['1990s']), ctx).answerInContext).toBe(0);
    // The answer string may be found although no block holds the span (and vice versa).
    const m = scoreQuestion(question([t], ['york']), ctx);
    expect(m.answerInContext).toBe(1);
    expect(m.hitAt5).toBe(0);
  });

  it('answer-in-context: an answer never straddles two blocks', () => {
    const t: Target = { doc: 'A', grade: 1, spans: [{ start: 0, end: 1 }] };
    const ctx = [block('A', 0, 3, 'New'), block('A', 40, 44, 'York')];
    // Two blocks far apart in the document do not make "New York" appear in the context.
    expect(scoreQuestion(question([t], ['New York']), ctx).answerInContext).toBe(0);
    expect(scoreQuestion(question([t], ['NewYork']), ctx).answerInContext).toBe(0);
    expect(scoreQuestion(question([t], ['york']), ctx).answerInContext).toBe(1);
  });

  it('without answer strings, answer-in-context means some target is held', () => {
    const q = question([{ doc: 'A', grade: 1 }]);
    expect(scoreQuestion(q, [block('B', 0, 1), block('A', 0, 1)]).answerInContext).toBe(1);
    expect(scoreQuestion(q, [block('B', 0, 1)]).answerInContext).toBe(0);
  });

  it('normalizeAnswer', () => {
    expect(normalizeAnswer('  New \t York\n')).toBe('new york');
    expect(normalizeAnswer('ＡＢＣ')).toBe('abc'); // NFKC folds full-width letters
  });
});

describe('scoreQuestion: a question that needs every answer (all-of)', () => {
  // Two documents, one fact each: a compound question needs both.
  const A = 'The plague reached Sicily in 1347 on Genoese galleys.';
  const B = 'Sedimentary rock can turn into metamorphic rock under heat.';
  const C = 'Nothing to see here at all.';
  const whole = (doc: string, text: string) => block(doc, 0, text.length, text);
  const at = (doc: string, text: string, part: string) => ({ doc, start: text.indexOf(part), end: text.indexOf(part) + part.length });
  const spans = [at('A', A, '1347'), at('B', B, 'metamorphic rock')];
  const answers = ['1347', 'metamorphic rock'];
  const allOf: EvalQuestion = { id: 'q', question: 'When did the plague reach Sicily, and what can sedimentary rock turn into?', answers, targets: spanTargets(spans, 'all'), needs: 'all' };
  const anyOf: EvalQuestion = { ...allOf, targets: spanTargets(spans), needs: undefined };
  const rank = (m: ReturnType<typeof scoreQuestion>) => ({ hitAt1: m.hitAt1, hitAt5: m.hitAt5, answerInContext: m.answerInContext, recallAt5: m.recallAt5, mrr: m.mrr });

  it('with half its evidence in the context it is not found (any-of would count it found)', () => {
    const half = [whole('C', C), whole('A', A), whole('C', C)];
    const all = scoreQuestion(allOf, half);
    expect(rank(all)).toEqual({ hitAt1: 0, hitAt5: 0, answerInContext: 0, recallAt5: 0.5, mrr: 0 });
    expect(all.ndcg10).toBe(0);
    const any = scoreQuestion(anyOf, half);
    expect(rank(any)).toEqual({ hitAt1: 0, hitAt5: 1, answerInContext: 1, recallAt5: 0.5, mrr: 0.5 });
  });

  it('found at the rank where its last part is first held: MRR 1/R, nDCG log2(n+1)/log2(R+1)', () => {
    const full = [whole('C', C), whole('A', A), whole('C', C), whole('B', B), whole('A', A)];
    const all = scoreQuestion(allOf, full);
    expect(rank(all)).toEqual({ hitAt1: 0, hitAt5: 1, answerInContext: 1, recallAt5: 1, mrr: 0.25 });
    // Two parts, complete at rank 4: log2(3) / log2(5).
    expect(all.ndcg10).toBeCloseTo(Math.log2(3) / Math.log2(5), 12);
    expect(all.ndcg10).toBeCloseTo(0.682606, 6);
    // Any-of: found at the first part (rank 2); nDCG over both targets as today.
    const any = scoreQuestion(anyOf, full);
    expect(any.mrr).toBe(0.5);
    expect(any.ndcg10).toBeCloseTo((1 / Math.log2(3) + 1 / Math.log2(5)) / (1 + 1 / Math.log2(3)), 12);
    // Context precision does not depend on the rule: "1347" twice and "metamorphic rock" once, of every character handed over.
    expect(all.contextPrecision).toBeCloseTo((4 + 4 + 16) / (A.length * 2 + B.length + C.length * 2), 12);
    expect(all.contextPrecision).toBe(any.contextPrecision);
    expect(all.meanContextTokens).toBe(50);
  });

  it('one block holding every part is a hit@1; complete by rank n is ideal; past rank 10 only MRR and recall count', () => {
    const D = 'Tea grows on hills. It is picked by hand. Then it dries in the sun.';
    const parts = [at('D', D, 'hills'), at('D', D, 'by hand'), at('D', D, 'sun')];
    const q = (n: number): EvalQuestion => ({ id: 'tea', question: '?', answers: ['hills', 'by hand', 'sun'].slice(0, n), targets: spanTargets(parts.slice(0, n), 'all'), needs: 'all' });
    const s1 = block('D', 0, 19, D.slice(0, 19));
    const s2 = block('D', 20, 41, D.slice(20, 41));
    const s3 = block('D', 42, D.length, D.slice(42));
    const none = block('C', 0, C.length, C);
    expect(scoreQuestion(q(2), [whole('D', D)])).toMatchObject({ hitAt1: 1, mrr: 1, ndcg10: 1, recallAt5: 1, answerInContext: 1 });
    expect(scoreQuestion(q(2), [s1, s2])).toMatchObject({ hitAt1: 0, hitAt5: 1, mrr: 0.5, ndcg10: 1 });
    expect(scoreQuestion(q(2), [s2, none, s1]).ndcg10).toBeCloseTo(Math.log2(3) / Math.log2(4), 12);
    // Three parts: two in the first block, the third at rank 5 → log2(4) / log2(6).
    const m3 = scoreQuestion(q(3), [block('D', 0, 41, D.slice(0, 41)), none, none, none, s3]);
    expect(m3).toMatchObject({ hitAt1: 0, hitAt5: 1, mrr: 0.2, recallAt5: 1 });
    expect(m3.ndcg10).toBeCloseTo(2 / Math.log2(6), 12);
    // Parts at ranks 3 and 12: not a hit, nDCG@10 0, MRR 1/12; both strings are in the context.
    const far = scoreQuestion(q(2), [none, none, s1, ...Array<JudgedBlock>(8).fill(none), s2]);
    expect(far).toMatchObject({ hitAt1: 0, hitAt5: 0, recallAt5: 0.5, ndcg10: 0, answerInContext: 1 });
    expect(far.mrr).toBeCloseTo(1 / 12, 12);
  });

  it('answer-in-context needs every answer string; without strings, every document (ranks by document)', () => {
    expect(scoreQuestion(allOf, [whole('B', B)]).answerInContext).toBe(0);
    expect(scoreQuestion(allOf, [whole('B', B), whole('A', A)]).answerInContext).toBe(1);
    // The strings decide, as for any question: a part's words in another document count.
    expect(scoreQuestion({ ...allOf, targets: spanTargets([spans[0]!], 'all') }, [block('C', 0, 4, '1347'), block('C', 5, 21, 'metamorphic rock')]).answerInContext).toBe(1);
    const docs: EvalQuestion = { id: 'd', question: '?', answers: [], targets: [{ doc: 'A', grade: 1 }, { doc: 'B', grade: 1 }], needs: 'all' };
    const m = scoreQuestion(docs, [whole('A', A), block('A', 0, 3), whole('C', C), whole('B', B)], { byDocument: true });
    expect(rank(m)).toEqual({ hitAt1: 0, hitAt5: 1, answerInContext: 1, recallAt5: 1, mrr: 1 / 3 });
    expect(m.ndcg10).toBeCloseTo(Math.log2(3) / Math.log2(4), 12);
    expect(scoreQuestion(docs, [whole('A', A)], { byDocument: true })).toMatchObject({ answerInContext: 0, hitAt5: 0, mrr: 0, ndcg10: 0, recallAt5: 0.5 });
    // A part named by its span and a part named only by its document: both needed.
    const mixed: EvalQuestion = { ...allOf, answers: ['1347'], targets: [...spanTargets([spans[0]!], 'all'), { doc: 'B', grade: 1 }] };
    expect(scoreQuestion(mixed, [whole('A', A)]).answerInContext).toBe(0);
    expect(scoreQuestion(mixed, [whole('A', A), block('B', 0, 5)]).answerInContext).toBe(1);
    // No target at all is never found (not "every one of none").
    expect(scoreQuestion({ ...docs, targets: [] }, [whole('A', A)])).toMatchObject({ hitAt1: 0, answerInContext: 0, mrr: 0, ndcg10: 0 });
  });

  it("SQuAD's alternative answers stay any-of: one target per document, any span and any string enough", () => {
    const alternatives = [at('A', A, 'Sicily'), at('A', A, '1347'), at('B', B, 'rock')];
    expect(spanTargets(alternatives)).toEqual([
      { doc: 'A', grade: 1, spans: [{ start: 19, end: 25 }, { start: 29, end: 33 }] },
      { doc: 'B', grade: 1, spans: [{ start: 12, end: 16 }] },
    ]);
    expect(spanTargets(alternatives, 'all')).toEqual([
      { doc: 'A', grade: 1, spans: [{ start: 19, end: 25 }] },
      { doc: 'A', grade: 1, spans: [{ start: 29, end: 33 }] },
      { doc: 'B', grade: 1, spans: [{ start: 12, end: 16 }] },
    ]);
    const squad: EvalQuestion = { id: 's', question: 'Where did the plague arrive?', answers: ['Sicily', 'in Sicily'], targets: spanTargets(alternatives.slice(0, 1)) };
    expect(rank(scoreQuestion(squad, [block('A', 10, 26, A.slice(10, 26))]))).toEqual({ hitAt1: 1, hitAt5: 1, answerInContext: 1, recallAt5: 1, mrr: 1 });
  });
});

describe('dedupeByDoc', () => {
  it('keeps the first block of each document, turning block ranks into document ranks', () => {
    const blocks = [block('A', 0, 1), block('A', 5, 6), block('B', 0, 1), block('A', 9, 10), block('C', 0, 1), block('B', 3, 4)];
    const d = dedupeByDoc(blocks);
    expect(d.map((b) => `${b.doc}:${b.start}`)).toEqual(['A:0', 'B:0', 'C:0']);
    const q = question([{ doc: 'C', grade: 1 }]);
    expect(scoreQuestion(q, blocks).mrr).toBeCloseTo(1 / 5, 12);
    expect(scoreQuestion(q, d).mrr).toBeCloseTo(1 / 3, 12);
    expect(scoreQuestion(q, d).ndcg10).toBeCloseTo(0.5, 12);
  });

  it('byDocument ranks by document but counts the tokens of every block handed over', () => {
    const blocks = [block('A', 0, 1), block('A', 5, 6), block('B', 0, 1), block('A', 9, 10), block('C', 0, 1), block('B', 3, 4)];
    const q = question([{ doc: 'C', grade: 1 }]);
    const m = scoreQuestion(q, blocks, { byDocument: true });
    expect(m.mrr).toBeCloseTo(1 / 3, 12);
    expect(m.meanContextTokens).toBe(blocks.reduce((n, b) => n + b.tokens, 0));
    expect(m.meanContextTokens).toBeGreaterThan(dedupeByDoc(blocks).reduce((n, b) => n + b.tokens, 0));
  });
});

describe('meanMetrics', () => {
  it('averages every metric', () => {
    const a: Metrics = { hitAt1: 1, hitAt5: 1, answerInContext: 1, recallAt5: 1, mrr: 1, ndcg10: 1, contextPrecision: 1, meanContextTokens: 100 };
    const b: Metrics = { hitAt1: 0, hitAt5: 1, answerInContext: 0, recallAt5: 0.5, mrr: 1 / 3, ndcg10: 0.5, contextPrecision: 0.25, meanContextTokens: 200 };
    const m = meanMetrics([a, b]);
    expect(m.hitAt1).toBe(0.5);
    expect(m.hitAt5).toBe(1);
    expect(m.answerInContext).toBe(0.5);
    expect(m.recallAt5).toBe(0.75);
    expect(m.mrr).toBeCloseTo(2 / 3, 12);
    expect(m.ndcg10).toBe(0.75);
    expect(m.contextPrecision).toBe(0.625);
    expect(m.meanContextTokens).toBe(150);
  });
  it('of nothing is all zeros', () => {
    expect(meanMetrics([])).toEqual({ hitAt1: 0, hitAt5: 0, answerInContext: 0, recallAt5: 0, mrr: 0, ndcg10: 0, contextPrecision: 0, meanContextTokens: 0 });
  });
});

describe('readSquad', () => {
  const ctx1 = 'Alice was born in Paris. She moved to Berlin in 1990.';
  const ctx2 = 'The river Spree flows through Berlin.';
  const ctx3 = 'Bob likes green tea. Bob drinks it every morning.';
  const json = {
    version: 'test',
    data: [
      {
        title: 'Alice_Smith',
        paragraphs: [
          {
            context: ctx1,
            qas: [
              { id: 'q1', question: 'Where was Alice born?', answers: [{ text: 'Paris', answer_start: ctx1.indexOf('Paris') }] },
              // A stale offset: located by search.
              { id: 'q2', question: 'When did she move?', answers: [{ text: '1990', answer_start: 3 }] },
              { id: 'q3', question: 'What is her favourite colour?', answers: [], is_impossible: true },
            ],
          },
          {
            context: ctx2,
            qas: [
              {
                id: 'q4',
                question: 'Which river flows through Berlin?',
                answers: [
                  { text: 'Spree', answer_start: ctx2.indexOf('Spree') },
                  { text: 'The river Spree', answer_start: 0 },
                ],
              },
              { id: 'q5', question: 'Nothing matches', answers: [{ text: 'Danube', answer_start: 4 }] },
            ],
          },
        ],
      },
      {
        title: 'Bob',
        paragraphs: [{ context: ctx3, qas: [{ id: 'q6', question: 'What does Bob like?', answers: [{ text: 'green tea', answer_start: 10 }] }] }],
      },
    ],
  };

  it('maps answer offsets into the joined document text', () => {
    const set = readSquad(json, { language: 'en' });
    expect(set.docs).toHaveLength(2);
    const [alice, bob] = set.docs;
    expect(alice!.title).toBe('Alice Smith');
    expect(alice!.text).toBe(`${ctx1}\n\n${ctx2}`);
    expect(bob!.text).toBe(ctx3);
    expect(set.questions.map((q) => q.id)).toEqual(['q1', 'q2', 'q4', 'q6']);
    for (const q of set.questions) {
      const doc = set.docs.find((d) => d.id === q.targets[0]!.doc)!;
      expect(q.targets).toHaveLength(1);
      expect(q.targets[0]!.grade).toBe(1);
      for (const s of q.targets[0]!.spans!) expect(q.answers).toContain(doc.text.slice(s.start, s.end));
    }
    const q4 = set.questions.find((q) => q.id === 'q4')!;
    expect(q4.targets[0]!.spans).toEqual([
      { start: ctx1.length + 2 + ctx2.indexOf('Spree'), end: ctx1.length + 2 + ctx2.indexOf('Spree') + 5 },
      { start: ctx1.length + 2, end: ctx1.length + 2 + 15 },
    ]);
    expect(q4.answers).toEqual(['Spree', 'The river Spree']);
  });

  it('locates a stale answer_start by search', () => {
    const set = readSquad(json);
    const q2 = set.questions.find((q) => q.id === 'q2')!;
    const s = q2.targets[0]!.spans![0]!;
    expect(s.start).toBe(ctx1.indexOf('1990'));
    expect(set.docs[0]!.text.slice(s.start, s.end)).toBe('1990');
  });

  it('skips unanswerable questions and answers not in their paragraph, and says so', () => {
    const set = readSquad(json);
    expect(set.skipped.some((s) => s.includes('q3') && s.includes('unanswerable'))).toBe(true);
    expect(set.skipped.some((s) => s.includes('q5') && /not found/.test(s))).toBe(true);
    expect(set.skipped).toHaveLength(2);
  });

  it('limitDocs keeps the first N articles', () => {
    const set = readSquad(json, { limitDocs: 1, name: 'tiny' });
    expect(set.name).toBe('tiny');
    expect(set.docs).toHaveLength(1);
    expect(set.questions.map((q) => q.id)).toEqual(['q1', 'q2', 'q4']);
  });

  it('distinct articles get distinct document ids', () => {
    const set = readSquad(json);
    expect(new Set(set.docs.map((d) => d.id)).size).toBe(2);
  });

  it('throws DatasetError on malformed input', () => {
    expect(() => readSquad({ foo: 1 })).toThrow(DatasetError);
    expect(() => readSquad(null)).toThrow(DatasetError);
    expect(() => readSquad([1, 2])).toThrow(DatasetError);
    expect(() => readSquad({ data: [] })).toThrow(DatasetError);
    expect(() => readSquad({ data: [{ title: 'x' }] })).toThrow(/no usable articles/);
    expect(() => readSquad({ data: [{ title: 'x', paragraphs: [{ context: 5, qas: [] }] }] })).toThrow(DatasetError);
  });

  it('reads the real XQuAD zh file: every target span is one of the answers', () => {
    const raw = JSON.parse(readFileSync(`${SHARED_DATA}/xquad/xquad.zh.json`, 'utf8'));
    const set = readSquad(raw, { limitDocs: 2, language: 'zh' });
    expect(set.docs).toHaveLength(2);
    expect(set.questions.length).toBeGreaterThan(20);
    const byId = new Map(set.docs.map((d) => [d.id, d]));
    let spans = 0;
    for (const q of set.questions) {
      for (const t of q.targets) {
        const doc = byId.get(t.doc)!;
        expect(doc).toBeDefined();
        for (const s of t.spans!) {
          expect(q.answers).toContain(doc.text.slice(s.start, s.end));
          spans++;
        }
      }
    }
    expect(spans).toBeGreaterThanOrEqual(set.questions.length);
    expect(set.docs[0]!.language).toBe('zh');
  });
});

describe('readBeir', () => {
  const corpus = [
    '{"_id": "d1", "title": "Vitamin D", "text": "Vitamin D deficiency is common in winter."}',
    '{"_id": "d2", "title": "Sleep", "text": "Sleep quality affects memory.',
    '{"_id": "d3", "title": "", "text": "Coffee contains caffeine."}',
    '',
    '{"_id": "d4", "title": "Exercise", "text": "Exercise improves mood."}',
    '{"_id": 5, "text": "Numeric ids are read as strings."}',
    '{"_id": "d6", "title": "No text"}',
  ].join('\n');
  const queries = [
    '{"_id": "q1", "text": "vitamin d in winter"}',
    '{"_id": "q2", "text": "does coffee help"}',
    'not json at all',
    '{"_id": "q3", "text": "sleep and memory"}',
    '{"_id": "q4", "text": "no judgements"}',
  ].join('\n');
  const qrels = ['query-id\tcorpus-id\tscore', 'q1\td1\t2', 'q1 d4 1', 'q1\td4\t1', 'q2\td3\t1', 'q2\td1\t0', 'q3\td2\t1', 'q1\td9\tabc', ''].join('\n');

  it('reports bad lines by number and uses the rest, with graded targets', () => {
    const set = readBeir({ corpus, queries, qrels }, { name: 'mini', language: 'en' });
    expect(set.name).toBe('mini');
    expect(set.docs.map((d) => d.id)).toEqual(['d1', 'd3', 'd4', '5']);
    expect(set.docs[0]!.title).toBe('Vitamin D');
    expect(set.docs[0]!.text).toContain('Vitamin D deficiency');
    expect(set.docs[1]!.title).toBe('d3');
    expect(set.skipped).toContain('corpus line 2: not valid JSON');
    expect(set.skipped).toContain('queries line 3: not valid JSON');
    expect(set.skipped).toContain('qrels line 3: expected query-id, corpus-id, score');
    expect(set.skipped).toContain('qrels line 8: expected query-id, corpus-id, score');
    expect(set.skipped).toContain('corpus line 7: "text" is missing');
    // q3's only relevant document was the broken line.
    expect(set.skipped.some((s) => s.startsWith('query q3'))).toBe(true);
    expect(set.questions.map((q) => q.id)).toEqual(['q1', 'q2']);
    const q1 = set.questions[0]!;
    expect(q1.answers).toEqual([]);
    expect(q1.targets).toEqual([
      { doc: 'd1', grade: 2 },
      { doc: 'd4', grade: 1 },
    ]);
    // A grade of 0 is not relevant.
    expect(set.questions[1]!.targets).toEqual([{ doc: 'd3', grade: 1 }]);
  });

  it('limitQueries', () => {
    const set = readBeir({ corpus, queries, qrels }, { limitQueries: 1 });
    expect(set.questions.map((q) => q.id)).toEqual(['q1']);
  });

  it('throws DatasetError when nothing is usable', () => {
    expect(() => readBeir({ corpus, queries, qrels: 'query-id\tcorpus-id\tscore\n' })).toThrow(DatasetError);
    expect(() => readBeir({ corpus: 'bad\n', queries, qrels })).toThrow(DatasetError);
    expect(() => readBeir({ corpus, queries: '{"_id": "zz", "text": "x"}', qrels })).toThrow(DatasetError);
  });
});

describe('context precision', () => {
  it('is the share of handed-over characters inside the gold regions (overlapping regions count once)', () => {
    const gold = [
      { doc: 'A', start: 10, end: 30 },
      { doc: 'A', start: 20, end: 40 },
    ];
    // Block 0–50 holds 30 gold characters (10–40) of 50; block B 0–50 holds none.
    expect(contextPrecision([block('A', 0, 50)], gold)).toBe(30 / 50);
    expect(contextPrecision([block('A', 0, 50), block('B', 0, 50)], gold)).toBe(30 / 100);
    expect(contextPrecision([block('A', 15, 25)], gold)).toBe(1);
    expect(contextPrecision([], gold)).toBe(0);
  });

  it('scoreQuestion uses the given gold regions, else the spans, else whole target documents', () => {
    const q = question([{ doc: 'A', grade: 1, spans: [{ start: 10, end: 20 }] }], ['x']);
    const blocks = [block('A', 0, 40), block('C', 0, 60)];
    expect(scoreQuestion(q, blocks).contextPrecision).toBe(10 / 100);
    expect(scoreQuestion(q, blocks, { gold: [{ doc: 'A', start: 0, end: 30 }] }).contextPrecision).toBe(30 / 100);
    const docLevel = question([{ doc: 'C', grade: 1 }]);
    expect(scoreQuestion(docLevel, blocks).contextPrecision).toBe(60 / 100);
  });

  it('goldRegions widens each answer span to the whole sentences it touches', () => {
    const text = 'Alice was born in Paris. She moved to Berlin in 1990. The end came.';
    const doc = { ...documentFromText(text, 'a.txt'), id: 'A' };
    const corpus = buildCorpus([doc], new ApproxTokenCounter());
    const berlin = text.indexOf('Berlin');
    const q = question([{ doc: 'A', grade: 1, spans: [{ start: berlin, end: berlin + 6 }] }], ['Berlin']);
    const second = { start: text.indexOf('She'), end: text.indexOf(' The end') };
    expect(goldRegions(q, corpus)).toEqual([{ doc: 'A', ...second }]);
    // A span across the first two sentences covers both.
    const across = question([{ doc: 'A', grade: 1, spans: [{ start: text.indexOf('Paris'), end: berlin }] }]);
    expect(goldRegions(across, corpus)).toEqual([{ doc: 'A', start: 0, end: second.end }]);
    expect(goldRegions(question([{ doc: 'A', grade: 1 }]), corpus)).toEqual([{ doc: 'A', start: 0, end: Infinity }]);
  });
});

describe('metricIntervals', () => {
  it('brackets each mean with a seeded 95 % bootstrap interval that repeats exactly', () => {
    const per: Metrics[] = Array.from({ length: 40 }, (_, i) => ({
      hitAt1: i % 2,
      hitAt5: 1,
      answerInContext: i % 4 === 0 ? 0 : 1,
      recallAt5: 1,
      mrr: 1 / (1 + (i % 3)),
      ndcg10: 0.5,
      contextPrecision: i / 40,
      meanContextTokens: 100 + i,
    }));
    const iv = metricIntervals(per);
    expect(metricIntervals(per)).toEqual(iv);
    // A constant metric has a zero-width interval; the others straddle their means.
    expect(iv.hitAt5).toEqual({ low: 1, high: 1 });
    const mean = meanMetrics(per);
    for (const k of ['hitAt1', 'answerInContext', 'mrr', 'contextPrecision', 'meanContextTokens'] as const) {
      expect(iv[k].low).toBeLessThan(mean[k]);
      expect(iv[k].high).toBeGreaterThan(mean[k]);
    }
    // The same values through bootstrapMean with the default seed give the same bounds.
    const direct = bootstrapMean(per.map((m) => m.hitAt1));
    expect(iv.hitAt1).toEqual({ low: direct.low, high: direct.high });
    expect(metricIntervals(per, { seed: 2 }).contextPrecision).not.toEqual(iv.contextPrecision);
  });
});
