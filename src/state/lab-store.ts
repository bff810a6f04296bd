import { create } from 'zustand';
import { LoaderError } from '../core/documents/builder';
import { documentFromText, loadDocument } from '../core/documents/load';
import { RetrievalEngine, type StrategyResult } from '../core/engine';
import { STRATEGIES } from '../core/retrieve/params';

/** One file's outcome, shown in the file list. */
export interface FileStatus {
  name: string;
  ok: boolean;
  message: string;
}

interface LabState {
  engine: RetrievalEngine;
  files: FileStatus[];
  query: string;
  budget: number;
  before: number;
  after: number;
  results: StrategyResult[];
  addFiles(files: File[]): Promise<void>;
  addText(text: string): void;
  setQuery(q: string): void;
  setWindow(before: number, after: number): void;
  setBudget(budget: number): void;
  run(): Promise<void>;
}

/**
 * Early preview state: BM25 retrieval in the page (no embedding model yet). The full app
 * (worker, models, persistence) is the web-app issue's work.
 */
export const useLab = create<LabState>((set, get) => ({
  engine: new RetrievalEngine(),
  files: [],
  query: '',
  budget: 512,
  before: 3,
  after: 3,
  results: [],
  async addFiles(files) {
    for (const f of files) {
      try {
        const doc = await loadDocument({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()), lastModified: f.lastModified });
        const { added } = get().engine.addDocuments([doc]);
        if (!added.length) {
          set((s) => ({ files: [...s.files, { name: f.name, ok: false, message: `${f.name}: the same content is already indexed` }] }));
          continue;
        }
        const n = get().engine.corpus.docStarts.at(-1)! - get().engine.corpus.docStarts.at(-2)!;
        set((s) => ({ files: [...s.files, { name: f.name, ok: true, message: `${doc.title} · ${doc.language} · ${n} sentences` }] }));
      } catch (e) {
        const message = e instanceof LoaderError ? e.message : `${f.name}: ${(e as Error).message}`;
        set((s) => ({ files: [...s.files, { name: f.name, ok: false, message }] }));
      }
    }
    await get().run();
  },
  addText(text) {
    try {
      // Pasted Markdown (ATX headings, lists) keeps its structure; anything else is plain text.
      const format = /^(#{1,6}\s|[-*]\s|\d+\.\s)/m.test(text) ? 'md' : 'txt';
      const doc = documentFromText(text, `Pasted text ${get().files.length + 1}`, format);
      const { added } = get().engine.addDocuments([doc]);
      set((s) => ({
        files: [...s.files, added.length ? { name: doc.title, ok: true, message: `${doc.language} · pasted` } : { name: doc.title, ok: false, message: 'This text is already indexed' }],
      }));
    } catch (e) {
      set((s) => ({ files: [...s.files, { name: 'Pasted text', ok: false, message: (e as Error).message }] }));
    }
    void get().run();
  },
  setQuery(query) {
    set({ query });
  },
  setWindow(before, after) {
    set({ before, after });
    void get().run();
  },
  setBudget(budget) {
    set({ budget });
    void get().run();
  },
  async run() {
    const { engine, query, budget, before, after } = get();
    if (!query.trim() || engine.corpus.sentences.length === 0) return set({ results: [] });
    const results = await engine.search(query, STRATEGIES, {
      retriever: 'bm25',
      topK: 20,
      budgetTokens: budget,
      window: { before, after, bySection: false },
    });
    set({ results });
  },
}));
