/**
 * Issue 28, bundles: each case is refused in one BundleError naming the fault, or imported
 * correctly — reordered rows give the same answers — and nothing the caller holds changes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { documentFromText } from '../documents/load';
import type { RetrievalEngine } from '../engine';
import type { StrategyName } from '../retrieve/params';
import { BundleError, parquetPath, type BundleFile, type Table } from './format';
import { importBundle } from './import';
import { bundleOf, embeddedEngine, hashEmbedder, reordered, shuffledOrder, withFile, withManifest, withTable } from './hostile-fixture';
import { parquetMetadata } from 'hyparquet';
import { checkDeclaredRows } from './parquet';

const TEXTS = [
  '# Solar\n\nSolar panels turn sunlight into electricity. Panels on roofs feed the grid at noon.\n\n## Storage\n\nBatteries keep the energy for the night. Lithium cells dominate the market today.',
  '# Wind\n\nWind turbines spin in steady coastal winds. Offshore farms produce more power per turbine.\n\nTurbines need maintenance every year.',
  '# Rivers\n\nDams hold rivers back to drive turbines. Fish ladders let salmon pass the dams.',
];
const STRATEGIES: StrategyName[] = ['sentence', 'window', 'automerge', 'naive'];
const QUESTIONS = ['where do batteries keep energy', 'offshore wind turbines', 'salmon and dams'];

let engine: RetrievalEngine;
let files: BundleFile[];
const embedder = hashEmbedder();

beforeAll(async () => {
  engine = await embeddedEngine(TEXTS.map((t, i) => documentFromText(t, `doc${i}.md`, 'md')), embedder);
  files = (await bundleOf(engine, QUESTIONS)).files;
});

async function answers(e: RetrievalEngine) {
  const out = [];
  for (const q of QUESTIONS) for (const retriever of ['bm25', 'vector'] as const) out.push((await e.search(q, STRATEGIES, { retriever, topK: 4 })).map((r) => r.blocks.map((b) => [b.doc, b.start, b.end, b.text])));
  return out;
}

const refusal = async (bundle: BundleFile[]) => {
  try {
    await importBundle(bundle, { embedder });
  } catch (e) {
    expect(e).toBeInstanceOf(BundleError);
    return (e as Error).message;
  }
  throw new Error('the bundle was imported');
};

const reverse = (t: Table) => reordered(t, Array.from({ length: t.rows }, (_, i) => t.rows - 1 - i));

describe('case 5: rows re-sorted by another tool are joined by their keys', () => {
  it('imports a bundle whose sentences, units, vectors, documents, sections and pages rows are shuffled, with the same answers', async () => {
    let b = files;
    for (const name of ['sentences', 'units', 'vectors', 'documents', 'sections', 'pages'] as const) b = await withTable(b, name, (t) => reordered(t, shuffledOrder(t.rows, name.length)));
    const { engine: back } = await importBundle(b, { embedder });
    expect(back.corpus.docs.map((d) => d.id)).toEqual(engine.corpus.docs.map((d) => d.id));
    expect(back.corpus.sentences).toEqual(engine.corpus.sentences);
    expect(await answers(back)).toEqual(await answers(engine));
  });

  it('takes each vector by its unit column: vectors rows reversed give the same vector answers', async () => {
    const b = await withTable(files, 'vectors', reverse);
    const { engine: back } = await importBundle(b, { embedder });
    expect(back.exportVectors()).toEqual(engine.exportVectors());
    expect(await answers(back)).toEqual(await answers(engine));
  });

  it('refuses a sentence number that repeats, with the table named', async () => {
    const b = await withTable(files, 'sentences', (t) => ({ ...t, columns: { ...t.columns, sentence: Array.from(t.columns.sentence!).map((s, i) => (i === 3 ? 2 : s)) } }));
    expect(await refusal(b)).toBe('parquet/sentences.parquet is corrupt: two rows have the same sentence 2');
  });

  it('refuses a vector row given twice, naming its key as the table holds it', async () => {
    const b = await withTable(files, 'vectors', (t) => reordered(t, [...Array.from({ length: t.rows }, (_, i) => i), 3]));
    expect(await refusal(b)).toBe('parquet/vectors.parquet is corrupt: two rows have the same kind "sentence", unit 3');
  });

  it('refuses a gap in the sentence numbers', async () => {
    const b = await withTable(files, 'sentences', (t) => ({ ...t, columns: { ...t.columns, sentence: Array.from(t.columns.sentence!).map((s) => ((s as number) >= 4 ? (s as number) + 1 : s)) } }));
    expect(await refusal(b)).toBe('parquet/sentences.parquet is corrupt: sentence 4 is missing (found 5)');
  });

  it('refuses a vector whose unit is out of range', async () => {
    const b = await withTable(files, 'vectors', (t) => ({ ...t, columns: { ...t.columns, unit: Array.from(t.columns.unit!).map((u, i) => (i === 0 ? 999 : u)) } }));
    expect(await refusal(b)).toMatch(/^parquet\/vectors\.parquet is corrupt: sentence vector of unit 0 is missing \(found 1\)$/);
  });

  it('refuses a unit naming a document that does not exist', async () => {
    const b = await withTable(files, 'units', (t) => ({ ...t, columns: { ...t.columns, doc: Array.from(t.columns.doc!).map((d, i) => (i === 0 ? 7 : d)) } }));
    expect(await refusal(b)).toBe('parquet/units.parquet is corrupt: leaf 0 names document 7, of 3');
  });
});

describe('case 4: vectors must be finite and of the stated dimension', () => {
  for (const bad of [Number.NaN, Number.POSITIVE_INFINITY]) {
    it(`refuses a vector holding ${bad}, and the corpus it was imported into is unchanged`, async () => {
      const b = await withTable(files, 'vectors', (t) => {
        const embedding = Array.from(t.columns.embedding!).map((v, i) => {
          const f = new Float32Array(v as Float32Array);
          if (i === 5) f[3] = bad;
          return f;
        });
        return { ...t, columns: { ...t.columns, embedding } };
      });
      const before = await answers(engine);
      const message = await refusal(b);
      expect(message).toBe(`parquet/vectors.parquet is corrupt: the sentence vector of unit 5 holds ${bad}, not a finite number`);
      await expect(importBundle(b, { embedder, into: engine })).rejects.toThrow(message);
      expect(await answers(engine)).toEqual(before);
    });
  }
});

describe('case 6: a manifest or table that would crash the import is one refusal', () => {
  it('refuses chunk levels that do not shrink, naming the field', async () => {
    const b = withManifest(files, (m) => void (m.structure.chunkLevels = [128, 512]));
    expect(await refusal(b)).toBe('manifest.json is corrupt: structure: chunk levels must shrink: 128 > 512');
  });

  it('refuses chunk levels that are not numbers', async () => {
    const b = withManifest(files, (m) => void (m.structure.chunkLevels = 'big'));
    expect(await refusal(b)).toMatch(/^manifest\.json is corrupt: structure\.chunkLevels: /);
  });

  it('refuses an unknown analyzer, naming the field', async () => {
    const b = withManifest(files, (m) => void (m.structure.lexical.analyzer = 'klingon'));
    expect(await refusal(b)).toMatch(/^manifest\.json is corrupt: structure\.lexical\.analyzer: /);
  });

  it('refuses unknown vector kinds by name (not "2 boguss")', async () => {
    const b = withManifest(files, (m) => void (m.vectors.kinds = ['sentence', 'bogus']));
    const message = await refusal(b);
    expect(message).toMatch(/^manifest\.json is corrupt: vectors\.kinds\[1\]: /);
    expect(message).not.toContain('boguss');
  });

  it('ignores an "extra" JSON that would override the document\'s own fields', async () => {
    const b = await withTable(files, 'documents', (t) => ({ ...t, columns: { ...t.columns, extra: Array.from(t.columns.extra!).map(() => JSON.stringify({ text: 5, id: 'x', sections: null, tags: ['kept'] })) } }));
    const { engine: back } = await importBundle(b, { embedder });
    expect(back.corpus.docs.map((d) => [d.id, d.text, d.tags])).toEqual(engine.corpus.docs.map((d) => [d.id, d.text, ['kept']]));
  });

  it('refuses metadata nested too deep to store', async () => {
    const deep = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    const b = await withTable(files, 'documents', (t) => ({ ...t, columns: { ...t.columns, meta: Array.from(t.columns.meta!).map((m, i) => (i === 1 ? deep : m)) } }));
    expect(await refusal(b)).toBe('parquet/documents.parquet is corrupt: document 1 has metadata that is nested more than 64 levels deep');
  });

  it('refuses a duplicate document id as such (not "made by another version")', async () => {
    const b = await withTable(files, 'documents', (t) => ({ ...t, columns: { ...t.columns, id: Array.from(t.columns.id!).map((id, i) => (i === 2 ? t.columns.id![0] : id)) } }));
    const message = await refusal(b);
    expect(message).toMatch(/^parquet\/documents\.parquet is corrupt: documents 0 and 2 have the same id "/);
    expect(message).not.toContain('another version');
  });

  it('refuses a Parquet footer declaring 2^40 rows before allocating', () => {
    expect(() => checkDeclaredRows('parquet/sentences.parquet', 2 ** 40, [2 ** 40], 1500)).toThrow('parquet/sentences.parquet is corrupt: its footer declares 1099511627776 rows, more than its 1500 bytes can hold');
  });

  it('refuses a 1.5 KB table whose footer declares 30 million rows, through the import', async () => {
    const path = parquetPath('sections');
    const bytes = files.find((f) => f.name === path)!.bytes;
    const forged = forgeRowCount(bytes, 30_000_000);
    const b = await withFile(files, path, forged);
    expect(await refusal(b)).toMatch(/^parquet\/sections\.parquet is corrupt: its footer declares 30000000 rows, more than its \d+ bytes can hold$/);
  });

  it('refuses a table whose row count differs from the manifest', async () => {
    const b = withManifest(files, (m) => void (m.tables.sentences.rows += 1));
    expect(await refusal(b)).toMatch(/^parquet\/sentences\.parquet is corrupt: it holds \d+ rows, the manifest says \d+$/);
  });
});

describe('messages that misled', () => {
  it('never tells the user to "clear the corpus" when there is none', async () => {
    const b = withManifest(files, (m) => void (m.corpus.maxSentenceTokens = 100000));
    const message = await refusal(b);
    expect(message).not.toContain('clear the corpus');
    expect(message).toMatch(/^the bundle splits sentences above 100000 tokens, but this lab with the loaded model splits above \d+: export it again with this model$/);
  });
});

/**
 * The file with its footer's num_rows replaced (FileMetaData field 3, an i64 zigzag varint
 * after the schema list, field header 0x16): a table declaring more rows than it holds.
 * Checked by reading the forged footer back with hyparquet.
 */
function forgeRowCount(bytes: Uint8Array, rows: number): Uint8Array {
  const n = bytes.length;
  const view = new DataView(bytes.buffer, bytes.byteOffset, n);
  const metaLength = view.getUint32(n - 8, true);
  const metaStart = n - 8 - metaLength;
  const meta = bytes.subarray(metaStart, n - 8);
  const real = varint(Number(parquetMetadata(bytes.slice().buffer).num_rows) * 2);
  const forged = varint(rows * 2);
  for (let i = 0; i < meta.length - real.length; i++) {
    if (meta[i] !== 0x16 || !real.every((b, j) => meta[i + 1 + j] === b)) continue;
    const at = metaStart + i + 1;
    const out = new Uint8Array(n - real.length + forged.length);
    out.set(bytes.subarray(0, at));
    out.set(forged, at);
    out.set(bytes.subarray(at + real.length, n - 8), at + forged.length);
    new DataView(out.buffer).setUint32(out.length - 8, metaLength - real.length + forged.length, true);
    out.set(bytes.subarray(n - 4), out.length - 4);
    if (Number(parquetMetadata(out.slice().buffer).num_rows) === rows) return out;
  }
  throw new Error('num_rows not found in the footer');
}

function varint(v: number): number[] {
  const out: number[] = [];
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return out;
}
