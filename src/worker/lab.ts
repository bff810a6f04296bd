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
import { LabChanges, type LabChange } from './lab-changes';
import { QuestionBook } from './question-set';
import { LabContexts } from './lab-contexts';
import { StatusThrottle } from './status-throttle';
import { VectorKeeper } from './vector-keeper';
import { labError, LOAD_REFUSED, type AddResult, type LoadRefusal, type InitOptions, type InputFileMessage, type LabApi, type ModelChoice, type ModelStatus, type WorkerStatus } from './protocol';
import { searchColumns } from './search-columns';
import { SentAnswers } from './sent-answers';
import { questionPassages } from './question-passages';
import { withLanguage } from './document-language';

type Ctx<M extends keyof LabApi> = RpcContext<LabApi[M]['progress']>;
type Result<M extends keyof LabApi> = Promise<LabApi[M]['result']>;

/** How soon a tab that follows another reads what that one stored (at least: a slow read waits twice its time). */
const FOLLOW_MS = 300;

/** The same documents in the same order, with the same header text. */
function sameDocuments(a: readonly Document[], b: readonly Document[]): boolean {
  return a.length === b.length && a.every((d, i) => d.id === b[i]!.id && JSON.stringify(d.context ?? null) === JSON.stringify(b[i]!.context ?? null));
}

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
  /** The columns' answers last sent to the page: one that answers the same again is not sent (sent-answers.ts). */
  private readonly sent = new SentAnswers();
  /** What this tab stores is announced to the others; what they store is read when this tab does not own the lab. */
  private readonly changes = new LabChanges((change) => this.heard(change));
  private readonly persistence = new Persistence({ changed: (change) => this.changes.announce(change), lost: () => this.lostLab() });
  /**
   * This tab owns the lab (the page holds its Web Lock, lab-owner.ts): it writes, and it embeds.
   * A tab that does not shows what the owner stores, and changes nothing (lab-handlers.ts refuses).
   */
  private owner = true;
  /** Changes other tabs stored that this one has not read yet, the timer that reads them, and how often this tab has. */
  private readonly unread = new Set<LabChange>();
  private followTimer: ReturnType<typeof setTimeout> | null = null;
  private followDelay = FOLLOW_MS;
  private followed = 0;
  /** Vectors and semantic chunks stored per document as they are made (vector-keeper.ts); a refused write is said at once. */
  private readonly keeper = new VectorKeeper(this.persistence, () => this.postStatus(this.status()));
  /** The corpus's question set, stored with it (question-set.ts; its RPC methods are routed to it in lab-handlers.ts). */
  readonly questions = new QuestionBook(() => this.session.docs, { put: (q) => this.persistence.putQuestions(q), delete: (ids) => this.persistence.deleteQuestions(ids), addRun: (run) => this.persistence.addQuestionRun(run) });
  /** Situating contexts, kept with the corpus (lab-contexts.ts; routed in lab-handlers.ts). */
  readonly contexts = new LabContexts(() => this.session.engine, () => this.throttle.schedule(), { writable: async () => this.owner && (!this.persistence.on || (await this.persistence.stillOwner())), stored: () => this.changes.announce('contexts') });
  /** Whole vector sets stored by an older version, waiting for the model they were made with. */
  private savedVectors: SavedVectors[] = [];
  private restored = false;
  /** A bundle whose import was still being stored when the page closed (from storage, said once). */
  private unfinishedImport: string | null = null;
  /** What this tab may hold (from what the page read of the browser's memory at start). */
  private budget: Budget = tabBudget({});
  /** Progress statuses, at most one a second (status-throttle.ts). */
  private readonly throttle = new StatusThrottle(() => this.postStatus(this.status()));

  /** `serially`: runs work the lab starts by itself (reading another tab's changes) in the RPC's serial queue. */
  constructor(
    private readonly postStatus: (s: WorkerStatus) => void,
    private readonly serially: <T>(work: () => Promise<T>) => Promise<T> = (work) => work(),
  ) {}

  async init(options: InitOptions): Result<'init'> {
    this.options = options;
    this.budget = tabBudget(options.memory ?? {});
    configureLabRuntime(options);
    await this.persistence.open();
    this.owner = options.owner !== false;
    this.job.held = !this.owner;
    if (this.owner) await this.persistence.claim(this.changes.tab);
    let params: unknown = null;
    if (!options.fresh) {
      const saved = await this.persistence.load();
      if (saved) {
        params = saved.params ?? null;
        // Another tab's import under way is not this tab's to report.
        this.unfinishedImport = this.owner ? saved.unfinishedImport : null;
        if (this.unfinishedImport) await this.persistence.dropImportMark();
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
      await this.persistence.addDocuments([{ doc, split: this.session.lastSplit() }], this.savedCorpus());
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
      if (this.session.addDocument(doc)) {
        result.added.push(this.session.lastSummary());
        await this.persistence.addDocuments([{ doc, split: this.session.lastSplit() }], this.savedCorpus());
      } else result.duplicates.push(name);
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
    // Its records go (its vectors with them); every other record stays as it is.
    await this.persistence.removeDocuments([docId]);
    this.keeper.forget([docId]);
    await this.afterCorpusChange();
    return this.status();
  }

  async setDocumentContext(docId: string, context: DocumentContext | null): Result<'setDocumentContext'> {
    if (!(await this.session.setDocumentContext(docId, context))) return this.status();
    // New headers: the document goes to the end of the list, and its stored vectors no longer hold.
    await this.persistence.replaceDocument({ doc: this.session.docs.at(-1)!, split: this.session.lastSplit() });
    this.keeper.forget([docId]);
    await this.afterCorpusChange();
    return this.status();
  }

  async setDocumentLanguage(docId: string, language: string): Result<'setDocumentLanguage'> {
    if (!(await this.session.replaceDocument(docId, (d) => withLanguage(d, language)))) return this.status();
    // Split and analysed anew in its language (now at the end of the list): its stored vectors no longer hold.
    await this.persistence.replaceDocument({ doc: this.session.docs.at(-1)!, split: this.session.lastSplit() });
    this.keeper.forget([docId]);
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
    return { structure: this.session.structure, model: this.session.embedder?.model ?? null };
  }

  private async afterCorpusChange(): Promise<void> {
    // Documents are stored as they come and go: here only the settings, and the splits they changed.
    await this.persistence.saveSettings(this.savedCorpus(), this.session.splitsToStore());
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
    return searchColumns(this.session.engine, req, (first) => ctx.progress(first), this.sent);
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
    const stored = await storeImport(name, r.added, r.lexicalKinds, { session: this.session, keeper: this.keeper, persistence: this.persistence, questions: this.questions, corpus: () => this.savedCorpus() }, Boolean(this.options.faults && name.includes('__crash__')));
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
      if (!this.owner) throw labError('read-only');
      await this.session.reset(imported.set.docs);
      const splits = this.session.splitsToStore();
      await this.persistence.replaceCorpus(this.session.docs.map((doc) => ({ doc, split: splits.get(doc.id) })), this.savedCorpus());
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

  // ---- several tabs -------------------------------------------------------------------

  /** Whether this tab owns the lab (write requests are refused otherwise: lab-handlers.ts). */
  get ownsLab(): boolean {
    return this.owner;
  }

  /**
   * This tab takes the lab (its page now holds the lock): its claim is stored first, then what
   * is stored is read in place of what it held, and only then does it write or embed.
   */
  async own(): Result<'own'> {
    if (!this.owner) {
      this.owner = true;
      this.unread.clear();
      await this.persistence.claim(this.changes.tab);
      await this.readStored();
      this.job.held = false;
      this.job.start(this.session.engine);
    }
    this.postStatus(this.status());
    return this.status();
  }

  /**
   * Another tab takes the lab: embedding stops, and what this tab made and has not stored yet
   * (vectors of documents embedded in part, contexts) is stored before the page lets the lock
   * go, so the other tab reads it instead of making it again. From then on this tab writes nothing.
   */
  async yieldLab(): Result<'yieldLab'> {
    if (this.owner) {
      this.owner = false;
      this.job.held = true;
      // The batch in flight puts its vectors in first: stored now, they are not embedded again by the next owner.
      await this.job.stop();
      await this.keeper.save(this.session.engine, true);
      await this.contexts.storeNow();
      this.persistence.release();
    }
    this.postStatus(this.status());
    return this.status();
  }

  /** A write found another tab's claim (its page took the lab while this one was writing): this tab follows it from now on. */
  private lostLab(): void {
    if (!this.owner) return;
    this.owner = false;
    this.job.held = true;
    this.job.stop();
    this.heard('docs');
    this.postStatus(this.status());
  }

  /** Another tab stored a change: read soon (coalesced), unless this tab owns the lab (only it writes). */
  private heard(change: LabChange): void {
    if (this.owner) return;
    this.unread.add(change);
    if (this.followTimer) return;
    this.followTimer = setTimeout(() => {
      this.followTimer = null;
      void this.serially(() => this.follow()).catch(() => undefined);
    }, this.followDelay);
  }

  /** Reads what other tabs stored since the last time, and says so (the page reads the question set again, the columns search again). */
  private async follow(): Promise<void> {
    if (this.owner || !this.unread.size) return;
    const what = new Set(this.unread);
    this.unread.clear();
    const t0 = performance.now();
    if (what.has('docs')) await this.readStored();
    else {
      if (what.has('vectors')) await this.keeper.refresh(this.session.engine);
      if (what.has('questions')) this.questions.restore(await this.persistence.loadQuestions());
    }
    if (what.has('contexts') || what.has('docs')) await this.contexts.reload();
    // A large corpus is read less often: never more than half the time.
    this.followDelay = Math.max(FOLLOW_MS, 2 * (performance.now() - t0));
    this.followed++;
    this.postStatus(this.status());
  }

  /**
   * What is stored now, in place of what this tab holds (it follows another tab, or takes the
   * lab over): the documents (the engine is rebuilt only when they changed), their vectors and
   * semantic chunks for the loaded model, and the question set.
   */
  private async readStored(): Promise<void> {
    const saved = await this.persistence.load();
    const docs = saved?.docs ?? [];
    if (!sameDocuments(docs, this.session.docs)) {
      this.keeper.reset();
      if (saved && docs.length) {
        this.keeper.load(saved.semantic);
        await this.session.restore(docs, this.session.structure, saved.splits, saved.lexical);
      } else await this.session.reset();
      this.savedVectors = saved?.vectors ?? [];
    } else if (saved) this.keeper.load(saved.semantic);
    await this.keeper.restoreInto(this.session.engine);
    this.questions.restore(saved?.questions ?? null);
    this.unfinishedImport = this.owner ? (saved?.unfinishedImport ?? null) : null;
    if (this.unfinishedImport) await this.persistence.dropImportMark();
  }

  // ---- status -----------------------------------------------------------------------

  status(): WorkerStatus {
    const docs = this.session.summaries();
    // A document left out for its unreadable text is no longer named once a file of its title is back.
    const lost = this.persistence.lost.filter((title) => !docs.some((d) => d.title === title));
    return {
      docs,
      embedder: this.embedderStatus,
      reranker: this.rerankerStatus,
      embedding: this.job.status(this.session.engine),
      structure: this.session.structure,
      persistence: { on: this.persistence.on, ...(this.persistence.reason ? { reason: this.persistence.reason } : {}), ...(this.keeper.restored ? { restored: this.keeper.restored } : {}), ...(lost.length ? { lost } : {}) },
      indexBackend: this.session.indexBackend,
      restored: this.restored,
      ...(this.unfinishedImport ? { unfinishedImport: this.unfinishedImport } : {}),
      ...(this.map.progress ? { map: this.map.progress } : {}),
      contexts: this.contexts.summary(),
      lab: { owner: this.owner, followed: this.followed },
    };
  }
}
