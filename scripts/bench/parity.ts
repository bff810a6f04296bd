/**
 * Language parity: the same questions about the same paragraphs in several languages, each
 * language's answer in context beside English's. Measured as a user of that language meets the
 * lab: each article's language detected (no --language), BM25 only (the lab's default analyzer,
 * or the one given), sentence windows and naive chunks, top-k 50 — `eval --data FILE --retriever bm25`.
 *
 * Two parallel sets: the lab's own (scripts/bench/parallel, 40 questions in each of its languages)
 * and XQuAD en/es/zh/de from ../shared/data (1,190 questions, read in place, CC BY-SA 4.0) when
 * present. "× en" is the language's answer in context over English's on the same set; "− en"
 * the paired difference (same question ids on both sides) with its 95 % bootstrap interval, so a
 * gap that 40 questions cannot tell from zero says so.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pairedDifference, type Interval } from '../../src/core/eval/bootstrap';
import type { EvalSet } from '../../src/core/eval/dataset';
import type { MetricIntervals, Metrics } from '../../src/core/eval/metrics';
import { evaluate } from '../../src/core/eval/run-eval';
import { readSquad } from '../../src/core/eval/squad';
import { RetrievalEngine } from '../../src/core/engine';
import { lexicalLabel, type LexicalParams } from '../../src/core/index/lexical-index';
import type { StrategyName } from '../../src/core/strategies/registry';
import { renderTable } from '../../src/cli/table';
import { SHARED_DATA } from '../../src/node/paths';
import { parallelLanguages, readParallel, toSquad } from './parallel/parallel-set';

export const PARITY_STRATEGIES: StrategyName[] = ['window', 'naive'];
/**
 * 512 is the goal's budget. The lab's own set is small (five articles, ~2,100 tokens in English): a
 * quarter of it fits in 512 tokens, so 128 tokens shows what its rankings do where 512 cannot.
 */
export const PARITY_BUDGETS = [512, 256, 128];
/** The goal: every language at least this share of English's answer in context (issue 41, at 512 tokens). */
export const PARITY_GOAL = 0.97;

export interface ParityRow {
  dataset: string;
  language: string;
  /** The languages the lab detected for the set's articles, with counts ("ro ×5"). */
  detected: string;
  sentences: number;
  questions: number;
  retriever: 'bm25';
  lexical: LexicalParams;
  strategy: StrategyName;
  budgetTokens: number;
  metrics: Metrics;
  intervals: MetricIntervals;
  /** answer in context ÷ English's on the same set and settings. */
  vsEnglish: number | null;
  /** answer in context − English's, paired over the question ids both have, with its interval. */
  minusEnglish: (Interval & { distinguishable: boolean }) | null;
}

interface ParitySet {
  dataset: string;
  language: string;
  load: () => EvalSet;
}

function parallelSets(): ParitySet[] {
  const own = parallelLanguages().map((language) => ({
    dataset: 'lab parallel set',
    language,
    load: () => readSquad(toSquad(readParallel(language)), { name: `parallel-${language}` }),
  }));
  const xquad = ['en', 'es', 'zh', 'de']
    .map((language) => ({ language, file: join(SHARED_DATA, 'xquad', `xquad.${language}.json`) }))
    .filter((x) => existsSync(x.file))
    .map(({ language, file }) => ({ dataset: 'XQuAD', language, load: () => readSquad(JSON.parse(readFileSync(file, 'utf8')), { name: `xquad-${language}` }) }));
  return [...own, ...xquad];
}

function detectedLanguages(set: EvalSet): string {
  const counts = new Map<string, number>();
  for (const d of set.docs) counts.set(d.language, (counts.get(d.language) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([l, n]) => `${l} ×${n}`).join(', ');
}

/** Measures every language of both sets; English first in each. */
export async function measureParity(lexical: LexicalParams, onDone?: (line: string) => void): Promise<ParityRow[]> {
  const rows: ParityRow[] = [];
  const perQuestion = new Map<string, Map<string, number>>();
  for (const s of parallelSets()) {
    const t = performance.now();
    const set = s.load();
    const engine = new RetrievalEngine({ embedder: null });
    engine.addDocuments(set.docs);
    engine.setLexical(lexical);
    const detected = detectedLanguages(set);
    for (const budgetTokens of PARITY_BUDGETS) {
      for (const r of await evaluate(engine, set, PARITY_STRATEGIES, { retriever: 'bm25', budgetTokens, topK: 50 })) {
        const key = `${s.dataset}|${r.strategy}|${budgetTokens}`;
        const byId = new Map(set.questions.map((q, i) => [q.id, r.perQuestion![i]!.answerInContext]));
        perQuestion.set(`${key}|${s.language}`, byId);
        const en = perQuestion.get(`${key}|en`);
        const enRow = rows.find((x) => x.dataset === s.dataset && x.language === 'en' && x.strategy === r.strategy && x.budgetTokens === budgetTokens);
        let minusEnglish: ParityRow['minusEnglish'] = null;
        if (en && s.language !== 'en') {
          const ids = [...byId.keys()].filter((id) => en.has(id));
          minusEnglish = pairedDifference(ids.map((id) => byId.get(id)!), ids.map((id) => en.get(id)!));
        }
        rows.push({
          dataset: s.dataset,
          language: s.language,
          detected,
          sentences: engine.corpus.sentences.length,
          questions: set.questions.length,
          retriever: 'bm25',
          lexical,
          strategy: r.strategy,
          budgetTokens,
          metrics: r.metrics,
          intervals: r.intervals!,
          vsEnglish: enRow ? r.metrics.answerInContext / enRow.metrics.answerInContext : null,
          minusEnglish,
        });
      }
    }
    onDone?.(`parity ${s.dataset} ${s.language}: ${set.docs.length} docs (${detected}), ${engine.corpus.sentences.length} sentences, ${set.questions.length} questions, ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  return rows;
}

const f = (n: number) => n.toFixed(3);

/** One table per set: a row per language and strategy, a column per budget (answer in context, × en, − en). */
export function parityTables(rows: ParityRow[]): string {
  const out: string[] = [];
  for (const dataset of [...new Set(rows.map((r) => r.dataset))]) {
    const mine = rows.filter((r) => r.dataset === dataset);
    const languages = [...new Set(mine.map((r) => r.language))];
    const lexical = lexicalLabel(mine[0]!.lexical);
    out.push(`\n${dataset} — BM25 (${lexical}): answer in context [95 % interval] ×en (− en paired [interval]); * below ${PARITY_GOAL} × en`);
    out.push(
      renderTable(
        ['lang', 'detected', 'n', 'sentences', 'strategy', ...PARITY_BUDGETS.map((b) => `@${b} tokens`)],
        languages.flatMap((language) =>
          PARITY_STRATEGIES.map((strategy) => {
            const first = mine.find((r) => r.language === language)!;
            return [
              language,
              first.detected,
              first.questions,
              first.sentences,
              strategy,
              ...PARITY_BUDGETS.map((b) => {
                const r = mine.find((x) => x.language === language && x.strategy === strategy && x.budgetTokens === b)!;
                const ratio = r.vsEnglish === null ? '' : ` ×${r.vsEnglish.toFixed(2)}${r.vsEnglish < PARITY_GOAL ? '*' : ''}`;
                const diff = r.minusEnglish ? ` (${r.minusEnglish.mean >= 0 ? '+' : ''}${f(r.minusEnglish.mean)} [${f(r.minusEnglish.low)}, ${f(r.minusEnglish.high)}])` : '';
                return `${f(r.metrics.answerInContext)} [${f(r.intervals.answerInContext.low)}–${f(r.intervals.answerInContext.high)}]${ratio}${diff}`;
              }),
            ];
          }),
        ),
      ),
    );
  }
  return out.join('\n');
}
