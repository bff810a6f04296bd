/**
 * The lab's evaluation: the imported labelled set, and the set the last run measured (the
 * imported one, or the question set's chosen part), which a question's replay uses.
 */
import type { RetrievalEngine } from '../core/engine';
import type { EvalSet } from '../core/eval/dataset';
import { toEvalSet } from '../core/questions/evaluate-set';
import type { QuestionSet } from '../core/questions/types';
import type { QuestionEvalChoice } from './question-protocol';
import type { RpcContext } from '../rpc/server';
import { blockView } from './block-view';
import { replayQuestion, runEvaluation, runOnQuestionSet, summarize } from './evaluation';
import { labError, type EvalSetSummary, type LabApi } from './protocol';

export class LabEvaluation {
  private imported: { set: EvalSet; format: EvalSetSummary['format'] } | null = null;
  private ranSet: EvalSet | null = null;

  /** The imported labelled set (an export's golden run may take its questions). */
  get importedSet(): EvalSet | null {
    return this.imported?.set ?? null;
  }

  /** Keeps a set read by readEvalFiles (its documents, if any, are the corpus by now). */
  keep(imported: { set: EvalSet; format: EvalSetSummary['format'] }): EvalSetSummary {
    this.imported = imported;
    return summarize(imported.set, imported.format);
  }

  run(engine: RetrievalEngine, questions: QuestionSet, spec: LabApi['evalRun']['params']['spec'], ctx: RpcContext<LabApi['evalRun']['progress']>): Promise<LabApi['evalRun']['result']> {
    if (spec.questions) return runOnQuestionSet(engine, questions, spec, ctx.progress, ctx.signal, (s) => (this.ranSet = s));
    if (!this.imported) throw labError('no-eval-set');
    this.ranSet = this.imported.set;
    return runEvaluation(engine, this.imported.set, this.imported.format, spec, ctx.progress, ctx.signal);
  }

  /** The questions a run on `choice` (else the imported set) would ask: answerable, then unanswerable. */
  questionTexts(engine: RetrievalEngine, questions: QuestionSet, choice: QuestionEvalChoice | undefined): string[] {
    const set = choice ? toEvalSet(questions, engine.corpus.docs, { ...(choice.subset === 'all' ? {} : { only: choice.subset }), includeDocs: false }).set : this.imported?.set;
    if (!set) throw labError('no-eval-set');
    return [...set.questions, ...(set.unanswerable ?? [])].map((q) => q.question);
  }

  replay(engine: RetrievalEngine, { questionId, points }: LabApi['evalQuestion']['params']): Promise<LabApi['evalQuestion']['result']> {
    const set = this.ranSet ?? this.imported?.set;
    if (!set) throw labError('no-eval-set');
    return replayQuestion(engine, set, questionId, points, (b) => blockView(engine, b));
  }
}
