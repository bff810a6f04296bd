/**
 * Property tests (fast-check, seeded): a few cases of each property in `npm test`; `npm run
 * fuzz` runs the same properties for a stated time (scripts/fuzz.ts).
 */
import { fc, it } from '@fast-check/vitest';
import { afterAll, beforeAll, describe } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { documentFromText } from '../documents/load';
import { readBeir } from '../eval/beir';
import { readSimpleSet } from '../eval/simple';
import { readSquad } from '../eval/squad';
import { bundleOf, embeddedEngine, hashEmbedder } from '../export/hostile-fixture';
import { createPglite, pgliteDatabase } from '../../node/pglite-verify';
import { csvText, hostileQuestion, hostileText, jsonlText, languageTag, qrelsText, squadJson } from './arbitraries';
import { mutation } from './mutations';
import { answers, bundleMutation, readerProperty, textRoundTrip, type BundleBase } from './properties';

const SEED = 28;
const DOCS = [documentFromText('Solar panels turn sunlight into power. The river Rhine reaches the sea.', 'doc0.txt', 'txt')];

describe('readers: read clean, or one DatasetError', () => {
  it.prop([squadJson], { seed: SEED, numRuns: 100 })('SQuAD', (json) => readerProperty(() => readSquad(json)));
  it.prop([jsonlText, jsonlText, qrelsText], { seed: SEED, numRuns: 100 })('BEIR', (corpus, queries, qrels) => readerProperty(() => readBeir({ corpus, queries, qrels })));
  it.prop([jsonlText], { seed: SEED, numRuns: 100 })('JSONL question sets', (text) => readerProperty(() => readSimpleSet(text, 'set.jsonl', DOCS)));
  it.prop([csvText], { seed: SEED, numRuns: 100 })('CSV question sets', (text) => readerProperty(() => readSimpleSet(text, 'set.csv', DOCS)));
});

describe('text: the lab, the bundle and PGlite give the same answers', () => {
  let pg: PGlite;
  beforeAll(async () => {
    pg = await createPglite();
  }, 120_000);
  afterAll(async () => pg?.close());
  it.prop([fc.array(hostileText, { minLength: 1, maxLength: 3 }), fc.array(hostileQuestion, { minLength: 1, maxLength: 2 }), languageTag], { seed: SEED, numRuns: 3, endOnFailure: true })(
    'load → index → export → import → verify',
    (texts, questions, language) => textRoundTrip(texts, questions, language, pgliteDatabase(pg)),
    120_000,
  );
  it.prop([fc.array(hostileText, { minLength: 1, maxLength: 3 }), fc.array(hostileQuestion, { minLength: 1, maxLength: 2 }), languageTag], { seed: SEED, numRuns: 6 })('load → index → export → import (no database)', (texts, questions, language) =>
    textRoundTrip(texts, questions, language, null),
  );
});

describe('bundles: a mutation is imported or refused in one BundleError; the corpus never changes', () => {
  let base: BundleBase;
  beforeAll(async () => {
    const embedder = hashEmbedder();
    const engine = await embeddedEngine(['Solar panels turn sunlight into power.\n\nBatteries store it. Lithium cells dominate.', 'Wind turbines spin offshore. Farms make power.', '# Rivers\n\nDams hold rivers. Salmon pass the dams.'].map((t, i) => documentFromText(t, `d${i}.md`, 'md')), embedder);
    const questions = ['solar batteries', 'offshore wind', 'salmon dams'];
    base = { engine, embedder, questions, files: (await bundleOf(engine, questions)).files, answers: await answers(engine, questions, ['bm25', 'vector']) };
  });
  it.prop([mutation], { seed: SEED, numRuns: 30 })('random mutations', async (m) => {
    await bundleMutation(base, m);
  });
});
