/**
 * The worker's state and request handlers: documents, the retrieval engine, models,
 * the background embedding job and persistence. All heavy work happens here, off the
 * page's thread; the page only sends requests and renders what comes back.
 */
import { LoaderError } from '../core/documents/builder';
import { documentFromText, loadDocument } from '../core/documents/load';
import { setPdfJsLoader, type PdfJs } from '../core/documents/pdf';
import { EmbeddingCancelled, type Embedder } from '../core/embed/embedder';
import { CrossEncoderReranker, type Reranker } from '../core/embed/reranker';
import { TransformersEmbedder } from '../core/embed/transformers-embedder';
import { setVoyWasmSource, VoyIndex } from '../core/index/voy-index';
import { RetrievalEngine } from '../core/engine';
import { retrievalParams, structureParams, type RetrievalParams, type StructureParams, type UnitKind } from '../core/retrieve/params';
import { uniqueQueries } from '../core/retrieve/query-fusion';
import { commonSection, sectionPath } from '../core/structure/corpus';
import { headerKey } from '../core/structure/headers';
import type { ContextBlock, Document, DocumentContext } from '../core/types';
import type { EvalSet } from '../core/eval/dataset';
import { fitPca, projectPca, projectPcaPoint, type PcaModel } from '../core/map/pca';
import { placeByNeighbours, rowDot } from '../core/map/place';
import { UMAP_MIN_POINTS } from '../core/map/umap';
import type { UmapMessage, UmapRequest } from './umap-worker';
import { readEvalFiles, replayQuestion, runEvaluation, summarize } from './evaluation';
import { configureModelSource, configureRuntime, describeLoadError, pickDevice } from './model-env';
import { Persistence, type SavedVectors } from './persistence';
import type {
  AddResult,
  BlockView,
  ColumnResult,
  ColumnSpec,
  EvalSetSummary,
  DocSummary,
  InitOptions,
  IndexBackend,
  InputFileMessage,
  MapPointInfo,
  MapProgressMessage,
  ModelChoice,
  ProjectionData,
  ProjectionMethod,
  ProjectionResult,
  ModelStatus,
  Progress,
  Request,
  Results,
  WorkerStatus,
} from './protocol';

const KINDS: UnitKind[] = ['sentence', 'leaf', 'chunk'];
const FUSION_NEEDS_GENERATOR = 'Query fusion needs an LLM to rewrite the question: choose a generator and a number of query-fusion variants in the Generator panel, then press Ask.';
const MAX_VARIANTS = 2;

type Emit = (p: Progress) => void;

/** Forwards transformers.js download events as model progress messages. */
function modelProgress(role: 'embedder' | 'reranker', emit: Emit) {
  return (p: { status: string; file?: string; loaded?: number; total?: number }) =>
    emit({ kind: 'model', role, status: p.status, ...(p.file ? { file: p.file } : {}), ...(p.loaded !== undefined ? { loaded: p.loaded } : {}), ...(p.total !== undefined ? { total: p.total } : {}) });
}

/** Trims a title and summary to what a header can hold; an empty context is none. */
function documentContext(c: DocumentContext): DocumentContext | null {
  const title = typeof c.title === 'string' ? c.title.replace(/\s+/g, ' ').trim().slice(0, 300) : '';
  const summary = typeof c.summary === 'string' ? c.summary.replace(/\s+/g, ' ').trim().slice(0, 1000) : '';
  if (!title && !summary) return null;
  return { ...(title ? { title } : {}), ...(summary ? { summary } : {}), by: typeof c.by === 'string' && c.by ? c.by.slice(0, 200) : 'user' };
}

/** Structure fields that need a new chunk tree (headers only need new vectors). */
function treeKey(s: StructureParams): string {
  return JSON.stringify([s.chunkLevels, s.sectionLevel, s.naive]);
}

export class Lab {
  private options!: InitOptions;
  private docs: Document[] = [];
  private structure: StructureParams = structureParams();
  private embedder: Embedder | null = null;
  private reranker: Reranker | null = null;
  private embedderStatus: ModelStatus = { state: 'none' };
  private rerankerStatus: ModelStatus = { state: 'none' };
  private engine: RetrievalEngine = new RetrievalEngine();
  private indexBackend: IndexBackend = 'flat';
  /** Engines of other chunk-tree variants (same documents, model and index), newest last. */
  private readonly variants = new Map<string, RetrievalEngine>();
  private paused = false;
  private evalSet: { set: EvalSet; format: EvalSetSummary['format'] } | null = null;
  private job: { controller: AbortController; engine: RetrievalEngine } | null = null;
  private jobInfo: { unit?: UnitKind; etaS?: number; truncated: number; error?: string; progress?: { done: number; total: number } } = { truncated: 0 };
  private readonly persistence = new Persistence();
  /** Vectors restored from storage, waiting for the model they were made with. */
  private savedVectors: SavedVectors[] = [];
  private restored = false;
  private lastStatus = 0;
  /** Corpus map: the sentence matrix and projections of one corpus state (see mapKey). */
  private map: { key: string; matrix: { dim: number; count: number; data: Float32Array }; pca?: { model: PcaModel; data: ProjectionData }; umap?: ProjectionData; umapFit?: Int32Array } | null = null;
  private mapJob: { key: string; cancelled: boolean; worker: Worker } | null = null;
  private mapProgress: MapProgressMessage | null = null;
  /** Sentences whose vector was not finite (drawn from a zero vector). */
  private mapBad = 0;
  private statusTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly postStatus: (s: WorkerStatus) => void) {}

  async handle(req: Request, emit: Emit, signal: AbortSignal): Promise<Results[Request['type']]> {
    switch (req.type) {
      case 'init':
        return this.init(req.options);
      case 'addFiles':
        return this.addFiles(req.files, emit, signal);
      case 'addText':
        return this.addText(req.name, req.text);
      case 'loadEmbedder':
        return this.loadEmbedder(req.choice, emit);
      case 'loadReranker':
        return this.loadReranker(req.choice, emit);
      case 'setStructure':
        return this.setStructure(req.structure);
      case 'search':
        return this.search(req.query, req.params, req.columns, req.variants);
      case 'getDocument': {
        const d = this.docs.find((x) => x.id === req.docId);
        if (!d) throw new Error('that document is no longer in the corpus');
        return d;
      }
      case 'removeDocument':
        return this.remove(req.docId);
      case 'setDocumentContext':
        return this.setDocumentContext(req.docId, req.context);
      case 'clear':
        return this.clear();
      case 'setEmbedding':
        this.paused = !req.running;
        if (this.paused) this.stopEmbedding();
        else this.kickEmbedding();
        this.postStatus(this.status());
        return this.status();
      case 'evalImport':
        return this.evalImport(req.files);
      case 'evalRun':
        if (!this.evalSet) throw new Error('import a labelled set first');
        return runEvaluation(this.engine, this.evalSet.set, this.evalSet.format, req.spec, emit, signal);
      case 'evalQuestion':
        if (!this.evalSet) throw new Error('import a labelled set first');
        return replayQuestion(this.engine, this.evalSet.set, req.questionId, req.points, (b) => this.view(b));
      case 'setIndexBackend':
        return this.setIndexBackend(req.backend);
      case 'saveParams':
        await this.persistence.saveParams(req.params);
        return null;
      case 'projection':
        return this.projection(req.method, emit);
      case 'mapQuery':
        return this.mapQuery(req.method, req.query);
      case 'mapPoint':
        return this.mapPoint(req.index, req.query);
      case 'cancel':
        return false; // handled by the dispatcher
    }
  }

  private async init(options: InitOptions): Promise<Results['init']> {
    this.options = options;
    configureRuntime(options.ortWasm, options.threads);
    setVoyWasmSource(async () => (await fetch(options.voyWasm)).arrayBuffer());
    setPdfJsLoader(async () => {
      const pdfjs = (await import('pdfjs-dist/legacy/build/pdf.mjs')) as unknown as PdfJs;
      pdfjs.GlobalWorkerOptions.workerSrc = options.pdfWorkerUrl;
      return pdfjs;
    });
    await this.persistence.open();
    let params: unknown = null;
    if (!options.fresh) {
      const saved = await this.persistence.load();
      if (saved) {
        params = saved.params ?? null;
        if (saved.docs.length) {
          this.structure = structureParams(saved.corpus.structure);
          this.docs = saved.docs;
          this.savedVectors = saved.vectors;
          this.engine = this.newEngine();
          this.engine.addDocuments(this.docs);
          this.restored = true;
        }
      }
    }
    return { status: this.status(), params };
  }

  private newEngine(structure: StructureParams = this.structure): RetrievalEngine {
    const vectorIndex = this.indexBackend === 'voy' ? (dim: number) => VoyIndex.create(dim) : undefined;
    return new RetrievalEngine({ embedder: this.embedder, reranker: this.reranker, structure, ...(vectorIndex ? { vectorIndex } : {}) });
  }

  /**
   * Exact scan (default) or voy-search's k-d tree. Vectors move over as they are: switching
   * rebuilds the index, it never re-embeds.
   */
  private async setIndexBackend(backend: IndexBackend): Promise<WorkerStatus> {
    if (backend !== this.indexBackend) {
      this.stopEmbedding();
      const snapshot = this.engine.vectorSnapshot();
      this.variants.clear();
      this.indexBackend = backend;
      const engine = this.newEngine();
      engine.addDocuments(this.docs);
      await engine.restoreVectors(snapshot);
      this.engine = engine;
      this.kickEmbedding();
    }
    this.postStatus(this.status());
    return this.status();
  }

  // ---- documents ------------------------------------------------------------------

  private summary(d: Document, i: number, coverage: { done: number; total: number }[]): DocSummary {
    const c = this.engine.corpus;
    return {
      id: d.id,
      title: d.title,
      fileName: d.meta.fileName,
      language: d.language,
      format: d.meta.format,
      size: d.meta.size,
      pages: d.pages.length,
      sections: d.sections.length - 1,
      sentences: (c.docStarts[i + 1] ?? 0) - (c.docStarts[i] ?? 0),
      warnings: d.warnings ?? [],
      ...(d.context ? { context: d.context } : {}),
      embedded: coverage[i] ?? { done: 0, total: 0 },
    };
  }

  private async addFiles(files: InputFileMessage[], emit: Emit, signal: AbortSignal): Promise<AddResult> {
    const result: AddResult = { added: [], errors: [], duplicates: [], cancelled: false };
    for (const [index, f] of files.entries()) {
      if (signal.aborted) {
        result.cancelled = true;
        break;
      }
      const total = files.length;
      emit({ kind: 'file', file: f.name, stage: 'parse', index, total });
      if (this.options.faults && f.name.includes('__crash__')) {
        // Simulated crash: an uncaught error, and this request never answers.
        setTimeout(() => {
          throw new Error(`simulated worker crash while indexing ${f.name}`);
        }, 0);
        await new Promise(() => undefined);
      }
      let doc: Document;
      try {
        doc = await loadDocument({ name: f.name, bytes: new Uint8Array(f.bytes), ...(f.lastModified ? { lastModified: f.lastModified } : {}) });
      } catch (e) {
        const message = e instanceof LoaderError ? e.message : `${f.name}: could not be read (${(e as Error).message})`;
        result.errors.push({ file: f.name, message });
        emit({ kind: 'file', file: f.name, stage: 'failed', message, index, total });
        continue;
      }
      emit({ kind: 'file', file: f.name, stage: 'split', index, total });
      if (!this.addDocument(doc)) {
        result.duplicates.push(f.name);
        emit({ kind: 'file', file: f.name, stage: 'duplicate', message: `${f.name}: the same content is already in the corpus`, index, total });
        continue;
      }
      result.added.push(this.summary(doc, this.docs.length - 1, this.engine.documentCoverage()));
      await this.persistence.appendDocument(this.savedCorpus(), doc);
      emit({ kind: 'file', file: f.name, stage: 'done', index, total });
      this.scheduleStatus();
      // Let search requests in between files: results are usable while indexing goes on.
      await new Promise((r) => setTimeout(r, 0));
    }
    await this.afterCorpusChange();
    return result;
  }

  private addDocument(doc: Document): boolean {
    const { added } = this.engine.addDocuments([doc]);
    if (!added.length) return false;
    this.docs.push(doc);
    return true;
  }

  private async addText(name: string, text: string): Promise<AddResult> {
    const format = /^(#{1,6}\s|[-*]\s)/m.test(text) ? 'md' : 'txt';
    const result: AddResult = { added: [], errors: [], duplicates: [], cancelled: false };
    try {
      const doc = documentFromText(text, name, format);
      if (this.addDocument(doc)) result.added.push(this.summary(doc, this.docs.length - 1, this.engine.documentCoverage()));
      else result.duplicates.push(name);
    } catch (e) {
      result.errors.push({ file: name, message: (e as Error).message });
    }
    await this.afterCorpusChange();
    return result;
  }

  private async remove(docId: string): Promise<WorkerStatus> {
    this.stopEmbedding();
    this.variants.clear();
    this.engine = await this.engine.withoutDocuments([docId]);
    this.docs = this.docs.filter((d) => d.id !== docId);
    await this.afterCorpusChange();
    await this.persistVectors();
    return this.status();
  }

  /**
   * A new title or summary changes the document's headers, hence its embedded text: the
   * document is taken out and appended again, so only its own units are embedded anew.
   */
  private async setDocumentContext(docId: string, context: DocumentContext | null): Promise<WorkerStatus> {
    const doc = this.docs.find((d) => d.id === docId);
    if (!doc) throw new Error('that document is no longer in the corpus');
    const clean = context ? documentContext(context) : null;
    const { context: _old, ...rest } = doc;
    const updated: Document = clean ? { ...rest, context: clean } : rest;
    if (JSON.stringify(updated.context ?? null) === JSON.stringify(doc.context ?? null)) return this.status();
    this.stopEmbedding();
    this.variants.clear();
    this.engine = await this.engine.withoutDocuments([docId]);
    this.docs = this.docs.filter((d) => d.id !== docId);
    this.addDocument(updated);
    await this.afterCorpusChange();
    await this.persistVectors();
    return this.status();
  }

  private async clear(): Promise<WorkerStatus> {
    this.stopEmbedding();
    this.variants.clear();
    this.docs = [];
    this.savedVectors = [];
    this.engine = this.newEngine();
    await this.persistence.clear();
    this.postStatus(this.status());
    return this.status();
  }

  private savedCorpus() {
    return { docIds: this.docs.map((d) => d.id), structure: this.structure, model: this.embedder?.model ?? null };
  }

  private async afterCorpusChange(): Promise<void> {
    await this.persistence.saveCorpus(this.savedCorpus(), this.docs);
    this.kickEmbedding();
    this.postStatus(this.status());
  }

  // ---- evaluation --------------------------------------------------------------------

  /** Imports a labelled set; a set with documents (SQuAD, BEIR) becomes the corpus. */
  private async evalImport(files: InputFileMessage[]): Promise<EvalSetSummary> {
    const imported = readEvalFiles(files, this.docs);
    if (imported.set.docs.length) {
      this.stopEmbedding();
      this.variants.clear();
      this.docs = [];
      this.engine = this.newEngine();
      for (const d of imported.set.docs) this.addDocument(d);
      await this.afterCorpusChange();
    }
    this.evalSet = imported;
    return summarize(imported.set, imported.format);
  }

  // ---- structure ------------------------------------------------------------------

  private async setStructure(next: StructureParams): Promise<WorkerStatus> {
    const s = structureParams(next);
    if (treeKey(s) !== treeKey(this.structure)) {
      // Earlier chunk-size variants are kept with their vectors: switching back is free.
      this.variants.set(treeKey(this.structure), this.engine);
      const cached = this.variants.get(treeKey(s));
      // Built first: invalid sizes throw here and leave the current corpus as it was.
      const engine = cached ?? this.newEngine(s);
      engine.addDocuments(this.docs); // documents added since it was cached
      engine.setHeaders(s.headers);
      this.variants.delete(treeKey(s));
      while (this.variants.size > MAX_VARIANTS) this.variants.delete(this.variants.keys().next().value!);
      this.stopEmbedding();
      this.structure = s;
      this.engine = engine;
    } else if (headerKey(s.headers) !== headerKey(this.structure.headers)) {
      this.structure = s;
      this.engine.setHeaders(s.headers);
    } else {
      this.structure = s;
    }
    await this.afterCorpusChange();
    return this.status();
  }

  // ---- models ---------------------------------------------------------------------

  private async loadEmbedder(choice: ModelChoice | null, emit: Emit): Promise<ModelStatus> {
    this.stopEmbedding();
    if (!choice) {
      this.embedder = null;
      this.embedderStatus = { state: 'none' };
    } else {
      this.embedderStatus = { state: 'loading', model: choice.model };
      this.postStatus(this.status());
      try {
        await configureModelSource(choice, this.options.modelsUrl);
        const device = await pickDevice(choice.device);
        this.embedder = await TransformersEmbedder.load({
          model: choice.model,
          dtype: choice.dtype,
          device,
          onLoadProgress: modelProgress('embedder', emit),
        });
        this.embedderStatus = { state: 'ready', model: choice.model, dim: this.embedder.dim, isTestModel: this.embedder.isTestModel };
      } catch (e) {
        this.embedder = null;
        this.embedderStatus = { state: 'failed', model: choice.model, error: describeLoadError(e, choice.model) };
      }
    }
    this.variants.clear();
    this.engine = this.newEngine();
    this.engine.addDocuments(this.docs);
    if (this.embedder && this.savedVectors.length) await this.engine.restoreVectors(this.savedVectors);
    this.kickEmbedding();
    this.postStatus(this.status());
    return this.embedderStatus;
  }

  private async loadReranker(choice: ModelChoice | null, emit: Emit): Promise<ModelStatus> {
    if (!choice) {
      this.reranker = null;
      this.rerankerStatus = { state: 'none' };
    } else {
      this.rerankerStatus = { state: 'loading', model: choice.model };
      this.postStatus(this.status());
      try {
        await configureModelSource(choice, this.options.modelsUrl);
        this.reranker = await CrossEncoderReranker.load({
          model: choice.model,
          dtype: choice.dtype === 'q8' ? 'q8' : 'fp32',
          device: await pickDevice(choice.device),
          onLoadProgress: modelProgress('reranker', emit),
        });
        this.rerankerStatus = { state: 'ready', model: choice.model, isTestModel: choice.model.startsWith('rag-lab/') };
      } catch (e) {
        this.reranker = null;
        this.rerankerStatus = { state: 'failed', model: choice.model, error: describeLoadError(e, choice.model) };
      }
    }
    this.engine.reranker = this.reranker;
    this.postStatus(this.status());
    return this.rerankerStatus;
  }

  // ---- embedding job ---------------------------------------------------------------

  private stopEmbedding(): void {
    this.job?.controller.abort();
    this.job = null;
  }

  /**
   * Embeds whatever has no vector yet, in the background, for the current engine. A job
   * already running on this engine loops until nothing is missing, so documents added
   * meanwhile are picked up; a replaced engine gets a job of its own.
   */
  private kickEmbedding(): void {
    if (this.paused || this.job?.engine === this.engine) return;
    this.stopEmbedding();
    const engine = this.engine;
    if (!engine.embedder) return;
    const controller = new AbortController();
    const job = { controller, engine };
    this.job = job;
    this.jobInfo = { truncated: 0 };
    const missing = () => KINDS.some((k) => engine.vectorCoverage(k).done < engine.unitCount(k));
    void (async () => {
      try {
        while (!controller.signal.aborted && missing()) {
          for (const kind of KINDS) {
            const started = performance.now();
            const { truncated } = await engine.embedUnits(kind, {
              signal: controller.signal,
              onEmbedProgress: (p) => {
                const perMs = p.done / Math.max(1, performance.now() - started);
                this.jobInfo.unit = kind;
                this.jobInfo.progress = { done: p.done, total: p.total };
                if (p.done > 0) this.jobInfo.etaS = Math.ceil((p.total - p.done) / perMs / 1000);
                this.scheduleStatus();
              },
            });
            this.jobInfo.truncated += truncated.length;
          }
        }
      } catch (e) {
        if (!(e instanceof EmbeddingCancelled) && !controller.signal.aborted) this.jobInfo.error = (e as Error).message;
      } finally {
        if (this.job === job) {
          this.job = null;
          delete this.jobInfo.unit;
          delete this.jobInfo.etaS;
          delete this.jobInfo.progress;
          this.postStatus(this.status());
          await this.persistVectors();
        }
      }
    })();
  }

  private async persistVectors(): Promise<void> {
    const sets = this.engine.vectorSnapshot();
    // Keep saved sets of another model too, in case the user switches back.
    const others = this.savedVectors.filter((s) => !sets.some((x) => x.key === s.key) && !s.key.endsWith(`|${this.embedder?.model ?? ''}`));
    await this.persistence.saveVectors([...sets, ...others]);
  }

  // ---- search -----------------------------------------------------------------------

  private async search(query: string, rawParams: unknown, columns: ColumnSpec[], variants?: string[]): Promise<Results['search']> {
    const t0 = performance.now();
    const base = retrievalParams(rawParams as never);
    const out: ColumnResult[] = [];
    for (const column of columns) {
      const p = { ...base, retriever: column.retriever, rerank: { ...base.rerank, enabled: column.rerank } };
      if (column.fusion) {
        out.push(await this.fusionColumn(column, query, variants, p));
        continue;
      }
      const [r] = await this.engine.search(query, [column.strategy], p);
      out.push({ column, result: { ...r!, blocks: r!.blocks.map((b) => this.view(b, query)) } });
    }
    return { columns: out, ms: performance.now() - t0 };
  }

  /**
   * A query-fusion column: [question, ...variants] retrieved and fused by RRF. The variants
   * come from the page's LLM; without them the column says what it needs instead of
   * silently repeating the plain column.
   */
  private async fusionColumn(column: ColumnSpec, query: string, variants: string[] | undefined, p: RetrievalParams): Promise<ColumnResult> {
    const queries = uniqueQueries([query, ...(variants ?? [])]);
    if (!variants?.length || !queries.length) {
      return {
        column,
        result: { strategy: column.strategy, retriever: column.retriever, blocks: [], totalTokens: 0, candidates: 0, notes: [FUSION_NEEDS_GENERATOR] },
      };
    }
    const r = await this.engine.searchFused(queries, column.strategy, p);
    const notes = queries.length < 2 ? ['the variants only repeat the question: this is the question searched alone', ...r.notes] : r.notes;
    return {
      column,
      result: {
        strategy: r.strategy,
        retriever: r.retriever,
        totalTokens: r.totalTokens,
        candidates: r.candidates,
        notes,
        variants: r.queries,
        // Coherence is measured against the question, not a variant.
        blocks: r.blocks.map((b, i) => ({ ...this.view(b, query), foundBy: r.foundBy[i]! })),
      },
    };
  }

  private view(b: ContextBlock, query?: string): BlockView {
    const c = this.engine.corpus;
    const doc = c.docs[b.doc]!;
    const first = c.sentences[b.sentences.start]!;
    const last = c.sentences[b.sentences.end - 1]!;
    const hitSpans: [number, number][] = b.hits
      .map((i) => c.sentences[i]!)
      .map((s) => [Math.max(0, s.start - b.start), Math.min(b.end - b.start, s.end - b.start)] as [number, number])
      .filter(([a, z]) => z > a);
    const parent = this.engine.enclosingNode(b.sentences.start, b.sentences.end);
    const coherence = query ? this.engine.blockCoherence(b.sentences.start, b.sentences.end, query) : null;
    return {
      ...b,
      ...(coherence ? { coherence } : {}),
      ...(parent ? { parent: { start: c.sentences[parent.start]!.start, end: c.sentences[parent.end - 1]!.end, level: parent.level, tokens: parent.tokens } } : {}),
      docId: doc.id,
      docTitle: doc.title,
      sectionPath: sectionPath(doc, commonSection(doc, first.section, last.section)),
      ...(first.page !== undefined ? { pageStart: first.page } : {}),
      ...(last.page !== undefined ? { pageEnd: last.page } : {}),
      hitSpans,
    };
  }

  // ---- corpus map ----------------------------------------------------------------------

  /** The corpus state a map belongs to: sentence count, embedder, structure, documents. */
  private mapKey(): string {
    const ids = this.docs.map((d) => d.id).join(',');
    let h = 0;
    for (let i = 0; i < ids.length; i++) h = (Math.imul(h, 31) + ids.charCodeAt(i)) | 0;
    return `${this.engine.unitCount('sentence')}|${this.embedder?.model ?? 'none'}|${JSON.stringify(this.structure)}|${this.docs.length}:${(h >>> 0).toString(36)}`;
  }

  /** The sentence vectors of the current state (copied once per state), or why there are none. */
  private mapMatrix(): { key: string; matrix: { dim: number; count: number; data: Float32Array } } | string {
    const key = this.mapKey();
    if (this.map?.key === key) return this.map;
    if (!this.embedder) return 'The map needs sentence vectors: choose an embedding model in the Models panel (BM25 alone has no vectors to place).';
    const n = this.engine.unitCount('sentence');
    if (n === 0) return 'The map needs documents: add some (or press Load sample corpus), and wait for their sentences to be embedded.';
    const cov = this.engine.vectorCoverage('sentence');
    const matrix = this.engine.sentenceMatrix();
    if (!matrix) return `The map needs every sentence's vector: ${cov.done} of ${cov.total} sentences are embedded so far${this.paused ? ' (embedding is paused: resume it)' : ''}. It appears when they are done.`;
    // A vector with NaN or infinity (a model fault) would poison every position: it becomes zeros, and is counted.
    let bad = 0;
    for (let i = 0; i < matrix.count; i++) {
      const row = matrix.data.subarray(i * matrix.dim, (i + 1) * matrix.dim);
      if (!row.every(Number.isFinite)) {
        row.fill(0);
        bad++;
      }
    }
    this.mapBad = bad;
    if (this.mapJob) {
      this.mapJob.cancelled = true;
      this.mapJob.worker.terminate();
    }
    this.mapJob = null;
    this.mapProgress = null;
    this.map = { key, matrix };
    return this.map;
  }

  private mapBase(method: ProjectionMethod, key: string, xy: Float32Array, fitted: number, notes: string[], ms: number): ProjectionData {
    const c = this.engine.corpus;
    const n = c.sentences.length;
    const doc = new Int32Array(n);
    const section = new Int32Array(n);
    const language = new Int32Array(n);
    const sections: string[] = [];
    const sectionIds = new Map<string, number>();
    const languages: string[] = [];
    for (let i = 0; i < n; i++) {
      const s = c.sentences[i]!;
      const d = c.docs[s.doc]!;
      doc[i] = s.doc;
      const sk = `${s.doc}:${s.section}`;
      let si = sectionIds.get(sk);
      if (si === undefined) {
        si = sections.length;
        sectionIds.set(sk, si);
        sections.push([d.title, ...sectionPath(d, s.section)].join(' › '));
      }
      section[i] = si;
      let li = languages.indexOf(d.language);
      if (li < 0) li = languages.push(d.language) - 1;
      language[i] = li;
    }
    return { method, key, n, xy, doc, section, sections, language, languages, docTitles: c.docs.map((d) => d.title), fitted, notes, ms };
  }

  private async projection(method: ProjectionMethod, emit: Emit): Promise<ProjectionResult> {
    const m = this.mapMatrix();
    if (typeof m === 'string') return { state: 'unavailable', reason: m };
    const { key, matrix } = m;
    if (method === 'pca') return { state: 'ready', data: this.pcaMap(key, emit).data };
    if (this.map!.umap) return { state: 'ready', data: this.map!.umap };
    if (matrix.count < UMAP_MIN_POINTS) return { state: 'unavailable', reason: `UMAP needs at least ${UMAP_MIN_POINTS} sentences; the PCA view shows them.` };
    if (this.mapProgress?.phase === 'failed' && this.mapProgress.key === key) return { state: 'unavailable', reason: `UMAP failed: ${this.mapProgress.message ?? 'unknown error'}` };
    if (!this.mapJob) this.startUmap(key);
    return { state: 'running', key, progress: this.mapProgress };
  }

  private pcaMap(key: string, emit?: Emit): { model: PcaModel; data: ProjectionData } {
    if (this.map!.pca) return this.map!.pca;
    const { data, dim, count } = this.map!.matrix;
    const t0 = performance.now();
    emit?.({ kind: 'map', method: 'pca', phase: 'pca', done: 0, total: count, key });
    const model = fitPca(data, count, dim);
    const xy = projectPca(model, data, count);
    const share = (v: number) => (model.variances[0] + model.variances[1] > 0 ? v : 0);
    const notes = [
      `PCA: the two directions of largest variance${model.fitted < count ? `, fitted on ${model.fitted.toLocaleString('en')} evenly spaced sentences` : ''}; every sentence and the query are projected exactly.`,
      `Variance along x ${share(model.variances[0]).toPrecision(3)}, y ${share(model.variances[1]).toPrecision(3)}.`,
      ...(this.mapBad ? [`${this.mapBad} sentence vector${this.mapBad === 1 ? ' was not finite (NaN) and is' : 's were not finite (NaN) and are'} drawn as zero vectors.`] : []),
    ];
    this.map!.pca = { model, data: this.mapBase('pca', key, xy, model.fitted, notes, performance.now() - t0) };
    return this.map!.pca;
  }

  /**
   * UMAP in its own worker (umap-worker.ts), so its long synchronous neighbour graph never
   * holds up a search; progress goes out with the status; the worker is ended when the
   * corpus changes.
   */
  private startUmap(key: string): void {
    const { data, dim, count } = this.map!.matrix;
    const worker = new Worker(new URL('./umap-worker.ts', import.meta.url), { type: 'module', name: 'rag-lab-umap' });
    const job = { key, cancelled: false, worker };
    this.mapJob = job;
    const t0 = performance.now();
    const live = () => !job.cancelled && this.mapJob === job && this.map?.key === key;
    const progress = (phase: MapProgressMessage['phase'], done: number, total: number, message?: string) => {
      this.mapProgress = { kind: 'map', method: 'umap', phase, done, total, key, ...(message ? { message } : {}) };
      this.scheduleStatus();
    };
    const finish = () => {
      worker.terminate();
      if (this.mapJob === job) this.mapJob = null;
      this.postStatus(this.status());
    };
    worker.onmessage = (event: MessageEvent<UmapMessage>) => {
      const m = event.data;
      if (!live()) return finish();
      if (m.type === 'progress') return progress(m.phase, m.done, m.total);
      if (m.type === 'failed') {
        progress('failed', 0, 1, m.message);
        return finish();
      }
      const notes = [
        `UMAP (umap-js, 15 neighbours, min. distance 0.1, seeded): ${m.epochs} epochs${m.subsampled ? `, fitted on ${m.fitted.toLocaleString('en')} evenly spaced sentences of ${count.toLocaleString('en')} (a subsample, for speed); the others are placed at the weighted mean of their ${m.placeK} nearest fitted sentences` : ''}.`,
        `The query is placed at the similarity-weighted mean of its ${m.placeK} nearest ${m.subsampled ? 'fitted ' : ''}sentences' positions (not umap-js transform).`,
      ];
      this.map!.umap = this.mapBase('umap', key, m.xy, m.fitted, notes, performance.now() - t0);
      this.map!.umapFit = m.fitIds;
      progress('done', 1, 1);
      finish();
    };
    worker.onerror = (e) => {
      e.preventDefault();
      if (live()) progress('failed', 0, 1, e.message || 'the UMAP worker stopped');
      finish();
    };
    progress('graph', 0, 1);
    // A copy: the lab keeps its matrix for hover and the query.
    const copy = data.slice(0, count * dim);
    worker.postMessage({ data: copy, count, dim, seed: 42 } satisfies UmapRequest, [copy.buffer]);
  }

  private async mapQuery(method: ProjectionMethod, query: string): Promise<Results['mapQuery']> {
    const m = this.mapMatrix();
    if (typeof m === 'string' || !query.trim()) return { key: typeof m === 'string' ? '' : m.key, xy: null, how: '' };
    const q = await this.engine.queryEmbedding(query);
    if (!q || this.map?.key !== m.key) return { key: m.key, xy: null, how: '' };
    const { data, dim } = m.matrix;
    if (method === 'pca') {
      const pca = this.pcaMap(m.key);
      return { key: m.key, xy: projectPcaPoint(pca.model, q), how: 'exact PCA projection of the query vector' };
    }
    const umap = this.map.umap;
    if (!umap) return { key: m.key, xy: null, how: '' };
    const among = this.map.umapFit ?? umap.n;
    const k = 10;
    const { xy } = placeByNeighbours(data, dim, umap.xy, q, k, among);
    return { key: m.key, xy, how: `weighted mean of the positions of its ${k} nearest sentences (by cosine)` };
  }

  private async mapPoint(index: number, query: string): Promise<MapPointInfo> {
    const c = this.engine.corpus;
    const s = c.sentences[index];
    if (!s) throw new Error('that sentence is no longer in the corpus');
    const d = c.docs[s.doc]!;
    let cosine: number | null = null;
    const m = this.map;
    if (query.trim() && m && m.key === this.mapKey() && index < m.matrix.count) {
      const q = await this.engine.queryEmbedding(query);
      if (q) cosine = rowDot(m.matrix.data, index, m.matrix.dim, q);
    }
    return {
      index,
      text: s.text,
      docTitle: d.title,
      docId: d.id,
      sectionPath: sectionPath(d, s.section),
      language: d.language,
      doc: s.doc,
      start: s.start,
      end: s.end,
      ...(s.page !== undefined ? { page: s.page } : {}),
      tokens: s.tokens,
      cosine,
    };
  }

  // ---- status -----------------------------------------------------------------------

  status(): WorkerStatus {
    const coverage = this.engine.documentCoverage();
    const e = this.engine;
    return {
      docs: this.docs.map((d, i) => this.summary(d, i, coverage)),
      embedder: this.embedderStatus,
      reranker: this.rerankerStatus,
      embedding: {
        coverage: { sentence: e.vectorCoverage('sentence'), leaf: e.vectorCoverage('leaf'), chunk: e.vectorCoverage('chunk') },
        running: this.job !== null,
        paused: this.paused,
        truncated: this.jobInfo.truncated,
        ...(this.jobInfo.unit ? { unit: this.jobInfo.unit } : {}),
        ...(this.jobInfo.etaS !== undefined ? { etaS: this.jobInfo.etaS } : {}),
        ...(this.jobInfo.progress ? { progress: this.jobInfo.progress } : {}),
        ...(this.jobInfo.error ? { error: this.jobInfo.error } : {}),
      },
      structure: this.structure,
      persistence: { on: this.persistence.on, ...(this.persistence.reason ? { reason: this.persistence.reason } : {}) },
      indexBackend: this.indexBackend,
      restored: this.restored,
      ...(this.mapProgress ? { map: this.mapProgress } : {}),
    };
  }

  /** At most ~5 status messages a second while embedding. */
  private scheduleStatus(): void {
    if (this.statusTimer) return;
    const wait = Math.max(0, 200 - (performance.now() - this.lastStatus));
    this.statusTimer = setTimeout(() => {
      this.statusTimer = null;
      this.lastStatus = performance.now();
      this.postStatus(this.status());
    }, wait);
  }
}
