import { lazy, Suspense, useId, useMemo, useState } from 'react';
import { ANSWER_METRIC_LABELS, answerDifference, type AnswerMetricName, type AnswerRankingMetric } from '../../core/answers/answer-metrics';
import { BLOCK_ORDER_WORDS } from '../../core/answers/block-order';
import { disagreements } from '../../core/answers/disagreements';
import { answerRecords, ragasDataset, toJsonl } from '../../core/answers/export';
import { recommendByAnswers, type AnswerRecommendation } from '../../core/answers/recommend';
import { RETRIEVER_NAMES } from '../../core/retrieve/retrievers';
import { BASELINE, strategyWords } from '../../core/strategies/registry';
import { useAnswers } from '../../state/answer-run';
import { useEval } from '../../state/stores';
import type { EvalRunResult } from '../../worker/protocol';
import { download } from '../download';
import { plural } from '../results/format';
import { answeredPoints, answerInterval, formatAnswerMetric, rankingChoices, type AnsweredView } from './answer-analysis';
import { differenceWords, paramsInWords, pointInWords } from './analysis';
import { DifferenceCell } from './DifferenceCell';
import { exportName } from './analysis-export';

/** The charts (Observable Plot) load only when there are answers. */
const AnswerCharts = lazy(() => import('./AnswerCharts').then((m) => ({ default: m.AnswerCharts })));

const COLUMNS: AnswerMetricName[] = ['answerExact', 'answerF1', 'abstention', 'judgeCorrect', 'faithfulness', 'promptTokens', 'answerMs'];

function pointLabel(p: AnsweredView): string {
  return `${pointInWords(p)} · ${p.budgetTokens} tokens · ${BLOCK_ORDER_WORDS[p.order]}`;
}

/** "At 512 tokens, by the answers, the best is … with answer F1 0.412 (0.31–0.52), +0.081 over the best naive chunks." and what the context would have chosen. */
function RecommendationText({ rec }: { rec: AnswerRecommendation }) {
  const b = rec.best as AnsweredView;
  const m = rec.metric;
  const v = (p: AnsweredView) => formatAnswerMetric(p.answer.metrics[m], m);
  const c = rec.bestByContext as AnsweredView;
  return (
    <>
      <p>
        At {rec.budgetTokens} tokens, by the answers, the best is {pointInWords(b)} ({BLOCK_ORDER_WORDS[b.order]}) with {ANSWER_METRIC_LABELS[m]} {v(b)}
        {answerInterval(b.answer, m) ? ` (${answerInterval(b.answer, m)})` : ''}
        {rec.baseline && rec.baseline !== rec.best ? `, ${rec.margin! >= 0 ? '+' : '−'}${Math.abs(rec.margin!).toFixed(3)} over the best ${strategyWords(BASELINE)}` : ''}.
      </p>
      <p className={rec.differs ? 'eval-answer-differs' : undefined}>
        {rec.differs
          ? `Judged by answer in context, the best would be ${pointInWords(c)} (${c.metrics.answerInContext.toFixed(3)} in context), whose answers score ${v(c)}${rec.overContext ? `: the best by the answers minus it, ${differenceWords(rec.overContext)}` : ''}.`
          : 'Judged by answer in context, the same point is best.'}
      </p>
    </>
  );
}

function AnswerTable({ recs }: { recs: AnswerRecommendation[] }) {
  const rows = recs.flatMap((r) => r.byStrategy as AnsweredView[]);
  const best = new Set(recs.map((r) => r.best));
  const used = COLUMNS.filter((m) => rows.some((p) => p.answer.metrics[m] !== null));
  return (
    <div className="eval-table-wrap" tabIndex={0} role="group" aria-label="Table of the answered points (scrolls sideways when narrow)">
      <table className="eval-table" aria-label="Best answered point per strategy and budget">
        <caption>
          Best answered point per strategy and budget by {ANSWER_METRIC_LABELS[recs[0]!.metric]} (the budget’s best in bold), with 95 % bootstrap intervals; the paired difference
          from the best {strategyWords(BASELINE)} on the questions both answered; failed answers are left out of the means and counted.
        </caption>
        <thead>
          <tr>
            <th scope="col">budget</th>
            <th scope="col">strategy</th>
            <th scope="col">retriever · parameters · order</th>
            <th scope="col">answer in ctx</th>
            {used.map((m) => (
              <th key={m} scope="col">
                {ANSWER_METRIC_LABELS[m]}
              </th>
            ))}
            <th scope="col">vs {strategyWords(BASELINE)}</th>
            <th scope="col">failed</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((p, i) => (
            <tr key={i} className={best.has(p) ? 'best' : undefined}>
              <td>{p.budgetTokens}</td>
              <th scope="row">{strategyWords(p.strategy)}</th>
              <td className="eval-params">
                {RETRIEVER_NAMES[p.retriever].long}
                {paramsInWords(p) ? ` · ${paramsInWords(p)}` : ''} · {BLOCK_ORDER_WORDS[p.order]}
              </td>
              <td className="num">{p.metrics.answerInContext.toFixed(3)}</td>
              {used.map((m) => (
                <td key={m} className="num">
                  {formatAnswerMetric(p.answer.metrics[m], m)}
                  {answerInterval(p.answer, m) && m !== 'answerMs' ? <span className="eval-ci">{answerInterval(p.answer, m)}</span> : null}
                </td>
              ))}
              <VsBaseline rec={recs.find((r) => r.byStrategy.includes(p))!} point={p} />
              <td className="num">
                {p.answer.counts.failed}
                {p.answer.counts.judgeFailed ? ` (+${p.answer.counts.judgeFailed} judge)` : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The paired difference from the budget's best baseline point on the ranking metric, over the questions both answered. */
function VsBaseline({ rec, point }: { rec: AnswerRecommendation; point: AnsweredView }) {
  const d = rec.baseline && rec.baseline !== point ? answerDifference(point.answer, rec.baseline.answer, rec.metric) : null;
  return <DifferenceCell d={d} isBaseline={rec.baseline === point} />;
}

/** The two lists and the per-question drill-down, at a point the reader chooses. */
function Disagreements({ points, evalResult }: { points: AnsweredView[]; evalResult: EvalRunResult }) {
  const run = useAnswers((s) => s.result)!;
  const [chosen, setChosen] = useState(0);
  const selectId = useId();
  const questions = evalResult.answering!.questions;
  const p = points[Math.min(chosen, points.length - 1)];
  const lists = useMemo(() => {
    if (!p) return null;
    const i = run.results.indexOf(p.answer);
    const inContext = Float64Array.from(questions, (_, q) => (q < (p.perQuestion?.length ?? 0) ? p.perQuestion![q]!.answerInContext : Number.NaN));
    return disagreements(run.plan.table.slots[i]!, run.outcomes, inContext, (q) => questions[q]!.unanswerable);
  }, [p, run, questions]);
  if (!p || !lists) return null;
  const slots = run.plan.table.slots[run.results.indexOf(p.answer)]!;
  const item = (q: number) => {
    const at = slots[q]!;
    const o = run.outcomes[at]!;
    const prompt = run.plan.table.prompts[at]!;
    return (
      <li key={q}>
        <details>
          <summary>
            {questions[q]!.question} — answered “{o.answer ?? '(failed)'}”, reference “{questions[q]!.references.join(' | ')}”
          </summary>
          <p className="small">
            exact {formatAnswerMetric(o.exact, 'answerExact')} · F1 {formatAnswerMetric(o.f1, 'answerF1')}
            {o.judge ? ` · judged ${o.judge.correct === 1 ? 'correct' : o.judge.correct === 0 ? 'incorrect' : '–'} · faithfulness ${formatAnswerMetric(o.judge.faithfulness ?? null, 'faithfulness')}` : ''} · {prompt.promptTokens} prompt tokens
          </p>
          <pre className="eval-answer-context">{prompt.context}</pre>
        </details>
      </li>
    );
  };
  return (
    <div className="eval-answer-lists">
      <div className="eval-field">
        <label htmlFor={selectId}>Questions at</label>
        <select id={selectId} value={chosen} onChange={(e) => setChosen(Number(e.currentTarget.value))}>
          {points.map((x, i) => (
            <option key={i} value={i}>
              {pointLabel(x)}
            </option>
          ))}
        </select>
      </div>
      <h3>The answer was in the context, but the model missed it ({lists.missed.length})</h3>
      {lists.missed.length ? <ul aria-label="Answer in the context but missed">{lists.missed.map(item)}</ul> : <p className="small">None at this point.</p>}
      <h3>Answered right without the answer in the context ({lists.rightWithout.length})</h3>
      {lists.rightWithout.length ? <ul aria-label="Right without the answer in the context">{lists.rightWithout.map(item)}</ul> : <p className="small">None at this point.</p>}
      <details className="eval-answer-all">
        <summary>Every question at this point ({plural(slots.filter((x) => x >= 0).length, 'answer')})</summary>
        <ul aria-label="Every answer at this point">{[...slots.keys()].filter((q) => slots[q]! >= 0).map(item)}</ul>
      </details>
      <div className="eval-exports">
        <button type="button" onClick={() => download(toJsonl(ragasDataset(run.plan.table, run.outcomes, questions, evalResult.answering!.contexts, run.results.indexOf(p.answer))), exportName(evalResult.set.name, 'json').replace(/-sweep\.json$/, '-ragas.jsonl'), 'application/jsonl')}>
          Export this point for Ragas
        </button>
        <span className="small">A Ragas EvaluationDataset (user_input, retrieved_contexts, response, reference), one JSON line per answered question.</span>
      </div>
    </div>
  );
}

/** The answers' part of the results: recommendations, the two curves, the Pareto front, the table, the lists and the exports. */
export function AnswerResults() {
  const evalResult = useEval((s) => s.result);
  const run = useAnswers((s) => s.result);
  const choices = useMemo(() => (run ? rankingChoices(run.results) : []), [run]);
  const [picked, setPicked] = useState<AnswerRankingMetric>('answerF1');
  const metricId = useId();
  const metric = choices.includes(picked) ? picked : (choices[0] ?? 'answerF1');
  const points = useMemo(() => (run && evalResult && run.for === evalResult ? answeredPoints(evalResult, run) : []), [run, evalResult]);
  const recs = useMemo(() => recommendByAnswers(points, metric), [points, metric]);
  const ranked = useMemo(() => recs.flatMap((r) => r.byStrategy as AnsweredView[]), [recs]);
  if (!run || !evalResult || run.for !== evalResult || !points.length) return null;
  const exportAll = () => {
    const records = answerRecords(run.plan.table, run.outcomes, evalResult.answering!.questions, (i) => {
      const p = points[i]!;
      return { strategy: p.strategy, retriever: p.retriever, budgetTokens: p.budgetTokens, params: { ...p.params, order: p.order } };
    });
    download(toJsonl(records), exportName(evalResult.set.name, 'json').replace(/-sweep\.json$/, '-answers.jsonl'), 'application/jsonl');
  };
  return (
    <section className="eval-step eval-results" aria-labelledby="eval-answer-results-title">
      <h2 id="eval-answer-results-title">5 · Judged by the answer</h2>
      <p className="small">
        {plural(points.length, 'answered point')} by {run.generator}; {run.notes.length ? run.notes.join(' ') : 'every answer scored.'}
      </p>
      {choices.length > 1 && (
        <div className="eval-field">
          <label htmlFor={metricId}>Rank by</label>
          <select id={metricId} value={metric} onChange={(e) => setPicked(e.currentTarget.value as AnswerRankingMetric)}>
            {choices.map((m) => (
              <option key={m} value={m}>
                {ANSWER_METRIC_LABELS[m]}
              </option>
            ))}
          </select>
        </div>
      )}
      {recs.length ? (
        <div className="eval-recs" role="note" aria-label="Recommendation by the answers">
          {recs.map((r) => (
            <RecommendationText key={String(r.budgetTokens)} rec={r} />
          ))}
        </div>
      ) : (
        <p className="eval-note">No point has a {ANSWER_METRIC_LABELS[metric]}: every answer failed, or the questions have no references.</p>
      )}
      <Suspense fallback={<p className="eval-note">Drawing the charts…</p>}>
        <AnswerCharts points={points} metric={metric} />
      </Suspense>
      {recs.length > 0 && <AnswerTable recs={recs} />}
      <div className="eval-exports">
        <button type="button" onClick={exportAll}>
          Export answers (JSONL)
        </button>
        <span className="small">One line per question and point: context, answer, references, scores.</span>
      </div>
      <Disagreements points={ranked.length ? ranked : points} evalResult={evalResult} />
    </section>
  );
}
