import { describe, expect, it } from 'vitest';
import { edgesOrder, orderBlocks, parseBlockOrders } from './block-order';
import { scoreAnswer, tokenF1 } from './exact-f1';
import { answerTokens, normalizeForMatch } from './normalize';
import { cleanAnswer, isAbstention } from './reply';

describe('SQuAD normalisation per language (MLQA)', () => {
  it('lower-cases, drops punctuation and English articles, collapses spaces', () => {
    expect(normalizeForMatch('  The  Eiffel Tower!')).toBe('eiffel tower');
    expect(normalizeForMatch('U.S.A.')).toBe('usa');
    expect(normalizeForMatch('“An” apple — a day…')).toBe('apple day');
  });
  it("drops only the document language's articles", () => {
    expect(answerTokens('O Rio de Janeiro', 'pt')).toEqual(['rio', 'de', 'janeiro']);
    expect(answerTokens('as Ilhas e a costa', 'pt-BR')).toEqual(['ilhas', 'e', 'costa']);
    expect(answerTokens('the band', 'pt')).toEqual(['the', 'band']);
    expect(answerTokens('Die Donau und der Rhein', 'de')).toEqual(['donau', 'und', 'rhein']);
    expect(answerTokens("l'Académie française", 'fr')).toEqual(['académie', 'française']);
    expect(answerTokens('Les Misérables', 'fr')).toEqual(['misérables']);
    expect(answerTokens('la casa de los espíritus', 'es')).toEqual(['casa', 'de', 'espíritus']);
    expect(answerTokens('القاهرة', 'ar')).toEqual(['قاهرة']);
  });
  it('makes each character of a script without spaces a token, Latin runs stay words', () => {
    expect(answerTokens('北京市', 'zh')).toEqual(['北', '京', '市']);
    expect(answerTokens('在1949年建立PRC', 'zh')).toEqual(['在', '1949', '年', '建', '立', 'prc']);
    expect(answerTokens('東京タワー', 'ja')).toEqual(['東', '京', 'タ', 'ワ', 'ー']);
    // Thai vowel signs (marks) stay with their consonant: รุ is one token.
    expect(answerTokens('กรุงเทพ', 'th')).toEqual(['ก', 'รุ', 'ง', 'เ', 'ท', 'พ']);
  });
});

describe('exact match and F1', () => {
  it("match SQuAD's reference values", () => {
    expect(scoreAnswer('Denver Broncos', ['Denver Broncos'])).toEqual({ exact: 1, f1: 1 });
    expect(scoreAnswer('the Broncos of Denver', ['Denver Broncos'])!.f1).toBeCloseTo(0.8, 12);
    expect(scoreAnswer('Carolina Panthers', ['Denver Broncos'])).toEqual({ exact: 0, f1: 0 });
  });
  it('take the best of several references', () => {
    expect(scoreAnswer('Santa Clara, California', ["Levi's Stadium", 'Santa Clara, California', 'Santa Clara'])).toEqual({ exact: 1, f1: 1 });
    const s = scoreAnswer('in Santa Clara', ["Levi's Stadium", 'Santa Clara, California']);
    // [in, santa, clara] vs [santa, clara, california]: 2 shared, p = r = 2/3.
    expect(s!.exact).toBe(0);
    expect(s!.f1).toBeCloseTo(2 / 3, 12);
  });
  it('score articles, punctuation and characters per language', () => {
    expect(scoreAnswer('a Universidade Federal', ['Universidade Federal'], 'pt')).toEqual({ exact: 1, f1: 1 });
    expect(scoreAnswer('die Donau und der Rhein', ['der Rhein'], 'de')!.f1).toBeCloseTo(0.5, 12);
    expect(scoreAnswer("L'Académie française.", ['Académie française'], 'fr')).toEqual({ exact: 1, f1: 1 });
    expect(scoreAnswer('北京市', ['北京'], 'zh')!.f1).toBeCloseTo(0.8, 12);
    expect(scoreAnswer('กรุงเทพ', ['กรุงเทพมหานคร'], 'th')!.f1).toBeCloseTo(2 / 3, 12);
  });
  it('follow SQuAD v2 when a side normalises to nothing, and say null without references', () => {
    expect(tokenF1([], [])).toBe(1);
    expect(tokenF1([], ['x'])).toBe(0);
    expect(scoreAnswer('The.', ['a'])).toEqual({ exact: 1, f1: 1 });
    expect(scoreAnswer('', ['Paris'])).toEqual({ exact: 0, f1: 0 });
    expect(scoreAnswer('Paris', [])).toBeNull();
  });
  it('count repeated tokens once per occurrence', () => {
    // [new, new, york] vs [new, york]: 2 shared (one "new" left over), p 2/3, r 1.
    expect(tokenF1(['new', 'new', 'york'], ['new', 'york'])).toBeCloseTo(0.8, 12);
  });
});

describe('the answer as scored', () => {
  it('drops reasoning, citation marks and an answer label', () => {
    expect(cleanAnswer('<think>the sources say 1822</think>Answer: 1822 [2][3].')).toBe('1822.');
    expect(cleanAnswer('**Answer:** Brasília [1, 4]')).toBe('Brasília');
    expect(cleanAnswer('Resposta: Lisboa [1–3]')).toBe('Lisboa');
  });
  it('tells an abstention from an answer', () => {
    for (const a of ['I cannot answer from the sources.', 'The sources do not contain this information [1].', 'Unknown.', 'Não é possível responder com as fontes.', '根据资料无法回答。', 'Not enough information is provided.']) expect(isAbstention(a), a).toBe(true);
    for (const a of ['Brasília [1].', 'The unknown soldier is buried there.', '', '<think>I cannot answer</think>']) expect(isAbstention(a), a).toBe(false);
  });
});

describe('block order', () => {
  it("puts the best blocks at both ends as LangChain's LongContextReorder does", () => {
    expect(edgesOrder([1, 2, 3, 4, 5])).toEqual([1, 3, 5, 4, 2]);
    expect(edgesOrder([1, 2, 3, 4])).toEqual([2, 4, 3, 1]);
    expect(edgesOrder([1])).toEqual([1]);
    expect(edgesOrder([])).toEqual([]);
  });
  it('keeps retrieval order by score and sorts by document and position for reading order', () => {
    const blocks = [
      { doc: 2, start: 50, id: 'a' },
      { doc: 0, start: 900, id: 'b' },
      { doc: 2, start: 10, id: 'c' },
      { doc: 0, start: 100, id: 'd' },
    ];
    expect(orderBlocks(blocks, 'score').map((b) => b.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(orderBlocks(blocks, 'document').map((b) => b.id)).toEqual(['d', 'b', 'c', 'a']);
    expect(orderBlocks(blocks, 'edges').map((b) => b.id)).toEqual(['b', 'd', 'c', 'a']);
    // Documents named by id keep their first block's rank.
    expect(orderBlocks([{ doc: 'y', start: 5 }, { doc: 'x', start: 1 }, { doc: 'y', start: 0 }], 'document')).toEqual([{ doc: 'y', start: 0 }, { doc: 'y', start: 5 }, { doc: 'x', start: 1 }]);
  });
  it('reads a list of orders and names an unknown one', () => {
    expect(parseBlockOrders('score, edges,score')).toEqual({ orders: ['score', 'edges'] });
    expect(parseBlockOrders('score,middle')).toEqual({ unknown: 'middle' });
  });
});

describe('a question that needs every answer', () => {
  it('is exact only when the answer states every part, and scores F1 against all parts together', async () => {
    const { scoreAllOf } = await import('./exact-f1');
    expect(scoreAllOf('It came from Central Asia; sedimentary rock turns into metamorphic rock [1][2].', ['Central Asia', 'metamorphic rock'])).toMatchObject({ exact: 1 });
    expect(scoreAllOf('Central Asia.', ['Central Asia', 'metamorphic rock'])).toEqual({ exact: 0, f1: expect.closeTo((2 * 1 * 0.5) / 1.5, 12) });
    // The words must come in the reference's order to count as that part.
    expect(scoreAllOf('Asia Central and rock metamorphic', ['Central Asia', 'metamorphic rock'])!.exact).toBe(0);
    expect(scoreAllOf('anything', [])).toBeNull();
  });
});
