import { METRIC_NAMES, type JudgedBlock, type Metrics } from '../eval/metrics';
import { copyPieces, splitCopyBytes } from './copy-reader';
import { BundleError, GOLDEN, MANIFEST, SQL_FILES, type BundleFile } from './format';
import { SQL_STRATEGY_UNIT, runMetrics, textHash, type Golden, type GoldenBlock } from './golden';
import { parseManifest, sha256 } from './manifest';

/** The little a verifier needs from a PostgreSQL connection (PGlite in Node or a worker, or a server). */
export interface SqlDatabase {
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs `COPY table (cols) FROM …` with rows of the block (COPY text format, UTF-8) as input. */
  copyFrom(statement: string, rows: Uint8Array): Promise<void>;
}

export interface RunAgreement {
  retriever: string;
  strategy: string;
  questions: number;
  /** Questions whose ranked unit ids are identical. */
  sameUnits: number;
  /** Questions whose blocks (ids, sentence ranges, character spans, tokens) are identical. */
  sameBlocks: number;
  /** Largest score difference over units and blocks. */
  maxScoreDiff: number;
  metricsLab: Metrics | null;
  metricsSql: Metrics | null;
  sameMetrics: boolean;
  /** The first difference found, worded for the user. */
  firstDifference: string | null;
}

export interface VerifyReport {
  agree: boolean;
  runs: RunAgreement[];
  loadMs: number;
  queryMs: number;
  tolerance: number;
}

const decoder = new TextDecoder();

/** A COPY block goes to the database in pieces of this many bytes at most (a whole block can be GBs). */
export const COPY_PIECE_BYTES = 16 << 20;

/** Loads the bundle's SQL (schema, COPY data, functions) into a database. */
export async function loadBundleSql(db: SqlDatabase, files: Map<string, Uint8Array>, copyPieceBytes = COPY_PIECE_BYTES): Promise<void> {
  for (const name of SQL_FILES) {
    const bytes = files.get(name);
    if (!bytes) throw new BundleError(`the bundle is incomplete: ${name} is missing`);
    if (name.endsWith('functions.sql')) {
      // Function bodies hold semicolons: the file goes to the server whole.
      await db.exec(decoder.decode(bytes));
      continue;
    }
    for (const part of splitCopyBytes(bytes)) {
      if (part.kind === 'sql') await db.exec(part.sql);
      else for (const rows of copyPieces(part.data, copyPieceBytes)) await db.copyFrom(part.statement, rows);
    }
  }
}

function sameBlock(a: GoldenBlock, b: GoldenBlock): boolean {
  return a.id === b.id && a.doc === b.doc && a.sentences[0] === b.sentences[0] && a.sentences[1] === b.sentences[1] && a.chars[0] === b.chars[0] && a.chars[1] === b.chars[1] && a.tokens === b.tokens && a.textHash === b.textHash;
}

interface SqlBlockRow {
  block_id: string;
  doc: number;
  sent_start: number;
  sent_end: number;
  char_start: number;
  char_end: number;
  score: number;
  tokens: number;
  header: string;
  block_text: string;
}

/** A bundle checked for verification: its SQL and golden run present and matching the manifest. */
export interface VerifiableBundle {
  files: Map<string, Uint8Array>;
  golden: Golden;
}

/** Checks the files verify needs (before any database is started): one BundleError per fault. */
export async function readVerifiable(bundle: BundleFile[]): Promise<VerifiableBundle> {
  const files = new Map(bundle.map((f) => [f.name.replace(/^\.?\//, ''), f.bytes]));
  const manifest = parseManifest(files.get(MANIFEST));
  for (const name of [...SQL_FILES, GOLDEN]) {
    const bytes = files.get(name);
    const entry = manifest.files.find((f) => f.name === name);
    if (!bytes) throw new BundleError(`the bundle is incomplete: ${name} is missing`);
    if (entry && bytes.length !== entry.bytes) throw new BundleError(`${name} is ${bytes.length < entry.bytes ? 'truncated' : 'corrupt'} (${bytes.length} of ${entry.bytes} bytes)`);
    if (entry && (await sha256(bytes)) !== entry.sha256) throw new BundleError(`${name} is corrupt: its checksum differs from the manifest's`);
  }
  let golden: Golden;
  try {
    golden = JSON.parse(decoder.decode(files.get(GOLDEN)!));
  } catch (e) {
    throw new BundleError(`${GOLDEN} is corrupt: ${(e as Error).message}`);
  }
  const shape = golden as unknown as { runs?: unknown; questions?: unknown } | null;
  if (!shape || !Array.isArray(shape.runs) || !Array.isArray(shape.questions)) throw new BundleError(`${GOLDEN} is corrupt: it needs "runs" and "questions" lists`);
  return { files, golden };
}

/**
 * A database step of verify: PostgreSQL's refusal (a bundle's own SQL, a golden run naming an
 * unknown strategy) becomes one BundleError naming what was asked, not the driver's stack.
 */
async function sqlStep<T>(what: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (e) {
    if (e instanceof BundleError) throw e;
    const message = e instanceof Error ? e.message : String(e);
    throw new BundleError(`${what}: ${message.split('\n')[0]}`);
  }
}

/**
 * Verifies a bundle against a PostgreSQL database: loads its SQL, runs every golden
 * question through the SQL functions and compares with what the lab handed over —
 * identical ranked unit ids and blocks (text included), scores within `tolerance`, the same metrics.
 */
export async function verifyBundle(
  bundle: BundleFile[] | VerifiableBundle,
  db: SqlDatabase,
  options: { tolerance?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<VerifyReport> {
  const tolerance = options.tolerance ?? 1e-5;
  const { files, golden } = Array.isArray(bundle) ? await readVerifiable(bundle) : bundle;
  const t0 = performance.now();
  await sqlStep('its SQL does not load into PostgreSQL', () => loadBundleSql(db, files));
  const loadMs = performance.now() - t0;

  const t1 = performance.now();
  const runs: RunAgreement[] = [];
  const total = golden.runs.length * golden.questions.length;
  let done = 0;
  for (const run of golden.runs) {
    const agreement: RunAgreement = { retriever: run.retriever, strategy: run.strategy, questions: golden.questions.length, sameUnits: 0, sameBlocks: 0, maxScoreDiff: 0, metricsLab: run.metrics, metricsSql: null, sameMetrics: true, firstDifference: null };
    const override = JSON.stringify({ retriever: run.retriever });
    const judgedSql: JudgedBlock[][] = [];
    const note = (q: number, what: string) => {
      agreement.firstDifference ??= `question ${golden.questions[q]!.id} ("${golden.questions[q]!.question}"): ${what}`;
    };
    for (const [qi, q] of golden.questions.entries()) {
      const lab = run.results[qi]!;
      const terms = JSON.stringify(q.terms);
      const vector = q.vector ? `[${q.vector.join(',')}]` : null;
      const asked = `PostgreSQL refused golden run ${run.retriever}/${run.strategy}, question ${q.id}`;
      const units = await sqlStep(asked, () =>
        db.query<{ unit: number; score: number }>(
          'SELECT unit, score FROM raglab.candidates($1, ARRAY(SELECT jsonb_array_elements_text($2::jsonb)), $3::vector, $4::jsonb) ORDER BY rank',
          [SQL_STRATEGY_UNIT[run.strategy as keyof typeof SQL_STRATEGY_UNIT] ?? run.strategy, terms, vector, override],
        ),
      );
      const blocks = await sqlStep(asked, () =>
        db.query<SqlBlockRow>('SELECT * FROM raglab.search($1, ARRAY(SELECT jsonb_array_elements_text($2::jsonb)), $3::vector, $4::jsonb) ORDER BY rank', [run.strategy, terms, vector, override]),
      );
      const idsSame = units.length === lab.units.length && units.every((u, i) => u.unit === lab.units[i]!.id);
      if (idsSame) agreement.sameUnits++;
      else note(qi, `ranked units differ: lab [${lab.units.map((u) => u.id).slice(0, 10).join(', ')}…], SQL [${units.map((u) => u.unit).slice(0, 10).join(', ')}…]`);
      for (let i = 0; i < Math.min(units.length, lab.units.length); i++) agreement.maxScoreDiff = Math.max(agreement.maxScoreDiff, Math.abs(units[i]!.score - lab.units[i]!.score));
      const sqlBlocks: GoldenBlock[] = blocks.map((b) => ({ id: b.block_id, doc: b.doc, sentences: [b.sent_start, b.sent_end], chars: [b.char_start, b.char_end], score: b.score, tokens: b.tokens, textHash: textHash(b.header, b.block_text) }));
      const blocksSame = sqlBlocks.length === lab.blocks.length && sqlBlocks.every((b, i) => sameBlock(b, lab.blocks[i]!));
      if (blocksSame) agreement.sameBlocks++;
      else note(qi, `blocks differ: lab [${lab.blocks.map((b) => `${b.id}/${b.tokens}/${b.textHash}`).join(', ')}], SQL [${sqlBlocks.map((b) => `${b.id}/${b.tokens}/${b.textHash}`).join(', ')}]`);
      for (let i = 0; i < Math.min(sqlBlocks.length, lab.blocks.length); i++) agreement.maxScoreDiff = Math.max(agreement.maxScoreDiff, Math.abs(sqlBlocks[i]!.score - lab.blocks[i]!.score));
      judgedSql.push(blocks.map((b) => ({ doc: golden.docIds[b.doc]!, start: b.char_start, end: b.char_end, text: b.block_text, tokens: b.tokens })));
      options.onProgress?.(++done, total);
    }
    agreement.metricsSql = runMetrics(golden.questions, judgedSql, golden.byDocument);
    const a = agreement.metricsLab;
    const b = agreement.metricsSql;
    agreement.sameMetrics = a === null ? b === null : b !== null && METRIC_NAMES.every((k) => Math.abs(a[k] - b[k]) <= 1e-9);
    if (agreement.maxScoreDiff > tolerance) agreement.firstDifference ??= `scores differ by up to ${agreement.maxScoreDiff.toExponential(2)}`;
    runs.push(agreement);
  }
  const agree = runs.every((r) => r.sameUnits === r.questions && r.sameBlocks === r.questions && r.maxScoreDiff <= tolerance && r.sameMetrics);
  return { agree, runs, loadMs, queryMs: performance.now() - t1, tolerance };
}
