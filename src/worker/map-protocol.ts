/** The lab protocol's corpus map (joined into LabApi in protocol.ts): positions, the query's place, one point, progress. */

export type ProjectionMethod = 'pca' | 'umap';

/**
 * Positions of every sentence on the corpus map, with what colouring needs (small typed
 * arrays and short label tables; texts only on hover, by index).
 */
export interface ProjectionData {
  method: ProjectionMethod;
  /** The corpus state it was computed for (sentence count, embedder, structure, documents). */
  key: string;
  n: number;
  /** x, y per sentence (global sentence order). */
  xy: Float32Array;
  /** Document index per sentence (into docTitles). */
  doc: Int32Array;
  /** Section label index per sentence (into sections). */
  section: Int32Array;
  sections: string[];
  /** Language index per sentence (into languages). */
  language: Int32Array;
  languages: string[];
  docTitles: string[];
  /** Sentences the layout was fitted on (< n: UMAP was fitted on an evenly spaced subsample, the rest placed by neighbours). */
  fitted: number;
  /** How it was made (the page words it beside the map). */
  about: ProjectionAbout;
  ms: number;
}

export type ProjectionAbout =
  /** `variance`: share of variance along x and y; `nonFinite`: sentences whose vector had NaN or infinity (drawn from zeros). */
  | { method: 'pca'; variance: [number, number]; nonFinite: number }
  /** umap-js's epochs; `subsampled`: fitted on `fitted` of `n` sentences, the rest placed at the mean of their `placeK` nearest fitted ones. */
  | { method: 'umap'; epochs: number; subsampled: boolean; placeK: number };

/** Why there is no map (or no UMAP view); the page words it. */
export type MapUnavailable =
  | { code: 'no-embedder' }
  | { code: 'no-documents' }
  | { code: 'vectors-missing'; done: number; total: number; paused: boolean }
  | { code: 'umap-too-few'; min: number }
  | { code: 'umap-failed'; message: string };

export type ProjectionResult =
  | { state: 'ready'; data: ProjectionData }
  | { state: 'running'; key: string; progress: MapProgressMessage | null }
  | { state: 'unavailable'; reason: MapUnavailable };

/** How the query was placed on the map: exactly (PCA), or among its k nearest sentences (UMAP). */
export type QueryPlacement = { method: 'pca' } | { method: 'umap'; k: number };

export interface MapQueryResult {
  key: string;
  xy: [number, number] | null;
  how: QueryPlacement | null;
}

export interface MapPointInfo {
  index: number;
  text: string;
  docTitle: string;
  docId: string;
  sectionPath: string[];
  language: string;
  /** Document index, character span in the document, page, tokens: enough to open it in the document view. */
  doc: number;
  start: number;
  end: number;
  page?: number;
  tokens: number;
  /** True cosine between the sentence's vector and the query's (null without a query). */
  cosine: number | null;
}

/** Corpus map progress: PCA, then UMAP's neighbour graph, its epochs, and placing the sentences left out of a subsampled fit. */
export interface MapProgressMessage {
  kind: 'map';
  method: ProjectionMethod;
  phase: 'pca' | 'graph' | 'epochs' | 'place' | 'done' | 'failed';
  done: number;
  total: number;
  /** The corpus state the job is for. */
  key: string;
  message?: string;
}
