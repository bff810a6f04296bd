/**
 * The lab worker's state: the corpus session (documents, models, engine), the background
 * embedding job, the corpus map, the labelled set, and persistence. Each public method
 * answers one request of LabApi (routed in lab-handlers.ts); all heavy work happens here, off
 * the page's thread. Parts it hands work to: file-intake.ts (reading a dropped file),
 * load-refusal.ts (the memory estimate), import-store.ts (storing an imported bundle),
 * lab-evaluation.ts (the labelled sets), status-throttle.ts, lab-runtime.ts.
 */
import { documentFromText } from '../core/documents/load';
import { bundleNeed, documentNeed, tabBudget, type Budget, type LoadNeed } from '../core/memory/load-estimate';
import type { StructureParams, UnitKind } from '../core/retrieve/params';
import type { Document, DocumentContext } from '../core/types';
import type { RpcContext } from '../rpc/server';
import { RpcError } from '../rpc/wire';
import type { Manifest } from '../core/export/manifest';
import { exportZip, readBundleZip } from './bundle-jobs';
import { CorpusMap } from './corpus-map';
import { CorpusSession } from './corpus-session';
import type { EmbeddingSendPlan } from '../core/embed/endpoint-choice';
import { EmbeddingJob, embeddingMissing, sendPlan } from './embedding-job';
import { storeImport } from './import-store';
import { readEvalFiles } from './evaluation';
import { readInputFile } from './file-intake';
import { LabEvaluation } from './lab-evaluation';
import { configureLabRuntime } from './lab-runtime';
import { loadRefusal } from './load-refusal';
import { loadEmbedder, loadReranker } from './model-loader';
import { Persistence, type SavedVectors } from './persistence';
import { QuestionBook } from './question-set';
import { LabContexts } from './lab-contexts';
import { StatusThrottle } from './status-throttle';
import { VectorKeeper } from './vector-keeper';
import { LOAD_REFUSED, type AddResult, type LoadRefusal, type InitOptions, type InputFileMessage, type LabApi, type ModelChoice, type ModelStatus, type WorkerStatus } from './protocol';
import { searchColumns } from './search-columns';
import { questionPassages } from './question-passages';
import { withLanguage } from './document-language';

type Ctx<M extends keyof LabApi> = RpcContext<LabApi[M]['progress']>;
type Result<M extends keyof LabApi> = Promise<LabApi[M]['result']>;

export class Lab {
  private options!: InitOptions;
  private readonly job = new EmbeddingJob({
    progress: () => {
      this.throttle.schedule();
      this.keeper.schedule(() => this.session.engine);
    },
    // Stored first, then said: a write that fails changes the status this posts.
    finished: async () => {
      await this.keeper.save(this.session.engine, true);
      this.postStatus(this.status());
    },
  });
  private readonly session = new CorpusSession(this.job);
  private readonly map = new CorpusMap(this.session, () => this.job.paused, {
    progress: () => this.throttle.schedule(),
    finished: () => this.postStatus(this.status()),
  });
  private embedderStatus: ModelStatus = { state: 'none' };
  private rerankerStatus: ModelStatus = { state: 'none' };
  /** The imported labelled set and the set the last run measured (lab-evaluation.ts). */
  private readonly evaluation = new LabEvaluation();
  private readonly persistence = new Persistence();
  /** Vectors and semantic chunks stored per document as they are made (vector-keeper.ts); a refused write is said at once. */
  private readonly keeper = new VectorKeeper(this.persistence, () => this.postStatus(this.status()));
  /** The corpus's question set, stored with it (question-set.ts; its RPC methods are routed to it in lab-handlers.ts). */
  readonly questions = new QuestionBook(() => this.session.docs, (set) => this.persistence.saveQuestions(set));
  /** Situating contexts, kept with the corpus (lab-contexts.ts; routed in lab-handlers.ts). */
  readonly contexts = new LabContexts(() => this.session.engine, () => this.throttle.schedule());
  /** Whole vector sets stored by an older version, waiting for the model they were made with. */
  private savedVectors: SavedVectors[] = [];
  private restored = false;
  /** A bundle whose import was still being stored when the page closed (from storage, said once). */
  private unfinishedImport: string | null = null;
  /** What this tab may hold (from what the page read of the browser's memory at start). */
  private budget: Budget = tabBudget({});
  /** Progress statuses, at most one a second (status-throttle.ts). */
  private readonly throttle = new StatusThrottle(() => this.postStatus(this.status()));

  constructor(private readonly postStatus: (s: WorkerStatus) => void) {}

  async init(options: InitOptions): Result<'init'> {
    this.options = options;
    this.budget = tabBudget(options.memory ?? {});
    configureLabRuntime(options);
    await this.persistence.open();
    let params: unknown = null;
    if (!options.fresh) {
      const saved = await this.persistence.load();
      if (saved) {
        params = saved.params ?? null;
        this.unfinishedImport = saved.unfinishedImport;
        if (saved.docs.length) {
          this.savedVectors = saved.vectors;
          this.keeper.load(saved.semantic);
          await this.session.restore(saved.docs, saved.corpus.structure, saved.splits, saved.lexical);
          this.restored = true;
        }
        this.questions.restore(saved.questions);
      }
    }
    await this.contexts.open(Boolean(options.fresh));
    return { status: this.status(), params };
  }

  // ---- documents ------------------------------------------------------------------

  async addFiles(files: InputFileMessage[], ctx: Ctx<'addFiles'>, force = false): Result<'addFiles'> {
    const result: AddResult = { added: [], errors: [], duplicates: [], cancelled: false };
    const total = files.length;
    // Estimated from its size before it is parsed: a file too large beside what is indexed is
    // refused alone; the drop's other files still go in when they fit.
    const refusal = (file: InputFileMessage) => (force ? null : this.refusal(file.name, 'document', file.bytes.byteLength, documentNeed({ name: file.name, size: file.bytes.byteLength }, this.session.embedder?.dim ?? 0)));
    for (const [index, f] of files.entries()) {
      if (ctx.signal.aborted) {
        result.cancelled = true;
        break;
      }
      const read = await readInputFile(f, { index, total }, ctx, { refusal, faults: Boolean(this.options.faults) });
      if ('problem' in read) {
        result.errors.push({ file: f.name, problem: read.problem });
        continue;
      }
      const { doc } = read;
      ctx.progress({ kind: 'file', file: f.name, stage: 'split', index, total });
      if (!this.session.addDocument(doc)) {
        result.duplicates.push(f.name);
        ctx.progress({ kind: 'file', file: f.name, stage: 'duplicate', index, total });
        continue;
      }
      result.added.push(this.session.lastSummary());
      await this.persistence.appendDocument(this.savedCorpus(), doc, this.session.lastSplit());
      ctx.progress({ kind: 'file', file: f.name, stage: 'done', index, total });
      this.throttle.schedule();
      // Let search requests in between files: results are usable while indexing goes on.
      await new Promise((r) => setTimeout(r, 0));
    }
    await this.afterCorpusChange();
    return result;
  }

  async addText(name: string, text: string): Result<'addText'> {
    const format = /^(#{1,6}\s|[-*]\s)/m.test(text) ? 'md' : 'txt';
    const result: AddResult = { added: [], errors: [], duplicates: [], cancelled: false };
    try {
      const doc = documentFromText(text, name, format);
      if (this.session.addDocument(doc)) result.added.push(this.session.lastSummary());
      else result.duplicates.push(name);
    } catch (e) {
      result.errors.push({ file: name, problem: { code: 'rejected', message: (e as Error).message } });
    }
    await this.afterCorpusChange();
    return result;
  }

  getDocument(docId: string): Document {
    return this.session.document(docId);
  }

  async removeDocument(docId: string): Result<'removeDocument'> {
    // Fault injection: a removal stored as slowly as on a busy disk, so a test can reload before it is.
    if (this.options.faults && this.session.document(docId).meta.fileName.includes('__slow__')) await new Promise((r) => setTimeout(r, 10_000));
    await this.session.removeDocument(docId);
    // Its stored vectors go with it (saveCorpus); the other documents' stay as they are.
    await this.keeper.forget([docId], false);
    await this.afterCorpusChange();
    return this.status();
  }

  async setDocumentContext(docId: string, context: DocumentContext | null): Result<'setDocumentContext'> {
    if (!(await this.session.setDocumentContext(docId, context))) return this.status();
    // New headers: the document's stored vectors no longer hold.
    await this.keeper.forget([docId], true);
    await this.afterCorpusChange();
    return this.status();
  }

  async setDocumentLanguage(docId: string, language: string): Result<'setDocumentLanguage'> {
    if (!(await this.session.replaceDocument(docId, (d) => withLanguage(d, language)))) return this.status();
    // Split and analysed anew in its language: its stored vectors no longer hold.
    await this.keeper.forget([docId], true);
    await this.afterCorpusChange();
    return this.status();
  }

  async clear(): Result<'clear'> {
    await this.session.reset();
    this.savedVectors = [];
    this.keeper.reset();
    this.unfinishedImport = null;
    await this.persistence.clear();
    // Contexts and their vectors go with the corpus.
    await this.contexts.clear();
    // The question set is kept: its questions say their documents are missing.
    await this.questions.corpusChanged();
    this.postStatus(this.status());
    return this.status();
  }

  async setStructure(structure: StructureParams): Result<'setStructure'> {
    this.session.setStructure(structure);
    await this.afterCorpusChange();
    return this.status();
  }

  async setIndexBackend(backend: LabApi['setIndexBackend']['params']['backend']): Result<'setIndexBackend'> {
    if (await this.session.setIndexBackend(backend)) this.job.start(this.session.engine);
    this.postStatus(this.status());
    return this.status();
  }

  sendPlan(): EmbeddingSendPlan {
    return sendPlan(this.session.engine);
  }

  setEmbedding(running: boolean): WorkerStatus {
    this.job.setPaused(!running, this.session.engine);
    this.postStatus(this.status());
    return this.status();
  }

  async saveParams(params: unknown): Result<'saveParams'> {
    await this.persistence.saveParams(params);
    return null;
  }

  private savedCorpus() {
    return { docIds: this.session.docs.map((d) => d.id), structure: this.session.structure, model: this.session.embedder?.model ?? null };
  }

  private async afterCorpusChange(): Promise<void> {
    await this.persistence.saveCorpus(this.savedCorpus(), this.session.docs, this.session.splitsForStorage());
    // Questions into a removed document stay, and say so.
    await this.questions.corpusChanged();
    // Stored contextual vectors of removed units or other headers go at the contexts' next save.
    this.contexts.corpusChanged();
    this.job.start(this.session.engine);
    this.postStatus(this.status());
  }

  // ---- models ---------------------------------------------------------------------

  async loadEmbedder(choice: ModelChoice | null, ctx: Ctx<'loadEmbedder'>): Result<'loadEmbedder'> {
    this.job.stop();
    if (choice) {
      this.embedderStatus = { state: 'loading', model: choice.model };
      this.postStatus(this.status());
    }
    const loaded = await loadEmbedder(choice, this.options.modelsUrl, ctx.progress);
    this.embedderStatus = loaded.status;
    await this.session.setEmbedder(loaded.model, this.savedVectors);
    // Vectors of other models stay stored, in case the user switches back.
    await this.keeper.restoreInto(this.session.engine);
    // The model's stored contextual vectors too, before any context is embedded.
    await this.contexts.modelLoaded();
    void this.keeper.save(this.session.engine, false);
    this.job.start(this.session.engine);
    this.postStatus(this.status());
    return this.embedderStatus;
  }

  async loadReranker(choice: ModelChoice | null, ctx: Ctx<'loadReranker'>): Result<'loadReranker'> {
    if (choice) {
      this.rerankerStatus = { state: 'loading', model: choice.model };
      this.postStatus(this.status());
    }
    const loaded = await loadReranker(choice, this.options.modelsUrl, ctx.progress);
    this.rerankerStatus = loaded.status;
    this.session.reranker = loaded.model;
    this.postStatus(this.status());
    return this.rerankerStatus;
  }

  // ---- search and the corpus map ---------------------------------------------------------

  search(req: LabApi['search']['params'], ctx: Ctx<'search'>): Result<'search'> {
    return searchColumns(this.session.engine, req, (first) => ctx.progress(first));
  }

  projection(method: LabApi['projection']['params']['method'], ctx: Ctx<'projection'>): Result<'projection'> {
    return this.map.projection(method, ctx.progress);
  }

  mapQuery({ method, query }: LabApi['mapQuery']['params']): Result<'mapQuery'> {
    return this.map.placeQuery(method, query);
  }

  mapPoint({ index, query }: LabApi['mapPoint']['params']): Result<'mapPoint'> {
    return this.map.point(index, query);
  }

  /** Seeded passages for question generation (question-passages.ts); the page asks the model. */
  questionPassages({ options }: LabApi['questionPassages']['params']): LabApi['questionPassages']['result'] {
    return questionPassages(this.session.engine.corpus, options);
  }

  // ---- bundles ---------------------------------------------------------------------

  exportBundle(req: LabApi['exportBundle']['params'], ctx: Ctx<'exportBundle'>): Result<'exportBundle'> {
    return exportZip(this.session.engine, req, this.evaluation.importedSet, ctx.progress);
  }

  /**
   * A bundle's documents and vectors join the corpus without re-embedding; they are stored
   * like indexed ones. Any refusal leaves the corpus as it was (the import builds a new engine).
   */
  async importBundle({ name, zip, force }: LabApi['importBundle']['params'], ctx: Ctx<'importBundle'>): Result<'importBundle'> {
    // Cancelled while it waited behind another request: nothing was read.
    ctx.signal.throwIfAborted();
    const t0 = performance.now();
    let tRead = t0;
    const fileBytes = zip instanceof Blob ? zip.size : zip.byteLength;
    // From the manifest alone, before any table is read: a bundle that would not fit beside
    // what is indexed is refused (the user may load it anyway).
    const admit = (m: Manifest) => {
      const refusal = force ? null : this.refusal(name, 'bundle', fileBytes, bundleNeed(m), m.vectors.kinds ?? []);
      if (refusal) throw new RpcError<typeof LOAD_REFUSED, LoadRefusal>(LOAD_REFUSED, `${name} would not fit in this tab's memory`, refusal);
    };
    const r = await readBundleZip(zip instanceof Blob ? zip : new Uint8Array(zip), this.session.embedder, this.session.engine, (phase) => {
      if (phase === 'read') tRead = performance.now();
      ctx.progress({ phase });
    }, this.session.importOptions(), { admit, signal: ctx.signal, slowReads: Boolean(this.options.faults && name.includes('__slow__')) });
    // The last moment a cancel applies: from here the corpus is the new one, and it is stored.
    ctx.signal.throwIfAborted();
    const tStore = performance.now();
    // The engine was built with the session's vector index and reranker: adopted as it is.
    await this.session.adopt(r.engine, true);
    this.unfinishedImport = null;
    // The page searches the new corpus while it is being stored.
    ctx.progress({ phase: 'store' });
    this.postStatus(this.status());
    await new Promise((resolve) => setTimeout(resolve, 0));
    const tMark = performance.now();
    const stored = await storeImport(name, r.lexicalKinds, { session: this.session, keeper: this.keeper, persistence: this.persistence, questions: this.questions, corpus: () => this.savedCorpus() }, Boolean(this.options.faults && name.includes('__crash__')));
    // The bundle's contexts and contextual vectors are stored at the contexts' next save.
    this.contexts.corpusChanged();
    const storeParts = { adopt: tMark - tStore, ...stored };
    const engine = this.session.engine;
    // Every kind the job embeds (a bundle may lack some: sentence-packed chunks, say), not only the bundle's three.
    if (embeddingMissing(engine)) this.job.start(engine);
    this.postStatus(this.status());
    const end = performance.now();
    const m = r.manifest;
    return {
      added: r.added.map((d) => d.title),
      duplicates: r.duplicates.map((d) => d.title),
      sentences: m.corpus.sentences,
      vectorKinds: r.vectorKinds,
      model: m.embedding?.model ?? null,
      strategy: m.strategy,
      retriever: m.retriever,
      params: m.params,
      status: this.status(),
      ms: end - t0,
      // The read phase's parts (importBundle's timings) ride along, for the benchmark.
      phaseMs: { unzip: tRead - t0, read: tStore - tRead, store: end - tStore, ...r.timings, ...storeParts },
    };
  }

  /**
   * Why a load would not fit beside what the tab holds (the current engine, estimated the same
   * way), or null when it fits. An import into an open corpus builds a copy of it first.
   */
  private refusal(file: string, source: LoadRefusal['source'], fileBytes: number, need: LoadNeed, vectorKinds?: readonly UnitKind[]): LoadRefusal | null {
    return loadRefusal({ engine: this.session.engine, backend: this.session.indexBackend, budget: this.budget }, file, source, fileBytes, need, vectorKinds);
  }

  // ---- evaluation --------------------------------------------------------------------

  /** Imports a labelled set; a set with documents (SQuAD, BEIR) becomes the corpus. */
  async evalImport(files: InputFileMessage[]): Result<'evalImport'> {
    const imported = readEvalFiles(files, this.session.docs);
    if (imported.set.docs.length) {
      await this.session.reset(imported.set.docs);
      await this.afterCorpusChange();
    }
    return this.evaluation.keep(imported);
  }

  evalRun(spec: LabApi['evalRun']['params']['spec'], ctx: Ctx<'evalRun'>): Result<'evalRun'> {
    return this.evaluation.run(this.session.engine, this.questions.saved(), spec, ctx);
  }

  evalQuestionTexts(params: LabApi['evalQuestionTexts']['params']): Result<'evalQuestionTexts'> {
    return Promise.resolve(this.evaluation.questionTexts(this.session.engine, this.questions.saved(), params.questions));
  }

  evalQuestion(params: LabApi['evalQuestion']['params']): Result<'evalQuestion'> {
    return this.evaluation.replay(this.session.engine, params);
  }

  // ---- status -----------------------------------------------------------------------

  status(): WorkerStatus {
    return {
      docs: this.session.summaries(),
      embedder: this.embedderStatus,
      reranker: this.rerankerStatus,
      embedding: this.job.status(this.session.engine),
      structure: this.session.structure,
      persistence: { on: this.persistence.on, ...(this.persistence.reason ? { reason: this.persistence.reason } : {}), ...(this.keeper.restored ? { restored: this.keeper.restored } : {}) },
      indexBackend: this.session.indexBackend,
      restored: this.restored,
      ...(this.unfinishedImport ? { unfinishedImport: this.unfinishedImport } : {}),
      ...(this.map.progress ? { map: this.map.progress } : {}),
      contexts: this.contexts.summary(),
    };
  }
}
