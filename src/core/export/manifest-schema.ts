/**
 * The manifest's schema (zod): every field an import or a verify reads, with its type and
 * range, checked before anything is built from it. A bad chunkLevels, analyzer or vector
 * kind used to crash the import (or became "2 boguss"); now it is one BundleError naming
 * the field. Fields the lab does not read are let through (looseObject): a newer lab may
 * add some.
 */
import { z } from 'zod';
import { ANALYZERS } from '../index/analyzer';
import { BM25_VARIANTS } from '../index/lexical-index';
import { UNIT_KINDS } from '../retrieve/params';
import { validateLevels } from '../structure/hierarchy';
import { validateNaive } from '../structure/naive-chunks';
import { validatePacked } from '../structure/packed-chunks';
import { validateSemantic } from '../structure/semantic-chunks';
import { BundleError } from './format';

const count = z.number().int().min(0);
const positive = z.number().int().min(1);

const structure = z.looseObject({
  chunkLevels: z.array(positive).min(1),
  sectionLevel: count,
  naive: z.looseObject({ size: positive, overlap: count }),
  packed: z.looseObject({ size: positive, overlap: count }).optional(),
  semantic: z.looseObject({ buffer: count, percentile: z.number().min(0).max(100) }).optional(),
  headers: z.looseObject({ enabled: z.boolean(), title: z.boolean(), section: z.boolean(), fields: z.array(z.string()) }),
  lexical: z.looseObject({ analyzer: z.enum(ANALYZERS), bm25: z.enum(BM25_VARIANTS) }),
});

export const manifestSchema = z.looseObject({
  params: z.looseObject({}),
  structure,
  corpus: z.looseObject({ documents: count, sentences: count, leaves: count, parents: count, chunks: count, maxSentenceTokens: positive }),
  tokenizer: z.string().min(1),
  embedding: z.looseObject({ model: z.string().min(1), dims: positive.max(65536) }).nullable(),
  bm25: z.looseObject({}).optional(),
  vectors: z.looseObject({ kinds: z.array(z.enum(UNIT_KINDS)).refine((k) => new Set(k).size === k.length, 'a kind is listed twice') }),
  tables: z.record(z.string(), z.looseObject({ rows: count })),
  files: z.array(z.looseObject({ name: z.string().min(1), bytes: count, sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
});

/** The first fault of a manifest as one BundleError ("manifest.json: structure.chunkLevels[0] …"), or the manifest. */
export function checkManifestSchema(json: unknown): void {
  const r = manifestSchema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const path = issue.path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('') || 'the manifest';
    throw new BundleError(`manifest.json is corrupt: ${path}: ${issue.message}`);
  }
  // The structure's own rules (levels shrink, overlap below size), worded as the lab words them.
  const s = r.data.structure;
  try {
    validateLevels(s.chunkLevels);
    validateNaive(s.naive);
    if (s.packed) validatePacked(s.packed);
    if (s.semantic) validateSemantic(s.semantic);
  } catch (e) {
    throw new BundleError(`manifest.json is corrupt: structure: ${(e as Error).message}`);
  }
}
