import { describe, expect, it } from 'vitest';
import { documentFromText } from '../core/documents/load';
import { RetrievalEngine } from '../core/engine';
import { UNIT_KINDS } from '../core/retrieve/params';
import { ApproxTokenCounter } from '../core/segment/tokens';
import { sendPlan } from './embedding-job';

const TEXT = '# Tea\n\nGreen tea is steamed. Black tea is oxidised fully. Oolong sits between them.\n\nWhite tea is the least processed.\n';

describe('sendPlan: what embedding the corpus through an endpoint sends', () => {
  it('counts every unit of every kind, and each sentence with its neighbours for semantic chunks, in approximate tokens', () => {
    const e = new RetrievalEngine();
    e.addDocuments([documentFromText(TEXT, 'tea.md', 'md'), documentFromText('One sentence only.', 'one.txt', 'txt')]);
    const approx = new ApproxTokenCounter();
    const tok = (kind: (typeof UNIT_KINDS)[number]) => Array.from({ length: e.unitCount(kind) }, (_, i) => approx.count(e.unitText(kind, i)));
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const s = tok('sentence');
    const c = e.corpus;
    // Buffer 1: sentence i with i-1 and i+1 inside its document, then the chunks (~ the sentences again).
    let semantic = 0;
    for (let d = 0; d < c.docs.length; d++) {
      const [a, b] = [c.docStarts[d]!, c.docStarts[d + 1]!];
      for (let i = a; i < b; i++) semantic += sum(s.slice(Math.max(a, i - 1), Math.min(b, i + 2))) + s[i]!;
    }
    const plan = sendPlan(e);
    const kinds = UNIT_KINDS.filter((k) => k !== 'semantic');
    expect(plan.tokens).toBe(sum(kinds.map((k) => sum(tok(k)))) + semantic);
    expect(plan.parts.map((p) => p.count)).toEqual([...kinds.map((k) => e.unitCount(k)).filter((n) => n > 0), c.sentences.length]);
    expect(plan.units).toBe(sum(kinds.map((k) => e.unitCount(k))) + c.sentences.length);
    expect(plan.parts[0]).toEqual({ what: 'sentences', count: c.sentences.length });
    expect(c.sentences.length).toBe(6);
  });

  it('an empty corpus sends nothing', () => {
    expect(sendPlan(new RetrievalEngine())).toEqual({ units: 0, tokens: 0, parts: [] });
  });
});
