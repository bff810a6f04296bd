/**
 * The question set as files in the page: the core's formats (core/questions/formats: JSONL,
 * SQuAD JSON, BEIR, Ragas, LlamaIndex) as one downloadable file each — BEIR's three files in a
 * zip — and any of them read back. No DOM here: the component makes the blob: URL.
 */
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { detectFormat, exportSet, FORMAT_LABELS, importSet, SET_FORMATS, type ImportResult, type SetFormat } from '../core/questions/formats';
import type { QuestionSet } from '../core/questions/types';
import type { Document } from '../core/types';

export { FORMAT_LABELS, SET_FORMATS, type SetFormat };

export interface QuestionFile {
  fileName: string;
  bytes: Uint8Array<ArrayBuffer>;
  mime: string;
  /** What the format could not carry, one line each. */
  notes: string[];
}

/** The set in `format` as one file: its single file, or a zip of several (BEIR). */
export function exportQuestionFile(format: SetFormat, set: QuestionSet, docs: readonly Document[]): QuestionFile {
  const r = exportSet(format, set, docs);
  if (r.files.length === 1) {
    const f = r.files[0]!;
    return { fileName: `question-set.${f.name.replace(/^questions\./, '')}`, bytes: strToU8(f.text) as Uint8Array<ArrayBuffer>, mime: f.name.endsWith('.json') ? 'application/json' : 'application/jsonl', notes: r.notes };
  }
  // fflate, as for bundles: BEIR is a folder of files, carried as one zip.
  const zip = zipSync(Object.fromEntries(r.files.map((f) => [f.name, strToU8(f.text)])));
  return { fileName: `question-set.${format}.zip`, bytes: zip as Uint8Array<ArrayBuffer>, mime: 'application/zip', notes: r.notes };
}

export interface InputFile {
  name: string;
  bytes: Uint8Array;
}

const isZip = (f: InputFile) => /\.zip$/i.test(f.name) || (f.bytes[0] === 0x50 && f.bytes[1] === 0x4b && f.bytes[2] === 0x03 && f.bytes[3] === 0x04);
const text = (b: Uint8Array) => strFromU8(b).replace(/^\uFEFF/, '');

/**
 * Reads dropped question files onto the current documents: one file of any format (detected
 * from its name and first characters unless `format` says), or BEIR's files — dropped
 * together, or in a zip (files may sit in a top folder). Throws one line naming the file when
 * it cannot tell what it is.
 */
export function importQuestionFiles(files: readonly InputFile[], docs: readonly Document[], format: SetFormat | 'auto' = 'auto'): { format: SetFormat; result: ImportResult; fileName: string } {
  if (!files.length) throw new Error('no file was given');
  const texts: Record<string, string> = {};
  for (const f of files) {
    if (!isZip(f)) {
      texts[f.name] = text(f.bytes);
      continue;
    }
    let entries: Record<string, Uint8Array>;
    try {
      entries = unzipSync(f.bytes);
    } catch (e) {
      throw new Error(`${f.name} is not a readable zip (${(e as Error).message})`);
    }
    for (const [name, bytes] of Object.entries(entries)) if (!name.endsWith('/')) texts[name] = text(bytes);
  }
  const names = Object.keys(texts);
  const fileName = files.map((f) => f.name).join(', ');
  const chosen: SetFormat | null =
    format !== 'auto' ? format : names.length > 1 ? (names.some((n) => /queries\.jsonl$/i.test(n)) ? 'beir' : null) : detectFormat(names[0] ?? '', texts[names[0]!] ?? '');
  if (!chosen) {
    throw new Error(
      names.length > 1
        ? `${fileName}: several files, but no BEIR queries.jsonl among them; drop one question file, or BEIR's queries.jsonl, qrels/test.tsv and corpus.jsonl`
        : `${fileName} is not a question set this page can tell (JSONL questions, SQuAD JSON, a BEIR zip, a Ragas test set or LlamaIndex JSON): choose its format`,
    );
  }
  return { format: chosen, result: importSet(chosen, texts, docs, fileName), fileName };
}
