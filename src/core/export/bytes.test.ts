import { describe, expect, it } from 'vitest';
import { Utf8Writer, concatBytes, fromBase64, toBase64, writeBase64 } from './bytes';
import { copyPieces, splitCopyBytes, splitCopyScript } from './copy-reader';
import { float32Text, writeFloat32 } from './float-text';

const encode = (s: string) => new TextEncoder().encode(s);
const decode = (b: Uint8Array) => new TextDecoder().decode(b);

describe('Utf8Writer', () => {
  it('gives the UTF-8 of all that was written, across chunk ends', () => {
    const out = new Utf8Writer(16);
    const expected: string[] = [];
    const texts = ['row 1\tcafé', '😀 emoji and more than sixty-four characters of text: '.repeat(3) + 'Ελληνικά', '中文文本', ''];
    for (let i = 0; i < 40; i++) {
      out.text(texts[i % texts.length]!);
      out.byte(0x09);
      out.int([0, 7, 42, 1234567890, 4294967295, -3, 2 ** 40, 1.5][i % 8]!);
      out.ascii('\\N\n');
      expected.push(`${texts[i % texts.length]}\t${[0, 7, 42, 1234567890, 4294967295, -3, 2 ** 40, 1.5][i % 8]}\\N\n`);
    }
    const chunks = out.chunks();
    expect(chunks.length).toBeGreaterThan(10);
    expect(decode(concatBytes(chunks))).toBe(expected.join(''));
    expect(new Utf8Writer().bytes()).toEqual(new Uint8Array(0));
  });

  it('writes vector values as float32Text does', () => {
    const out = new Utf8Writer(64);
    const values: number[] = [0, -0, 1, -1, 0.5, 0.01, 0.001, 0.00123, 0.0099999, 0.099999994, 1e-5, 123.25, 3.4e38, 1.4e-45, -0.05123457];
    let state = 11;
    for (let i = 0; i < 20_000; i++) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      values.push((state / 2 ** 32 - 0.5) * (i % 3 === 0 ? 0.02 : 0.3));
    }
    const f = Float32Array.from(values);
    for (const x of f) {
      writeFloat32(out, x);
      out.byte(0x2c);
    }
    expect(decode(out.bytes())).toBe([...f].map((x) => float32Text(x) + ',').join(''));
  });
});

describe('base64', () => {
  it('is btoa of the bytes, padding included, and reads back', () => {
    let state = 3;
    for (let n = 0; n < 40; n++) {
      const bytes = new Uint8Array(n * 7 + (n % 3));
      for (let i = 0; i < bytes.length; i++) bytes[i] = (state = (Math.imul(state, 1103515245) + 12345) >>> 0) >>> 24;
      const text = toBase64(bytes);
      expect(text).toBe(btoa(String.fromCharCode(...bytes)));
      const out = new Utf8Writer(8);
      writeBase64(out, bytes);
      expect(decode(out.bytes())).toBe(text);
      expect(fromBase64(text)).toEqual(bytes);
    }
    expect(toBase64(encode('Man'))).toBe('TWFu');
    expect(toBase64(encode('Ma'))).toBe('TWE=');
    expect(toBase64(encode('M'))).toBe('TQ==');
  });
});

describe('COPY scripts as bytes', () => {
  const script = [
    '-- comment',
    'CREATE TABLE t (a int, b text);',
    'COPY raglab.t (a, b) FROM stdin;',
    '1\tcafé',
    '2\t😀 back\\\\slash',
    '\\.',
    'COPY raglab.empty (a) FROM stdin;',
    '\\.',
    'COPY raglab.u (a) FROM stdin;',
    '3',
    '\\.',
    'ANALYZE;',
    '',
  ].join('\n');

  it('splits as the string reader does, COPY rows kept as bytes', () => {
    const parts = splitCopyBytes(encode(script));
    const reference = splitCopyScript(script);
    expect(parts.map((p) => (p.kind === 'sql' ? p : { ...p, data: decode(p.data) }))).toEqual(reference);
    expect(reference.map((p) => p.kind)).toEqual(['sql', 'copy', 'copy', 'copy', 'sql']);
  });

  it('names a COPY block without its end line', () => {
    expect(() => splitCopyBytes(encode('SELECT 1;\nCOPY t (a) FROM stdin;\n1\n2\n'))).toThrow('COPY block at line 2 has no terminating \\. line');
  });

  it('cuts rows into pieces at row ends, each within the limit unless one row is longer', () => {
    const rows = encode(['a'.repeat(5), 'b'.repeat(30), 'c', 'd'.repeat(9), ''].join('\n'));
    const pieces = copyPieces(rows, 12);
    expect(pieces.map(decode)).toEqual(['aaaaa\n', 'b'.repeat(30) + '\n', 'c\n' + 'd'.repeat(9) + '\n']);
    expect(copyPieces(new Uint8Array(0), 12)).toEqual([]);
    expect(concatBytes(copyPieces(rows, 1))).toEqual(rows);
  });
});
