import { useId, useState } from 'react';
import type { Recommendation } from '../../core/eval/sweep';
import { closeEvalQuestion, openEvalQuestion } from '../../state/controller';
import { useEval } from '../../state/stores';
import type { BlockView, EvalQuestionResult, EvalRunResult } from '../../worker/protocol';
import { formatScore, pagesLabel, plural, provenanceParts, sectionPathLabel, splitByHits } from '../results/format';
import { RETRIEVER_NAMES } from '../../core/retrieve/retrievers';
import { strategyWords } from '../../core/strategies/registry';
import { drillPoints, queryInWords } from './analysis';
import { filterQuestions, markAnswers, pageOf } from './question-rows';
import { useEvalSettings } from './settings';

/** A compact block: source, header, text with the retrieved sentences and the gold answers marked. */
function EvalBlock({ block, rank, answers }: { block: BlockView; rank: number; answers: string[] }) {
  const pages = pagesLabel(block.pageStart, block.pageEnd, block.pageUnit);
  const path = sectionPathLabel(block.sectionPath, block.docTitle);
  const pieces = markAnswers(splitByHits(block.text, block.hitSpans), answers);
  return (
    <article className="eval-block" aria-label={`Block ${rank} from ${block.docTitle}`}>
      <header className="eval-block-source">
        <strong>#{rank}</strong> {block.docTitle}
        {path && ` · ${path}`}
        {pages && ` · ${pages}`}
      </header>
      {block.header && <blockquote className="eval-block-header">{block.header}</blockquote>}
      <div className="eval-block-text">
        {pieces.map((p, i) =>
          p.hit || p.answer ? (
            <mark key={i} className={`${p.hit ? 'hit' : ''}${p.answer ? ' answer' : ''}`.trim()}>
              {p.text}
            </mark>
          ) : (
            <span key={i}>{p.text}</span>
          ),
        )}
      </div>
      <footer className="eval-block-meta">
        score {formatScore(block.score)} · {provenanceParts(block.provenance, block.tokens).join(' · ')}
      </footer>
    </article>
  );
}

function QuestionView({ question }: { question: EvalQuestionResult }) {
  const answers = question.question.answers;
  return (
    <div className="eval-question" aria-label="Question drill-down">
      <div className="eval-question-head">
        <div>
          <h3>{question.question.question}</h3>
          <p className="small">
            {answers.length ? (
              <>
                Gold {answers.length === 1 ? 'answer' : 'answers'}:{' '}
                {[...new Set(answers)].map((a, i) => (
                  <span key={i}>
                    {i > 0 && ', '}
                    <mark className="answer">{a}</mark>
                  </span>
                ))}
              </>
            ) : (
              'Judged on gold documents (no answer strings).'
            )}{' '}
            · retrieved sentences are <mark className="hit">highlighted</mark>.
          </p>
        </div>
        <button type="button" onClick={() => closeEvalQuestion()}>
          Close question
        </button>
      </div>
      {/* Scroll boxes are in the Tab order and named, so a keyboard can scroll them. */}
      <div className="eval-question-cols" tabIndex={0} role="group" aria-label="Each strategy’s best point for this question (scrolls sideways)">
        {question.points.map((p, i) => (
          <section key={i} className="eval-question-col" aria-label={`${strategyWords(p.point.strategy)} · ${RETRIEVER_NAMES[p.point.retriever].long}`}>
            <h4>
              {strategyWords(p.point.strategy)} · {RETRIEVER_NAMES[p.point.retriever].long}
            </h4>
            <p className="small">{[queryInWords(p.point), `${p.point.budgetTokens} tokens`].filter(Boolean).join(' · ')}</p>
            <p className={`eval-found ${p.found ? 'yes' : 'no'}`}>
              <span aria-hidden="true">{p.found ? '✓' : '✗'}</span> {p.found ? 'answer in context' : 'answer not in context'}
              {' · '}
              {p.firstRank !== null ? `first at block #${p.firstRank}` : 'no block holds it'}
              {' · '}
              {plural(p.totalTokens, 'token')}
            </p>
            <div className="eval-question-blocks" tabIndex={0} role="group" aria-label={`Blocks of ${strategyWords(p.point.strategy)} · ${RETRIEVER_NAMES[p.point.retriever].long}`}>
              {p.blocks.length ? (
                p.blocks.map((b, j) => <EvalBlock key={j} block={b} rank={j + 1} answers={answers} />)
              ) : (
                <p className="eval-note">No blocks.</p>
              )}
            </div>
          </section>
        ))}
      </div>
    </div>
  );
}

/** The run's questions (filter, 25 a page); one opens replayed at the best point of each strategy. */
export function QuestionDrill({ result, recs }: { result: EvalRunResult; recs: Recommendation[] }) {
  const filter = useEvalSettings((s) => s.filter);
  const page = useEvalSettings((s) => s.page);
  const question = useEval((s) => s.question);
  const [opening, setOpening] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const filterId = useId();
  const matching = filterQuestions(result.questions, filter);
  const shown = pageOf(matching, page);
  const points = drillPoints(recs);
  const open = async (id: string) => {
    setOpening(id);
    setError(null);
    try {
      await openEvalQuestion(id, points);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setOpening(null);
    }
  };
  return (
    <div className="eval-drill">
      <h3>Per question</h3>
      <p className="small">
        Open a question to replay it at the best point of each strategy at {recs[0] ? `${recs[0].budgetTokens} tokens` : 'the first budget'}.
      </p>
      {question && <QuestionView question={question} />}
      {error && (
        <p className="eval-error" role="alert">
          {error}
        </p>
      )}
      <div className="eval-drill-bar">
        <label htmlFor={filterId}>Filter questions</label>
        <input
          id={filterId}
          type="search"
          value={filter}
          placeholder="words in the question or answer"
          onChange={(e) => useEvalSettings.setState({ filter: e.currentTarget.value, page: 0 })}
        />
        <span className="small">
          {plural(matching.length, 'question')}
          {matching.length !== result.questions.length ? ` of ${result.questions.length.toLocaleString('en')}` : ''}
        </span>
      </div>
      <ol className="eval-qlist" start={shown.page * 25 + 1} aria-label="Questions">
        {shown.items.map((q) => (
          <li key={q.id}>
            <button
              type="button"
              className="eval-qbutton"
              aria-current={question?.question.id === q.id ? 'true' : undefined}
              disabled={opening !== null || !points.length}
              onClick={() => void open(q.id)}
            >
              <span className="eval-qtext">{q.question}</span>
              {q.answers.length > 0 && <span className="eval-qanswer">{q.answers[0]}</span>}
            </button>
            {opening === q.id && <span className="small"> replaying…</span>}
          </li>
        ))}
      </ol>
      {shown.pages > 1 && (
        <nav className="eval-pager" aria-label="Question pages">
          <button type="button" disabled={shown.page === 0} onClick={() => useEvalSettings.setState({ page: shown.page - 1 })}>
            Previous
          </button>
          <span className="small">
            Page {shown.page + 1} of {shown.pages}
          </span>
          <button type="button" disabled={shown.page >= shown.pages - 1} onClick={() => useEvalSettings.setState({ page: shown.page + 1 })}>
            Next
          </button>
        </nav>
      )}
    </div>
  );
}
