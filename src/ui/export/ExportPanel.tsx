import { TRANSFORM_WORDS } from '../../core/transform/rewrites';
import { useGeneration } from '../../state/generation';
import { useState } from 'react';
import { BUNDLE_KINDS } from '../../core/export/tables';
import { useBundle, type ExportedBundle } from '../../state/bundle-store';
import { exportBundle, verifyExported } from '../../state/export';
import { exportProgressText, mb, verifyProgressText } from '../../state/messages';
import { useCorpus, useEval, useView } from '../../state/stores';
import { useQuestionSet } from '../../state/question-set';
import type { LabelledQuestion } from '../../core/questions/types';
import { chosenColumns, columnsFor } from '../../state/columns';
import type { PostgresVerifyResult } from '../../worker/postgres-protocol';
import type { ColumnSpec, ExportQuestions } from '../../worker/protocol';
import './export.css';

/** Columns that can be exported: every shown column but query fusion (its variants come from an LLM). */
function exportable(columns: ColumnSpec[]): ColumnSpec[] {
  return columns.filter((c) => !c.fusion);
}

const KIND_NAMES = { sentence: 'sentences', leaf: 'leaves', chunk: 'naive chunks', packed: 'sentence-packed chunks', semantic: 'semantic chunks' } as const;
const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : '—');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const NONE: LabelledQuestion[] = [];
const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter(Boolean);

/** Where the golden run's questions come from. */
type GoldenSource = ExportQuestions['source'];

/** The question set's questions a golden run can use: answerable, in documents still in the corpus. */
function answerable(questions: readonly LabelledQuestion[]): LabelledQuestion[] {
  return questions.filter((q) => !q.unanswerable && q.answers.length > 0 && !q.missingDocs?.length);
}

/** Which questions the golden run gets: the question set's, the imported labelled set's, or the current question and typed ones. */
function Questions({ source, setSource, limit, setLimit, typed, setTyped }: { source: GoldenSource; setSource: (s: GoldenSource) => void; limit: number; setLimit: (n: number) => void; typed: string; setTyped: (s: string) => void }) {
  const set = useEval((s) => s.set);
  const own = answerable(useQuestionSet((s) => s.set?.questions ?? NONE));
  const query = useView((s) => s.view.query.trim());
  const offered: { id: GoldenSource; label: string }[] = [
    ...(own.length ? [{ id: 'question-set' as const, label: `The question set (${own.length} with answers)` }] : []),
    ...(set && set.questions > 0 ? [{ id: 'eval-set' as const, label: `The imported set ${set.name}` }] : []),
    { id: 'typed', label: 'The current question and typed ones' },
  ];
  return (
    <div className="x-field">
      {offered.length > 1 && (
        <label className="x-field">
          <span>Golden run questions from</span>
          <select aria-label="Golden run questions from" value={source} onChange={(e) => setSource(e.target.value as GoldenSource)}>
            {offered.map((o) => (
              <option key={o.id} value={o.id}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
      )}
      {source === 'question-set' && (
        <p className="x-current">
          Golden run: the {own.length} question{own.length === 1 ? '' : 's'} of the question set with gold spans ({sourceCounts(own)}), with their answers: the bundle carries the metrics too.
        </p>
      )}
      {source === 'eval-set' && set && (
        <label className="x-field">
          <span>
            Golden run: the first{' '}
            <input type="number" min={1} max={set.questions} value={limit} aria-label="Golden run size" onChange={(e) => setLimit(Math.max(1, Math.min(set.questions, Number(e.target.value) || 1)))} /> of the{' '}
            {set.questions.toLocaleString('en')} questions of {set.name} (with their answers: the bundle carries the metrics too)
          </span>
        </label>
      )}
      {source === 'typed' && (
        <>
          <span>Golden run questions</span>
          {query ? <p className="x-current">“{query}” (the current question)</p> : <p className="p-hint">No current question: type some below.</p>}
          <textarea aria-label="Golden run: more to ask, one per line" value={typed} onChange={(e) => setTyped(e.target.value)} placeholder="More questions, one per line" rows={3} />
        </>
      )}
    </div>
  );
}

/** "12 marked · 30 generated" */
function sourceCounts(questions: readonly LabelledQuestion[]): string {
  const n = { marked: 0, generated: 0, imported: 0 };
  for (const q of questions) n[q.source.kind]++;
  return (['marked', 'generated', 'imported'] as const).filter((k) => n[k]).map((k) => `${n[k]} ${k}`).join(' · ');
}

function Summary({ b }: { b: ExportedBundle }) {
  const s = b.summary;
  const missing = s.model ? BUNDLE_KINDS.filter((k) => !s.vectorKinds.includes(k)) : [];
  const verified = s.targets.filter((t) => t.status === 'verified by tests');
  const generated = s.targets.filter((t) => t.status === 'generated only');
  return (
    <div className="x-summary" aria-label="Exported bundle">
      <p>
        <a href={b.url} download={b.fileName}>
          {b.fileName}
        </a>{' '}
        — {mb(b.zip.size)} ({s.files} files, {mb(s.fileBytes)} unzipped)
      </p>
      <p className="small">
        Bundle ÷ raw vectors + text ({mb(s.rawBytes)}): zip {ratio(b.zip.size, s.rawBytes)}, files {ratio(s.fileBytes, s.rawBytes)}. {s.documents} documents · {s.sentences.toLocaleString('en')} sentences ·
        vectors: {s.vectorKinds.length ? s.vectorKinds.map((k) => KIND_NAMES[k]).join(', ') : 'none'}
        {s.model ? ` (${s.model})` : ''} · {s.questions} golden question{s.questions === 1 ? '' : 's'} × {s.questions ? s.runs : 0} runs · {seconds(s.exportMs)} + zip{' '}
        {seconds(s.zipMs)}.
      </p>
      {missing.length > 0 && <p className="p-warn">Not in the bundle: vectors of {missing.map((k) => KIND_NAMES[k]).join(', ')} (embedding had not finished).</p>}
      {s.questions === 0 && <p className="p-warn">No golden questions: Verify in Postgres has nothing to compare.</p>}
      <p className="small">
        <strong>Verified by this project&apos;s tests:</strong> {verified.map((t) => t.name).join('; ')}.
      </p>
      <p className="small">
        <strong>Generated only:</strong> {generated.map((t) => t.name).join('; ')}.
      </p>
    </div>
  );
}

function Report({ r }: { r: PostgresVerifyResult }) {
  const diff = (x: number) => (x === 0 ? '0' : x.toExponential(1));
  return (
    <div className="x-report" aria-label="Postgres check">
      <p className={r.agree ? 'x-agree' : 'x-differ'} role="status">
        {r.agree
          ? `Agreement: 100 % — PostgreSQL ranks the same ids and hands over the same blocks, scores within ${r.tolerance}, the same metrics.`
          : 'PostgreSQL differs from the lab: see the rows marked below.'}
      </p>
      <table>
        <caption className="small">Per run, questions where PostgreSQL gives the lab&apos;s ranked unit ids and its blocks (ranges, tokens, text)</caption>
        <thead>
          <tr>
            <th scope="col">run</th>
            <th scope="col">ids</th>
            <th scope="col">blocks</th>
            <th scope="col" title="largest score difference">max |Δ|</th>
            <th scope="col">metrics</th>
          </tr>
        </thead>
        <tbody>
          {r.runs.map((run) => {
            const ok = run.sameUnits === run.questions && run.sameBlocks === run.questions && run.maxScoreDiff <= r.tolerance && run.sameMetrics;
            return (
              <tr key={`${run.retriever}/${run.strategy}`} className={ok ? '' : 'x-bad'}>
                <th scope="row">
                  {run.retriever} · {run.strategy}
                </th>
                <td>
                  {run.sameUnits}/{run.questions}
                </td>
                <td>
                  {run.sameBlocks}/{run.questions}
                </td>
                <td>{diff(run.maxScoreDiff)}</td>
                <td title={run.metricsLab === null ? 'no question has a known answer' : undefined}>{run.metricsLab === null ? '—' : run.sameMetrics ? 'same' : 'differ'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {r.runs
        .filter((run) => run.firstDifference)
        .map((run) => (
          <p key={`${run.retriever}/${run.strategy}`} className="p-error">
            {run.retriever}/{run.strategy}: {run.firstDifference}
          </p>
        ))}
      <p className="small">
        PostgreSQL {r.versions.postgres} with pgvector {r.versions.pgvector} (PGlite, in a worker of this tab): start {seconds(r.startMs)}, load {seconds(r.loadMs)}, questions {seconds(r.queryMs)}.
      </p>
    </div>
  );
}

/**
 * Takes the tuned design out of the lab: the corpus, its vectors and one column's
 * configuration as a bundle (.zip) that PostgreSQL + pgvector and other frameworks load, and
 * a check, in PostgreSQL inside this tab, that the exported SQL ranks what the lab ranked.
 */
export function ExportPanel() {
  const transform = useGeneration((s) => s.settings.queryTransform);
  const base = useView((s) => s.view.retrieval.retriever);
  const shown = useView((s) => s.view.columns);
  // The shown columns, in their order; all of them when none of the shown ones can be exported.
  const chosen = exportable(chosenColumns(base, shown));
  const columns = chosen.length > 0 ? chosen : exportable(columnsFor(base));
  const [columnId, setColumnId] = useState<string>(columns[0]!.id);
  const [limit, setLimit] = useState(50);
  const [typed, setTyped] = useState('');
  const hasDocs = useCorpus((s) => (s.status?.docs.length ?? 0) > 0);
  const set = useEval((s) => s.set);
  const query = useView((s) => s.view.query.trim());
  const { exporting, exported, exportError, verifying, verified, verifyError } = useBundle();
  const column = columns.find((c) => c.id === columnId) ?? columns[0]!;

  const own = useQuestionSet((s) => s.set?.questions ?? NONE);
  const hasOwn = answerable(own).length > 0;
  const hasSet = Boolean(set && set.questions > 0);
  const [chosenSource, setSource] = useState<GoldenSource | null>(null);
  // The user's choice while it is offered; else the question set, then the imported set, then typed questions.
  const source: GoldenSource =
    chosenSource && (chosenSource === 'typed' || (chosenSource === 'question-set' && hasOwn) || (chosenSource === 'eval-set' && hasSet)) ? chosenSource : hasOwn ? 'question-set' : hasSet ? 'eval-set' : 'typed';

  const questions = (): ExportQuestions =>
    source === 'question-set' ? { source, questions: answerable(own) } : source === 'eval-set' ? { source, limit } : { source: 'typed', questions: [query, ...lines(typed)].filter(Boolean) };

  return (
    <section className="panel export" aria-label="Export">
      <h2>Export</h2>
      <p className="p-hint">
        The corpus, its vectors and one column&apos;s configuration as one .zip: Parquet and JSONL tables, PostgreSQL + pgvector SQL that reproduces the column, Haystack, LangChain.js and
        LlamaIndex code, and a golden run to check other engines against. Made in this tab; nothing is uploaded. A bundle dropped on Documents is imported without re-embedding.
      </p>
      <label className="x-field">
        <span>Column</span>
        <select aria-label="Column to export" value={column.id} onChange={(e) => setColumnId(e.target.value)}>
          {columns.map((c) => (
            <option key={c.id} value={c.id}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
      {column.rerank && <p className="p-hint">The cross-encoder is not exported: the bundle retrieves like the hybrid column, without reranking.</p>}
      <p className="p-hint">PostgreSQL reproduces naive chunks, sentence hits, sentence windows and auto-merging with BM25, vector and hybrid retrieval; the golden run holds all of them.</p>
      {transform !== 'none' && (
        <p className="p-hint">
          The Generator panel’s query transformation ({TRANSFORM_WORDS[transform]}) goes with it: in the manifest, with LlamaIndex{transform === 'multiquery' || transform === 'hyde' ? ' and LangChain.js' : ''} code. SQL does not
          rewrite questions: the rewritten queries are its inputs.
        </p>
      )}
      <Questions source={source} setSource={setSource} limit={limit} setLimit={setLimit} typed={typed} setTyped={setTyped} />
      <button type="button" disabled={!hasDocs || exporting !== null} onClick={() => void exportBundle(column, questions())}>
        Export bundle
      </button>
      {!hasDocs && <p className="p-hint">Add documents to export them.</p>}
      {exporting && <Progress label="Export progress" total={exporting.total} done={exporting.phase === 'zip' ? exporting.done : undefined} text={exportProgressText(exporting)} />}
      {exportError && <Failure>Export failed: {exportError}</Failure>}
      {exported && !exporting && <Summary b={exported} />}
      {exported && !exporting && (
        <button type="button" disabled={verifying !== null} onClick={() => void verifyExported()}>
          Verify in Postgres
        </button>
      )}
      {verifying && <Progress label="Postgres check progress" total={verifying.total} done={verifying.phase === 'query' ? verifying.done : undefined} text={verifyProgressText(verifying)} />}
      {verifyError && <Failure>The Postgres check failed: {verifyError}</Failure>}
      {verified && !verifying && <Report r={verified} />}
    </section>
  );
}

/** A step's progress bar (indeterminate while `done` is unknown) and what it is doing. */
function Progress({ label, total, done, text }: { label: string; total: number; done: number | undefined; text: string }) {
  return (
    <div className="x-progress">
      <progress max={total || 1} value={done} aria-label={label} />
      <span className="small">{text}</span>
    </div>
  );
}

function Failure({ children }: { children: React.ReactNode }) {
  return (
    <p className="p-error" role="alert">
      {children}
    </p>
  );
}
