/**
 * npm run fuzz [-- --seconds N --seed S]: the properties of src/core/fuzz/fuzz.test.ts with
 * as many cases as fit in the time given (default 120 s, shared between the properties), then
 * the cases tried, what became of them and the failures with their counterexamples.
 * Exit 1 when any property failed.
 */
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { documentFromText } from '../src/core/documents/load';
import { readBeir } from '../src/core/eval/beir';
import { readSimpleSet } from '../src/core/eval/simple';
import { readSquad } from '../src/core/eval/squad';
import { bundleOf, embeddedEngine, hashEmbedder } from '../src/core/export/hostile-fixture';
import { csvText, hostileQuestion, hostileText, jsonlText, languageTag, qrelsText, squadJson } from '../src/core/fuzz/arbitraries';
import { mutation } from '../src/core/fuzz/mutations';
import { answers, bundleMutation, readerProperty, textRoundTrip } from '../src/core/fuzz/properties';
import { createPglite, pgliteDatabase } from '../src/node/pglite-verify';

const { values } = parseArgs({ options: { seconds: { type: 'string' }, seed: { type: 'string' } } });
const seconds = Number(values.seconds ?? 120);
const seed = Number(values.seed ?? Date.now() % 1e9);
if (!(seconds > 0) || !Number.isInteger(seed)) {
  process.stderr.write('error: --seconds must be a positive number and --seed a whole number\n');
  process.exit(2);
}

interface Outcome {
  name: string;
  runs: number;
  failed: boolean;
  counterexample?: string;
  error?: string;
  detail?: string;
}

/** Runs a property until its share of the time is used up (or it fails). */
async function run(name: string, share: number, property: fc.IAsyncProperty<any> | fc.IProperty<any>, detail?: () => string): Promise<Outcome> {
  const ms = seconds * 1000 * share;
  const r = await fc.check(property as fc.IAsyncProperty<unknown>, { seed, numRuns: 1_000_000, interruptAfterTimeLimit: ms, markInterruptAsFailure: false, endOnFailure: true });
  const out: Outcome = { name, runs: r.numRuns, failed: r.failed, ...(detail ? { detail: detail() } : {}) };
  if (r.failed) {
    out.counterexample = JSON.stringify(r.counterexample)?.slice(0, 600);
    out.error = String((r.errorInstance as Error | undefined)?.message ?? r.errorInstance).slice(0, 600);
  }
  process.stderr.write(`${name}: ${r.numRuns} cases${r.failed ? ' — FAILED' : ''}\n`);
  return out;
}

const docs = [documentFromText('Solar panels turn sunlight into power. The river Rhine reaches the sea.', 'doc0.txt', 'txt')];
const t0 = performance.now();
const outcomes: Outcome[] = [];
outcomes.push(await run('SQuAD reader', 0.05, fc.property(squadJson, (json) => readerProperty(() => readSquad(json)))));
outcomes.push(await run('BEIR reader', 0.05, fc.property(jsonlText, jsonlText, qrelsText, (corpus, queries, qrels) => readerProperty(() => readBeir({ corpus, queries, qrels })))));
outcomes.push(await run('JSONL question sets', 0.05, fc.property(jsonlText, (t) => readerProperty(() => readSimpleSet(t, 'set.jsonl', docs)))));
outcomes.push(await run('CSV question sets', 0.05, fc.property(csvText, (t) => readerProperty(() => readSimpleSet(t, 'set.csv', docs)))));

const texts = fc.array(hostileText, { minLength: 1, maxLength: 3 });
const questions = fc.array(hostileQuestion, { minLength: 1, maxLength: 2 });
outcomes.push(await run('text: load → index → export → import', 0.2, fc.asyncProperty(texts, questions, languageTag, (t, q, l) => textRoundTrip(t, q, l, null))));
const pg = await createPglite();
outcomes.push(await run('text: … → verify in PGlite', 0.3, fc.asyncProperty(texts, questions, languageTag, (t, q, l) => textRoundTrip(t, q, l, pgliteDatabase(pg)))));
await pg.close();

const embedder = hashEmbedder();
const engine = await embeddedEngine(['Solar panels turn sunlight into power.\n\nBatteries store it. Lithium cells dominate.', 'Wind turbines spin offshore. Farms make power.', '# Rivers\n\nDams hold rivers. Salmon pass the dams.'].map((t, i) => documentFromText(t, `d${i}.md`, 'md')), embedder);
const qs = ['solar batteries', 'offshore wind', 'salmon dams'];
const base = { engine, embedder, questions: qs, files: (await bundleOf(engine, qs)).files, answers: await answers(engine, qs, ['bm25', 'vector']) };
const tally = { imported: 0, refused: 0 };
outcomes.push(await run('bundle mutations', 0.3, fc.asyncProperty(mutation, async (m) => void tally[await bundleMutation(base, m)]++), () => `${tally.imported} imported, ${tally.refused} refused`));

const total = outcomes.reduce((n, o) => n + o.runs, 0);
const failures = outcomes.filter((o) => o.failed);
console.log(`fuzz: seed ${seed}, ${seconds} s asked, ${((performance.now() - t0) / 1000).toFixed(0)} s taken`);
for (const o of outcomes) console.log(`  ${o.name.padEnd(40)} ${String(o.runs).padStart(6)} cases  ${o.failed ? 'FAILED' : 'ok'}${o.detail ? `  (${o.detail})` : ''}`);
console.log(`${total} cases tried, ${failures.length} failure${failures.length === 1 ? '' : 's'}`);
for (const f of failures) console.log(`\nFAILED ${f.name}: ${f.error}\n  counterexample: ${f.counterexample}\n  rerun: npm run fuzz -- --seed ${seed} --seconds ${seconds}`);
process.exitCode = failures.length ? 1 : 0;
