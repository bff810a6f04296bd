import { lazy, Suspense, useMemo } from 'react';
import type { MetricName, Recommendation } from '../../core/eval/sweep';
import { useEval } from '../../state/stores';
import type { EvalPointView, EvalRunResult } from '../../worker/protocol';
import { plural } from '../results/format';
import { RETRIEVER_NAMES } from '../../core/retrieve/retrievers';
import { TRANSFORM_WORDS } from '../../core/transform/rewrites';
import { BASELINE, strategyWords } from '../../core/strategies/registry';
import {
  METRIC_LABELS,
  bestPerStrategy,
  formatMetric,
  metricInterval,
  paramsInWords,
  recommendationSentence,
  recommendationsFor,
  vsBaseline,
} from './analysis';
import { exportName, pointsCsv, pointsJson } from './analysis-export';
import { download } from '../download';
import { DifferenceCell } from './DifferenceCell';
import { QuestionDrill } from './QuestionDrill';
import { disagreementSentence, sourceDisagreements } from './by-source';
import { QuestionSourceContext, useQuestionSource } from './source-context';
import { useEvalSettings } from './settings';
import { VariantTable } from './VariantTable';

/** The charts (Observable Plot and d3) load only when a run has results. */
const EvalCharts = lazy(() => import('./Charts').then((m) => ({ default: m.EvalCharts })));

const TABLE_METRICS: MetricName[] = ['hitAt1', 'hitAt5', 'answerInContext', 'recallAt5', 'mrr', 'ndcg10', 'contextPrecision', 'meanContextTokens'];
const TABLE_HEADS: Record<MetricName, string> = {
  hitAt1: 'hit@1',
  hitAt5: 'hit@5',
  answerInContext: 'answer in ctx',
  recallAt5: 'recall@5',
  mrr: 'MRR',
  ndcg10: 'nDCG@10',
  contextPrecision: 'ctx precision',
  meanContextTokens: 'ctx tokens',
};

function Recommendations({ recs }: { recs: Recommendation[] }) {
  const source = useQuestionSource();
  return (
    <div className="eval-recs" role="note" aria-label="Recommendation">
      {recs.map((r) => (
        <p key={r.budgetTokens}>{recommendationSentence(r)}</p>
      ))}
      {source && <p className="eval-sources">{source}</p>}
    </div>
  );
}

/** Marked and generated questions measured apart, when they do not agree on what is best. */
function SourceDisagreements({ result, metric }: { result: EvalRunResult; metric: MetricName }) {
  const info = result.questionSet;
  const differs = useMemo(() => (info && info.counts.marked > 0 && info.counts.generated > 0 ? sourceDisagreements(result, metric) : []), [result, info, metric]);
  if (!info || !differs.length) return null;
  return (
    <div className="eval-differs" role="note" aria-label="Marked and generated questions disagree">
      {differs.map((d) => (
        <p key={d.budgetTokens}>{disagreementSentence(d, info.counts)}</p>
      ))}
    </div>
  );
}

function BestTable({ recs, metric }: { recs: Recommendation[]; metric: MetricName }) {
  const rows = bestPerStrategy(recs);
  const bestOf = new Set(recs.map((r) => r.best));
  const recOf = new Map(recs.map((r) => [r.budgetTokens, r]));
  const baseline = strategyWords(BASELINE);
  const source = useQuestionSource();
  return (
    <div className="eval-table-wrap" tabIndex={0} role="group" aria-label="Table of the best points (scrolls sideways when narrow)">
      <table className="eval-table" aria-label="Best point per strategy and budget">
        <caption>
          Best point per strategy and budget, by {METRIC_LABELS[metric]} (the budget’s best in bold). Under each value, its 95 % bootstrap interval over the
          questions; the last column, the paired difference from the best {baseline} at that budget.
          {source && <span className="eval-sources"> {source}</span>}
        </caption>
        <thead>
          <tr>
            <th scope="col">budget</th>
            <th scope="col">strategy</th>
            <th scope="col">retriever · parameters</th>
            {TABLE_METRICS.map((m) => (
              <th key={m} scope="col" className={m === metric ? 'sorted' : undefined}>
                {TABLE_HEADS[m]}
              </th>
            ))}
            <th scope="col">vs {baseline}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((p: EvalPointView, i) => (
            <tr key={i} className={bestOf.has(p) ? 'best' : undefined}>
              <td>{p.budgetTokens}</td>
              <th scope="row">{strategyWords(p.strategy)}</th>
              <td className="eval-params">
                {RETRIEVER_NAMES[p.retriever].long}
                {paramsInWords(p) ? ` · ${paramsInWords(p)}` : ''}
              </td>
              {TABLE_METRICS.map((m) => (
                <td key={m} className={`num${m === metric ? ' sorted' : ''}`}>
                  {formatMetric(p.metrics[m], m)}
                  {metricInterval(p, m) ? <span className="eval-ci">{metricInterval(p, m)}</span> : null}
                </td>
              ))}
              <VsBaseline rec={recOf.get(p.budgetTokens ?? 0)} point={p} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The paired difference from the budget's best baseline point, or a dash; one that holds 0 says so. */
function VsBaseline({ rec, point }: { rec: Recommendation | undefined; point: EvalPointView }) {
  return <DifferenceCell d={rec ? vsBaseline(rec, point) : null} isBaseline={rec?.baseline === point} />;
}

/** How well the Generator panel's tool descriptions routed the questions that only one tool finds. */
function RoutingTable({ routing }: { routing: NonNullable<EvalRunResult['routing']> }) {
  return (
    <div className="eval-table-wrap" tabIndex={0} role="group" aria-label="Routing precision (scrolls sideways when narrow)">
      <table className="eval-table" aria-label="Routing precision">
        <caption>
          Routing precision: of the questions whose answer only one tool’s own retrieval finds ({routing[0]!.strategy}, {routing[0]!.budgetTokens ?? 'no'} token budget), the
          share routed to that tool. Word the tools’ descriptions in the Generator panel and run again to compare.
        </caption>
        <thead>
          <tr>
            <th scope="col">transformation</th>
            <th scope="col">questions one tool finds</th>
            <th scope="col">routed there</th>
            <th scope="col">precision</th>
            <th scope="col">per tool</th>
          </tr>
        </thead>
        <tbody>
          {routing.map((r) => (
            <tr key={r.transform}>
              <th scope="row">{TRANSFORM_WORDS[r.transform]}</th>
              <td className="num">{r.cases}</td>
              <td className="num">{r.correct}</td>
              <td className="num">{r.precision === null ? '–' : r.precision.toFixed(3)}</td>
              <td>{Object.entries(r.byTool).map(([t, c]) => `${t} ${c.correct}/${c.cases}`).join(', ') || '–'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Exports({ result, recs }: { result: EvalRunResult; recs: Recommendation[] }) {
  return (
    <div className="eval-exports">
      <button type="button" onClick={() => download(pointsCsv(result.points), exportName(result.set.name, 'csv'), 'text/csv;charset=utf-8')}>
        Export CSV
      </button>
      <button type="button" onClick={() => download(pointsJson(result, recs), exportName(result.set.name, 'json'), 'application/json')}>
        Export JSON
      </button>
      <span className="small">One row per point ({plural(result.points.length, 'point')}); the files are made in this page.</span>
    </div>
  );
}

/** Step 3: what the run says — recommendation, charts, table, exports, per-question drill-down. */
export function Results() {
  const result = useEval((s) => s.result);
  const metric = useEvalSettings((s) => s.metric);
  const recs = useMemo(() => (result ? recommendationsFor(result, metric) : []), [result, metric]);
  if (!result) return null;
  const runMetric = result.recommendations[0]?.metric;
  const source = result.questionSet ? `Questions: ${result.questionSet.sources}.` : null;
  return (
    <QuestionSourceContext.Provider value={source}>
    <section className="eval-step eval-results" aria-labelledby="eval-results-title">
      <h2 id="eval-results-title">3 · Results</h2>
      <p className="small">
        {result.set.name}: {plural(result.points.length, 'point')} on {plural(result.questions.length, 'question')} in {(result.ms / 1000).toFixed(1)} s, judged by{' '}
        {METRIC_LABELS[metric]}
        {runMetric && runMetric !== metric ? ' (changed after the run; recomputed here)' : ''}.
      </p>
      {recs.length > 0 ? <Recommendations recs={recs} /> : <p className="eval-note">The run measured no points.</p>}
      <SourceDisagreements result={result} metric={metric} />
      <Suspense fallback={<p className="eval-note">Drawing the charts…</p>}>
        <EvalCharts points={result.points} recs={recs} metric={metric} />
      </Suspense>
      <BestTable recs={recs} metric={metric} />
      {result.routing && result.routing.length > 0 && <RoutingTable routing={result.routing} />}
      <VariantTable points={result.points} metric={metric} />
      <Exports result={result} recs={recs} />
      <QuestionDrill result={result} recs={recs} />
    </section>
    </QuestionSourceContext.Provider>
  );
}
