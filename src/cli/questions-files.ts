/**
 * Question-set files on disk for the CLI: reading a set in any format (a BEIR folder too),
 * the rejected-questions file written beside a generated set, and the generation runs it
 * implies (asked = kept + rejected per model), so `eval --questions` can say "42 generated
 * by llama3.2, of 60 asked; 18 rejected" from the two files alone.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describeSources, type LeftOut } from '../core/questions/evaluate-set';
import { detectFormat, importSet, type ImportResult } from '../core/questions/formats';
import type { GenerationRun, QuestionSet, QuestionSourceKind, RejectedQuestion, RejectReason } from '../core/questions/types';
import type { Document } from '../core/types';

/** A set file (or BEIR folder) read onto `docs`; the format from its name and first characters, JSONL when unsure. */
export function readQuestionSetFile(path: string, docs: Document[], deps: { usage(message: string): Error }): ImportResult {
  if (statSync(path).isDirectory()) {
    const files: Record<string, string> = {};
    for (const name of ['queries.jsonl', 'corpus.jsonl']) if (existsSync(join(path, name))) files[name] = readFileSync(join(path, name), 'utf8');
    const qrels = existsSync(join(path, 'qrels')) ? readdirSync(join(path, 'qrels')).filter((f) => f.endsWith('.tsv')).sort() : [];
    const tsv = qrels.includes('test.tsv') ? 'test.tsv' : qrels[0];
    if (!files['queries.jsonl'] || !tsv) throw deps.usage(`${path}: a folder must be a BEIR set (queries.jsonl and qrels/*.tsv)`);
    files[`qrels/${tsv}`] = readFileSync(join(path, 'qrels', tsv), 'utf8');
    return importSet('beir', files, docs, basename(path));
  }
  const text = readFileSync(path, 'utf8');
  const format = detectFormat(basename(path), text) ?? 'jsonl';
  const r = importSet(format, { [basename(path)]: text }, docs, basename(path));
  if (!r.set.questions.length) throw deps.usage(`${path}: no question could be read as ${format}${r.skipped.length ? ` (${r.skipped.slice(0, 2).join('; ')})` : ''}`);
  return r;
}

/** One line of set.rejected.jsonl. */
export function rejectedLine(r: RejectedQuestion, model: string): string {
  return JSON.stringify({ reason: r.reason, detail: r.detail, ...(r.question !== undefined ? { question: r.question } : {}), ...(r.answer !== undefined ? { answer: r.answer } : {}), type: r.type, model, passage: r.passage });
}

/** The rejected file beside a set: set.jsonl → set.rejected.jsonl. */
export function rejectedPathOf(setPath: string): string {
  return setPath.replace(/(\.jsonl)?$/i, '.rejected.jsonl');
}

/** Generation runs from the set's generated questions and the rejected file beside it (none when it is absent). */
export function runsFromRejected(setPath: string, set: QuestionSet): GenerationRun[] {
  const path = rejectedPathOf(setPath);
  if (path === setPath || !existsSync(path)) return [];
  const runs = new Map<string, GenerationRun>();
  const run = (model: string) => {
    if (!runs.has(model)) runs.set(model, { model, asked: 0, kept: 0, rejected: {} });
    return runs.get(model)!;
  };
  for (const q of set.questions) {
    if (q.source.kind !== 'generated' || !q.source.model) continue;
    const r = run(q.source.model);
    r.kept++;
    r.asked++;
  }
  for (const line of readFileSync(path, 'utf8').split(/\r?\n/)) {
    if (!line.trim()) continue;
    try {
      const o = JSON.parse(line) as { model?: unknown; reason?: unknown };
      if (typeof o.model !== 'string' || typeof o.reason !== 'string') continue;
      const r = run(o.model);
      r.asked++;
      r.rejected[o.reason as RejectReason] = (r.rejected[o.reason as RejectReason] ?? 0) + 1;
    } catch {
      // A damaged line of the rejected file only makes the counts smaller; the set is unaffected.
    }
  }
  return [...runs.values()];
}

export function evaluateSetSources(set: QuestionSet, only: QuestionSourceKind | undefined, leftOut: LeftOut): string {
  return describeSources(set, { ...(only ? { only } : {}), leftOut });
}
