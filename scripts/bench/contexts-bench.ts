/**
 * npx tsx scripts/bench/contexts-bench.ts [--units 1000] [--lm-units 100] [--json FILE]
 *
 * What writing situating contexts costs (contextual retrieval), per 1,000 units: calls, prompt
 * tokens, the part of them one document's calls repeat (what an endpoint with prompt caching
 * reads once), and time — with the TEST generator (transformers.js in Node: the pipeline's own
 * cost, a real model's tokens take far longer) and the mock endpoint on 127.0.0.1 (the HTTP
 * client, streaming and parsing; a real endpoint's time is its model's). Sentences of SQuAD
 * articles, in document order (the TEST generator runs --lm-units of them: ~2 s a call at its
 * 2,048-token context; its rate is given per 1,000). Then the time to embed the contexts with the
 * TEST embedder.
 * Prints numbers; asserts nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { renderTable } from '../../src/cli/table';
import { ContextStore } from '../../src/core/context/context-store';
import { generateContexts, planContexts, type ContextGenerator } from '../../src/core/context/generate-contexts';
import { endpointContextGenerator, localContextGenerator } from '../../src/core/context/generators';
import { TEST_EMBEDDER_ID } from '../../src/core/embed/models';
import { TransformersEmbedder } from '../../src/core/embed/transformers-embedder';
import { RetrievalEngine } from '../../src/core/engine';
import { readSquad } from '../../src/core/eval/squad';
import { LocalGenerator, TEST_GENERATOR_ID } from '../../src/core/generate/local';
import { startContextMock } from '../../src/node/context-mock-server';
import { setupNode, SHARED_DATA } from '../../src/node/setup';
import { ensureTestGenerator } from '../make-test-lm';

const { values } = parseArgs({ options: { units: { type: 'string' }, 'lm-units': { type: 'string' }, json: { type: 'string' } } });
const want = Number(values.units ?? 1000);
const lmWant = Number(values['lm-units'] ?? 100);

export interface ContextBenchRow {
  generator: string;
  units: number;
  calls: number;
  failed: number;
  /** Why calls failed, each reason once. */
  reasons: string[];
  promptTokens: number;
  /** Of promptTokens, those repeated from the previous call of the same document (planned). */
  cachedPrefixTokens: number;
  seconds: number;
  perThousandSeconds: number;
}

setupNode();
ensureTestGenerator();
const embedder = await TransformersEmbedder.load({ model: TEST_EMBEDDER_ID });
const squad = readSquad(JSON.parse(readFileSync(join(SHARED_DATA, 'squad_en/squad-dev-v1.1.from-explorer.json'), 'utf8')), {});
/** Whole articles until there are `want` sentences (the last article cut short by the run, not by the corpus). */
function corpus(units = want): RetrievalEngine {
  const e = new RetrievalEngine({ embedder });
  for (const d of squad.docs) {
    if (e.unitCount('sentence') >= units) break;
    e.addDocuments([d]);
  }
  return e;
}

async function measure(name: string, g: ContextGenerator, units: number): Promise<ContextBenchRow> {
  const e = corpus(units);
  const store = new ContextStore();
  const plan = planContexts(e, 'sentence', store, { generator: g });
  const stop = new AbortController();
  const t = performance.now();
  const r = await generateContexts({ units: e, kind: 'sentence', store, generator: g, signal: stop.signal, onProgress: (p) => p.done >= units && stop.abort() });
  const seconds = (performance.now() - t) / 1000;
  const done = r.progress.done;
  const share = done / Math.max(1, plan.calls);
  return { generator: name, units: done, calls: r.progress.calls, failed: r.progress.failed, reasons: [...new Set(r.failed.map((x) => x.reason))], promptTokens: Math.round(plan.promptTokens * share), cachedPrefixTokens: Math.round(plan.cachedPrefixTokens * share), seconds, perThousandSeconds: (seconds / Math.max(1, done)) * 1000 };
}

const rows: ContextBenchRow[] = [];
const lm = await LocalGenerator.load({ model: TEST_GENERATOR_ID });
rows.push(await measure(`${TEST_GENERATOR_ID} (TEST MODEL, transformers.js in Node; ${lm.contextTokens}-token context)`, localContextGenerator(lm), lmWant));
await lm.dispose();
const mock = await startContextMock();
try {
  rows.push(await measure('mock endpoint on 127.0.0.1 (SSE, 8,192-token context)', endpointContextGenerator({ baseUrl: mock.url, model: 'ctx' }), want));
} finally {
  await mock.close();
}

// Embedding what was written: the contexts of the endpoint's run, with the TEST embedder.
const e = corpus();
await generateContexts({ units: e, kind: 'sentence', store: e.contexts.store, generator: { source: 'bench', contextTokens: 8192, counter: embedder.counter, complete: async (m) => `About ${m[0]!.content.length} characters.` } });
await e.embedUnits('sentence');
const t = performance.now();
const embedded = await e.contexts.embed('sentence');
const embedSeconds = (performance.now() - t) / 1000;

const f = (n: number, d = 1) => Number(n.toFixed(d));
console.log(`contexts bench · sentences of SQuAD articles in order · ${lmWant} units with the TEST generator, ${want} with the mock endpoint`);
console.log(
  renderTable(
    ['generator', 'units', 'calls', 'failed', 'prompt tokens', 'of them repeated prefix', 's', 's / 1,000 units'],
    rows.map((r) => [r.generator, r.units, r.calls, r.failed, r.promptTokens, r.cachedPrefixTokens, f(r.seconds), f(r.perThousandSeconds)]),
  ),
);
for (const r of rows) for (const why of r.reasons) console.log(`failed (${r.generator.split(' ')[0]}): ${why}`);
console.log(`embedding ${embedded} contextualised sentences with ${TEST_EMBEDDER_ID} (TEST MODEL): ${f(embedSeconds, 2)} s (${f((embedSeconds / Math.max(1, embedded)) * 1000, 2)} s per 1,000)`);
if (values.json) writeFileSync(values.json, JSON.stringify({ rows, embed: { units: embedded, seconds: embedSeconds } }, null, 2) + '\n');
