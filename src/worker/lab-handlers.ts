/**
 * LabApi's handlers: which method of the lab answers each request, and when it may run.
 * 'serial' handlers run one after another (the engine is not re-entrant); 'concurrent' ones
 * at once, so a search never waits behind a long indexing request.
 */
import type { Handler, Handlers, RpcContext } from '../rpc/server';
import type { Lab } from './lab';
import { ownedWrites } from './lab-owned';
import type { LabApi } from './protocol';

export function labHandlers(getLab: () => Promise<Lab>): Handlers<LabApi> {
  const on = <M extends keyof LabApi>(
    concurrency: 'serial' | 'concurrent',
    run: (lab: Lab, params: LabApi[M]['params'], ctx: RpcContext<LabApi[M]['progress']>) => LabApi[M]['result'] | Promise<LabApi[M]['result']>,
  ): Handler<LabApi, M> => ({ concurrency, run: async (params, ctx) => run(await getLab(), params, ctx) });

  // Requests that change the corpus, its questions or contexts are refused in a tab that does not own the lab (lab-owned.ts).
  return ownedWrites(getLab, {
    init: on('serial', (lab, p) => lab.init(p.options)),
    addFiles: on('serial', (lab, p, ctx) => lab.addFiles(p.files, ctx, p.force)),
    addText: on('serial', (lab, p) => lab.addText(p.name, p.text)),
    loadEmbedder: on('serial', (lab, p, ctx) => lab.loadEmbedder(p.choice, ctx)),
    loadReranker: on('serial', (lab, p, ctx) => lab.loadReranker(p.choice, ctx)),
    setStructure: on('serial', (lab, p) => lab.setStructure(p.structure)),
    removeDocument: on('serial', (lab, p) => lab.removeDocument(p.docId)),
    setDocumentContext: on('serial', (lab, p) => lab.setDocumentContext(p.docId, p.context)),
    setDocumentLanguage: on('serial', (lab, p) => lab.setDocumentLanguage(p.docId, p.language)),
    clear: on('serial', (lab) => lab.clear()),
    setIndexBackend: on('serial', (lab, p) => lab.setIndexBackend(p.backend)),
    // At once, even while files are added or an evaluation runs: a pause must not wait for them
    // (the job only reads the engine; a serial call that replaces the engine starts its own job).
    setEmbedding: on('concurrent', (lab, p) => lab.setEmbedding(p.running)),
    evalImport: on('serial', (lab, p) => lab.evalImport(p.files)),
    evalRun: on('serial', (lab, p, ctx) => lab.evalRun(p.spec, ctx)),
    evalQuestion: on('serial', (lab, p) => lab.evalQuestion(p)),
    evalQuestionTexts: on('serial', (lab, p) => lab.evalQuestionTexts(p)),
    // A bundle reads the engine as one consistent corpus: no document comes or goes meanwhile.
    exportBundle: on('serial', (lab, p, ctx) => lab.exportBundle(p, ctx)),
    importBundle: on('serial', (lab, p, ctx) => lab.importBundle(p, ctx)),
    // The question set (question-set.ts): serial, so a change never races a corpus change.
    questionsList: on('serial', (lab) => lab.questions.state()),
    questionsAdd: on('serial', (lab, p) => lab.questions.add(p.questions, p.run)),
    questionsUpdate: on('serial', (lab, p) => lab.questions.update(p.question)),
    questionsDelete: on('serial', (lab, p) => lab.questions.delete(p.ids)),
    // Reads: they run at once. The map only reads cached projections (UMAP runs in its own worker).
    search: on('concurrent', (lab, p, ctx) => lab.search(p, ctx)),
    getDocument: on('concurrent', (lab, p) => lab.getDocument(p.docId)),
    saveParams: on('concurrent', (lab, p) => lab.saveParams(p.params)),
    sendPlan: on('concurrent', (lab) => lab.sendPlan()),
    projection: on('concurrent', (lab, p, ctx) => lab.projection(p.method, ctx)),
    mapQuery: on('concurrent', (lab, p) => lab.mapQuery(p)),
    mapPoint: on('concurrent', (lab, p) => lab.mapPoint(p)),
    // Question generation's passages: a read of the corpus (sampling is synchronous).
    questionPassages: on('concurrent', (lab, p) => lab.questionPassages(p)),
    // Contextual retrieval (lab-contexts.ts): plans and calls are reads; a context kept is a change.
    contextsState: on('concurrent', (lab, p) => lab.contexts.state(p.kind)),
    contextsPlan: on('concurrent', (lab, p) => lab.contexts.plan(p)),
    contextsCalls: on('concurrent', (lab, p) => lab.contexts.calls(p)),
    contextsPut: on('serial', (lab, p) => lab.contexts.put(p.key, p.context)),
    contextsEdit: on('serial', (lab, p) => lab.contexts.edit(p.key, p.text)),
    contextsRecordRun: on('serial', (lab, p) => lab.contexts.record(p.run)),
    // Several tabs: taking the lab reads the storage in the queue; handing it over stores at once (a long request must not hold the other tab).
    own: on('serial', (lab) => lab.own()),
    yieldLab: on('concurrent', (lab) => lab.yieldLab()),
  });
}
