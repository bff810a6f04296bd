/**
 * Every question-set format, for the page's export/import and `questions convert`: pure
 * functions over strings. An export is one or more named files (BEIR is three: the page zips
 * them, the CLI writes a folder) plus notes on what the format could not carry.
 */
import type { Document } from '../../types';
import { needsAll } from '../needs';
import type { QuestionSet } from '../types';
import { exportBeir, importBeir } from './beir';
import { exportJsonl, importJsonl } from './jsonl';
import { exportLlamaIndex, importLlamaIndex } from './llamaindex';
import { exportRagas, importRagas } from './ragas';
import type { ImportResult } from './resolve';
import { exportSquad, importSquad } from './squad';

export type { ImportResult } from './resolve';

export { SET_FORMATS, type SetFormat } from './set-formats';
import type { SetFormat } from './set-formats';

export const FORMAT_LABELS: Record<SetFormat, string> = {
  jsonl: 'JSONL (the lab’s own: one question a line)',
  squad: 'SQuAD-format JSON',
  beir: 'BEIR (queries.jsonl, qrels/test.tsv, corpus.jsonl)',
  ragas: 'Ragas test set (JSONL)',
  llamaindex: 'LlamaIndex EmbeddingQAFinetuneDataset (JSON)',
};

export interface ExportedFile {
  /** A relative path: "questions.jsonl", "qrels/test.tsv", … */
  name: string;
  text: string;
}

export interface SetExport {
  files: ExportedFile[];
  notes: string[];
}

/** What each other format does with a question that needs all its answers: none has a field for it. */
const NEEDS_ALL_LOST: Record<Exclude<SetFormat, 'jsonl'>, string> = {
  squad: 'SQuAD has no field for that (its answers are alternatives: any one counts), so they go out as alternatives',
  beir: 'BEIR has no field for that (its qrels judge each relevant document alone), so their documents go out as separately relevant',
  ragas: 'a Ragas test set has no field for that, so their answers go out joined into one reference (" … ")',
  llamaindex: 'EmbeddingQAFinetuneDataset has no field for that (a hit is any one relevant node retrieved), so their nodes go out as alternatives',
};

/** One note for the questions of `set` that need every answer, when `format` cannot say so (null when none). */
export function needsAllNote(format: SetFormat, set: QuestionSet): string | null {
  if (format === 'jsonl') return null;
  const all = set.questions.filter(needsAll).map((q) => q.id);
  if (!all.length) return null;
  const which = all.length > 5 ? `${all.slice(0, 5).join(', ')}, …` : all.join(', ');
  return `${all.length === 1 ? '1 question needs' : `${all.length} questions need`} all ${all.length === 1 ? 'its' : 'their'} answers (${which}); ${NEEDS_ALL_LOST[format]}. The JSONL export keeps "needs": "all".`;
}

/** The set in `format`, over the current documents. */
export function exportSet(format: SetFormat, set: QuestionSet, docs: readonly Document[]): SetExport {
  const r = exportIn(format, set, docs);
  const note = needsAllNote(format, set);
  return note ? { ...r, notes: [note, ...r.notes] } : r;
}

function exportIn(format: SetFormat, set: QuestionSet, docs: readonly Document[]): SetExport {
  switch (format) {
    case 'jsonl':
      return { files: [{ name: 'questions.jsonl', text: exportJsonl(set) }], notes: [] };
    case 'squad': {
      const r = exportSquad(set, docs);
      return { files: [{ name: 'questions.squad.json', text: r.text }], notes: r.notes };
    }
    case 'beir': {
      const r = exportBeir(set, docs);
      return { files: [{ name: 'queries.jsonl', text: r.queries }, { name: 'qrels/test.tsv', text: r.qrels }, { name: 'corpus.jsonl', text: r.corpus }], notes: r.notes };
    }
    case 'ragas': {
      const r = exportRagas(set, docs);
      return { files: [{ name: 'questions.ragas.jsonl', text: r.text }], notes: r.notes };
    }
    case 'llamaindex': {
      const r = exportLlamaIndex(set, docs);
      return { files: [{ name: 'questions.llamaindex.json', text: r.text }], notes: r.notes };
    }
  }
}

/**
 * Reads a set in `format` onto the current documents. `files` maps names to texts: one file for
 * every format but BEIR, which needs queries.jsonl and a qrels .tsv (corpus.jsonl optional).
 */
export function importSet(format: SetFormat, files: Record<string, string>, docs: readonly Document[], fileName: string): ImportResult {
  const only = Object.values(files)[0] ?? '';
  switch (format) {
    case 'jsonl':
      return importJsonl(only, docs, fileName);
    case 'squad':
      return importSquad(only, docs, fileName);
    case 'ragas':
      return importRagas(only, docs, fileName);
    case 'llamaindex':
      return importLlamaIndex(only, docs, fileName);
    case 'beir': {
      const find = (re: RegExp) => Object.entries(files).find(([n]) => re.test(n))?.[1];
      const queries = find(/queries\.jsonl$/i);
      const qrels = find(/\.tsv$/i);
      if (queries === undefined || qrels === undefined) return { set: { questions: [] }, skipped: [`${fileName}: BEIR needs queries.jsonl and a qrels .tsv file`] };
      const corpus = find(/corpus\.jsonl$/i);
      return importBeir({ queries, qrels, ...(corpus !== undefined ? { corpus } : {}) }, docs, fileName);
    }
  }
}

/** The format of a single file by its name and first characters (null when it cannot tell). */
export function detectFormat(fileName: string, text: string): SetFormat | null {
  const head = text.trimStart().slice(0, 2000);
  if (/\.tsv$/i.test(fileName) || /queries\.jsonl$/i.test(fileName) || /corpus\.jsonl$/i.test(fileName)) return 'beir';
  if (head.startsWith('{"data"') || /^\{\s*"(?:version|data)"/.test(head)) return 'squad';
  if (/^\{\s*"queries"/.test(head)) return 'llamaindex';
  if (/"user_input"\s*:/.test(head)) return 'ragas';
  if (/"question"\s*:/.test(head) && /^\{/.test(head)) return 'jsonl';
  return null;
}
