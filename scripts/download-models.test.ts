/**
 * scripts/download-models.ts against a fake hub: a node:http server on 127.0.0.1 (random
 * port) serving `/<org>/<name>/resolve/<revision>/<file>` from a temp folder, with ONNX files
 * answered by a redirect (as the real hub does for LFS files). Nothing leaves the machine.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, sep } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { externalDataCount, main, onnxFileFor, parseArgs } from './download-models';

let root: string; // fake hub tree
let hubDir: string;
let server: Server;
let host: string;
let requests: string[] = [];

function put(path: string, content: string | Buffer): void {
  const full = join(hubDir, ...path.split('/'));
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, content);
}

/** Adds a model to the fake hub; `omit` leaves files out, `extra` adds files. */
function addModel(id: string, opts: { omit?: string[]; extra?: Record<string, string | Buffer>; config?: object } = {}): void {
  const files: Record<string, string | Buffer> = {
    'config.json': JSON.stringify(opts.config ?? { model_type: 'bert', hidden_size: 8 }),
    'tokenizer.json': JSON.stringify({ version: '1.0', model: { type: 'WordPiece', vocab: { a: 0 } } }),
    'tokenizer_config.json': JSON.stringify({ tokenizer_class: 'BertTokenizer' }),
    'special_tokens_map.json': JSON.stringify({ cls_token: '[CLS]' }),
    'onnx/model_quantized.onnx': Buffer.alloc(70_000, 0x51), // bigger than one stream chunk
    'onnx/model.onnx': Buffer.alloc(90_000, 0x32),
    ...opts.extra,
  };
  for (const [file, content] of Object.entries(files)) {
    if (opts.omit?.includes(file)) continue;
    put(`${id}/resolve/main/${file}`, content);
  }
}

function run(argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  return main(argv, { log: (l) => out.push(l), error: (l) => err.push(l) }).then((code) => ({ code, out, err }));
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'rag-lab-dl-'));
  hubDir = join(root, 'hub');
  mkdirSync(hubDir);
  addModel('org1/model-a');
  addModel('org1/model-b', { omit: ['special_tokens_map.json'] });
  addModel('org2/no-q8', { omit: ['onnx/model_quantized.onnx'] });
  addModel('org2/big-model', {
    config: { model_type: 'bert', 'transformers.js_config': { use_external_data_format: { 'model_quantized.onnx': 2 } } },
    extra: { 'onnx/model_quantized.onnx_data': Buffer.alloc(1000, 1), 'onnx/model_quantized.onnx_data_1': Buffer.alloc(500, 2) },
  });
  addModel('org2/spa-fallback', { extra: { 'config.json': '<!doctype html><html><body>app</body></html>' } });

  server = createServer((req, res) => {
    const url = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    requests.push(`${req.method} ${url}`);
    // The hub answers LFS files with a redirect to a CDN: follow it.
    if (url.endsWith('.onnx') || url.includes('.onnx_data')) {
      if (!url.startsWith('/cdn/')) {
        res.writeHead(302, { Location: `/cdn${url}` });
        res.end();
        return;
      }
    }
    const rel = normalize(url.replace(/^\/cdn/, '')).replace(/^[/\\]+/, '');
    const full = join(hubDir, rel);
    if (!full.startsWith(hubDir + sep) || !existsSync(full) || !statSync(full).isFile()) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('Entry not found');
      return;
    }
    const body = readFileSync(full);
    res.writeHead(200, { 'Content-Length': String(body.length), 'Content-Type': 'application/octet-stream' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(root, { recursive: true, force: true });
});

beforeEach(() => {
  requests = [];
});

describe('download-models', () => {
  it('maps dtypes to transformers.js file names and parses arguments', () => {
    expect(onnxFileFor('q8')).toBe('onnx/model_quantized.onnx');
    expect(onnxFileFor('fp32')).toBe('onnx/model.onnx');
    expect(onnxFileFor('fp16')).toBe('onnx/model_fp16.onnx');
    const o = parseArgs(['a/b', '--dtype=fp32', '--out', 'x', '--host', 'http://h/', 'c/d']);
    expect(o).toEqual({ models: ['a/b', 'c/d'], dtype: 'fp32', out: 'x', host: 'http://h', revision: 'main' });
    expect(parseArgs(['a/b']).dtype).toBe('q8');
    expect(externalDataCount({}, 'onnx/model.onnx')).toBe(0);
    expect(externalDataCount({ 'transformers.js_config': { use_external_data_format: true } }, 'onnx/model.onnx')).toBe(1);
    expect(
      externalDataCount({ 'transformers.js_config': { use_external_data_format: { model: 3 } } }, 'onnx/model_q4.onnx'),
    ).toBe(3);
  });

  it('downloads the q8 files into <out>/<org>/<name>/, following redirects', async () => {
    const out = join(root, 'out1');
    const r = await run(['org1/model-a', '--dtype', 'q8', '--out', out, '--host', host]);
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    const dir = join(out, 'org1', 'model-a');
    for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json']) {
      expect(readFileSync(join(dir, f), 'utf8')).toBe(readFileSync(join(hubDir, 'org1/model-a/resolve/main', f), 'utf8'));
    }
    const q8 = readFileSync(join(dir, 'onnx', 'model_quantized.onnx'));
    expect(q8.length).toBe(70_000);
    expect(q8.every((b) => b === 0x51)).toBe(true);
    expect(existsSync(join(dir, 'onnx', 'model.onnx'))).toBe(false); // only the requested dtype
    expect(existsSync(join(dir, 'onnx', 'model_quantized.onnx.part'))).toBe(false);
    expect(requests).toContain('GET /org1/model-a/resolve/main/onnx/model_quantized.onnx');
    expect(requests).toContain('GET /cdn/org1/model-a/resolve/main/onnx/model_quantized.onnx');
    expect(requests.some((r) => r.endsWith('/onnx/model.onnx'))).toBe(false);
    // one progress line per file, plus the model header and the summary
    expect(r.out.filter((l) => l.includes('✓'))).toHaveLength(5);
    expect(r.out.at(-1)).toMatch(/done: 1 model\(s\), 5 file\(s\) downloaded, 0 already present/);
  });

  it('downloads onnx/model.onnx for fp32', async () => {
    const out = join(root, 'out-fp32');
    const r = await run(['org1/model-a', '--dtype', 'fp32', '--out', out, '--host', host]);
    expect(r.code).toBe(0);
    expect(statSync(join(out, 'org1/model-a/onnx/model.onnx')).size).toBe(90_000);
    expect(existsSync(join(out, 'org1/model-a/onnx/model_quantized.onnx'))).toBe(false);
  });

  it('treats a missing optional file as fine', async () => {
    const out = join(root, 'out2');
    const r = await run(['org1/model-b', '--out', out, '--host', host]);
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    expect(existsSync(join(out, 'org1/model-b/special_tokens_map.json'))).toBe(false);
    expect(existsSync(join(out, 'org1/model-b/onnx/model_quantized.onnx'))).toBe(true);
    expect(r.out.some((l) => l.includes('special_tokens_map.json') && /optional/.test(l))).toBe(true);
  });

  it('fails with one clear line and exit code 2 when a required file is missing', async () => {
    const out = join(root, 'out3');
    const r = await run(['org2/no-q8', '--dtype', 'q8', '--out', out, '--host', host]);
    expect(r.code).toBe(2);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/^error: org2\/no-q8\/onnx\/model_quantized\.onnx: required file not found \(HTTP 404\)/);
    expect(r.err[0]).toContain(`${host}/org2/no-q8/resolve/main/onnx/model_quantized.onnx`);
    expect(existsSync(join(out, 'org2/no-q8/onnx/model_quantized.onnx'))).toBe(false);
  });

  it('a second run skips files already present with the same size, and refetches a changed one', async () => {
    const out = join(root, 'out4');
    const first = await run(['org1/model-a', 'org1/model-b', '--out', out, '--host', host]);
    expect(first.code).toBe(0);
    const onnxPath = join(out, 'org1/model-a/onnx/model_quantized.onnx');
    const mtime = statSync(onnxPath).mtimeMs;

    const second = await run(['org1/model-a', 'org1/model-b', '--out', out, '--host', host]);
    expect(second.code).toBe(0);
    expect(second.out.filter((l) => l.includes('✓'))).toHaveLength(0);
    expect(second.out.filter((l) => /already present, skipped/.test(l))).toHaveLength(9); // 5 + 4
    expect(second.out.at(-1)).toMatch(/0 file\(s\) downloaded, 9 already present/);
    expect(statSync(onnxPath).mtimeMs).toBe(mtime);

    writeFileSync(join(out, 'org1/model-a/config.json'), '{}'); // different size → fetched again
    const third = await run(['org1/model-a', '--out', out, '--host', host]);
    expect(third.code).toBe(0);
    expect(third.out.filter((l) => l.includes('✓'))).toEqual([expect.stringContaining('org1/model-a/config.json')]);
    expect(readFileSync(join(out, 'org1/model-a/config.json'), 'utf8')).toContain('bert');
  });

  it('fetches the external-data chunks config.json declares', async () => {
    const out = join(root, 'out5');
    const r = await run(['org2/big-model', '--out', out, '--host', host]);
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    expect(statSync(join(out, 'org2/big-model/onnx/model_quantized.onnx_data')).size).toBe(1000);
    expect(statSync(join(out, 'org2/big-model/onnx/model_quantized.onnx_data_1')).size).toBe(500);
  });

  it('refuses an HTML page served in place of a JSON file (SPA fallback)', async () => {
    const r = await run(['org2/spa-fallback', '--out', join(root, 'out6'), '--host', host]);
    expect(r.code).toBe(2);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/config\.json: not valid JSON \(got HTML/);
  });

  it('rejects bad arguments with exit code 2', async () => {
    for (const argv of [[], ['not-a-model-id'], ['a/b', '--dtype', 'q9'], ['a/b', '--out'], ['a/b', '--bogus'], ['../x/y']]) {
      const r = await run(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err, argv.join(' ')).toHaveLength(1);
      expect(r.err[0]).toMatch(/^error: /);
    }
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.out[0]).toMatch(/^usage:/);
  });

  it('reports an unreachable host with exit code 1', async () => {
    const r = await run(['org1/model-a', '--out', join(root, 'out7'), '--host', 'http://127.0.0.1:1']);
    expect(r.code).toBe(1);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/^error: org1\/model-a\/config\.json: cannot reach/);
  });
});
