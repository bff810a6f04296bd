/**
 * rag-lab questions …: question sets on the command line, over the same core as the page.
 *   questions generate <files…|--corpus F> --endpoint URL --model NAME [--n 50] [--seed 1] --out set.jsonl
 *   questions convert SET <files…|--corpus F> --to squad|beir|ragas|llamaindex|jsonl --out PATH
 *   eval --questions SET <files…|--corpus F>   (main.ts: the set as an EvalSet, loadQuestionsEvalSet)
 *   query --json                               (main.ts: the blocks as JSON, queryJson in query-json.ts)
 * main.ts parses the arguments (QUESTION_OPTIONS joins its own) and lends its file loading and
 * usage error (QuestionDeps).
 */
import type { QuestionValues } from './option-tables';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { EvalSet } from '../core/eval/dataset';
import { describeRequest, type EndpointConfig } from '../core/generate/openai';
import { chatWithRetry } from '../core/generate/retry';
import { evaluateSetSources, readQuestionSetFile, rejectedLine, rejectedPathOf, runsFromRejected } from './questions-files';
import { toEvalSet } from '../core/questions/evaluate-set';
import { copyShareHistogram, type Thresholds } from '../core/questions/filters';
import { exportSet, SET_FORMATS, type SetFormat } from '../core/questions/formats';
import { findDocument } from '../core/questions/formats/resolve';
import { generateQuestions, planGeneration, REJECT_REASONS, type CompleteFn, type GenerateProgress } from '../core/questions/generate';
import { buildMessages, DEFAULT_PROMPTS } from '../core/questions/prompts';
import { DEFAULT_PASSAGE_TOKENS } from '../core/questions/sample';
import type { QuestionSourceKind, QuestionType } from '../core/questions/types';
import { ApproxTokenCounter } from '../core/segment/tokens';
import { buildCorpus } from '../core/structure/corpus';
import type { Document } from '../core/types';
import { writeFileAtomic } from '../node/atomic-write';
import { exportJsonl } from '../core/questions/formats/jsonl';
import { visible } from './terminal';




export interface QuestionDeps {
  loadFiles(paths: string[]): Promise<Document[]>;
  usage(message: string): Error;
}

const KINDS: QuestionType[] = ['specific', 'abstract', 'multi-passage'];

function whole(v: string | undefined, name: string, fallback: number, min: number, deps: QuestionDeps): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (v.trim() === '' || !Number.isInteger(n) || n < min) throw deps.usage(`--${name} must be a whole number ≥ ${min}, got "${v}"`);
  return n;
}

function share(v: string | undefined, name: string, deps: QuestionDeps): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw deps.usage(`--${name} must be a number from 0 to 1, got "${v}"`);
  return n;
}

/** The documents of `<files…>` or `--corpus F` (a corpus saved by "rag-lab index": only its documents are read). */
export async function loadDocuments(values: QuestionValues, files: string[], what: string, deps: QuestionDeps): Promise<Document[]> {
  if (values.corpus) {
    if (files.length) throw deps.usage(`${what}: give files or --corpus, not both`);
    let saved: { format?: string; docs?: Document[] };
    try {
      saved = JSON.parse(readFileSync(values.corpus, 'utf8'));
    } catch (e) {
      throw deps.usage(`--corpus ${values.corpus}: ${(e as Error).message.split('\n')[0]}`);
    }
    if (saved?.format !== 'rag-lab-corpus' || !Array.isArray(saved.docs)) throw deps.usage(`--corpus ${values.corpus}: not a corpus saved by "rag-lab index"`);
    return saved.docs;
  }
  if (!files.length) throw deps.usage(`${what}: give the documents as files, or --corpus FILE`);
  const docs = await deps.loadFiles(files);
  if (!docs.length) throw deps.usage(`${what}: no file could be loaded`);
  return docs;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function progressLine(p: GenerateProgress, retries: number): string {
  const rejected = Object.values(p.rejected).reduce((a, b) => a + (b ?? 0), 0);
  return `questions ${p.done}/${p.total} · kept ${p.kept} · rejected ${rejected} · ${p.calls + retries} calls · ${seconds(p.elapsedMs)}${p.leftMs !== null && p.done < p.total ? ` · about ${Math.ceil(p.leftMs / 1000)} s left` : ''}`;
}

async function cmdGenerate(values: QuestionValues, files: string[], deps: QuestionDeps): Promise<void> {
  // Every option is checked before any file is read or any request sent.
  if (!values.endpoint) throw deps.usage('questions generate: --endpoint URL is required (an OpenAI-compatible server, e.g. http://localhost:11434)');
  if (!values.model) throw deps.usage('questions generate: --model NAME is required');
  if (!values.out) throw deps.usage('questions generate: --out set.jsonl is required');
  if (existsSync(values.out)) throw deps.usage(`--out ${values.out} exists; choose another name or remove it (a set is never overwritten)`);
  const n = whole(values.n, 'n', 50, 1, deps);
  const seed = whole(values.seed, 'seed', 1, 0, deps);
  const maxTokens = whole(values['passage-tokens'], 'passage-tokens', DEFAULT_PASSAGE_TOKENS, 16, deps);
  const kinds = (values.kinds ?? 'specific').split(',').map((k) => k.trim()).filter(Boolean);
  for (const k of kinds) if (!KINDS.includes(k as QuestionType)) throw deps.usage(`--kinds: unknown "${k}" (choose from ${KINDS.join(', ')})`);
  const thresholds: Partial<Thresholds> = {};
  const fuzzy = share(values['fuzzy-threshold'], 'fuzzy-threshold', deps);
  const duplicate = share(values['duplicate-threshold'], 'duplicate-threshold', deps);
  const copy = share(values['copy-threshold'], 'copy-threshold', deps);
  if (fuzzy !== undefined) thresholds.fuzzy = fuzzy;
  if (duplicate !== undefined) thresholds.duplicate = duplicate;
  if (copy !== undefined) thresholds.copyShare = copy;
  let apiKey: string | undefined;
  if (values['api-key-env']) {
    apiKey = process.env[values['api-key-env']];
    if (!apiKey) throw deps.usage(`--api-key-env ${values['api-key-env']}: that environment variable is not set`);
  }
  const endpoint: EndpointConfig = { baseUrl: values.endpoint, model: values.model, ...(apiKey ? { apiKey } : {}) };
  const docs = await loadDocuments(values, files, 'questions generate', deps);
  const chosen = (values.documents ?? '').split(',').map((d) => d.trim()).filter(Boolean).map((ref) => {
    const d = findDocument(docs, ref);
    if (!d) throw deps.usage(`--documents: no document "${ref}" among ${docs.map((x) => x.meta.fileName).join(', ')}`);
    return d.id;
  });

  // Passages are sized in approximate tokens: generation needs no embedding model.
  const corpus = buildCorpus(docs, new ApproxTokenCounter());
  const plan = planGeneration(corpus, { n, seed, types: kinds as QuestionType[], documents: chosen, maxTokens });
  for (const note of plan.notes) process.stderr.write(`note: ${visible(note)}\n`);
  if (!plan.items.length) throw deps.usage('questions generate: the documents have no passage to ask about');
  const first = plan.items[0]!;
  const sample = buildMessages(DEFAULT_PROMPTS[first.type], { passages: first.passages.map((p) => p.text), title: corpus.docs[first.passages[0]!.doc]!.title, language: corpus.docs[first.passages[0]!.doc]!.language });
  process.stderr.write(
    `plan: ${plan.calls} questions asked from ${plan.passages} passages of ${new Set(plan.items.flatMap((i) => i.passages.map((p) => p.doc))).size} documents (${kinds.join(', ')}, seed ${seed}); ` +
      `${plan.calls} calls, about ${plan.promptTokens} prompt + ${plan.replyTokens} reply tokens, about ${plan.seconds} s at an ${plan.rate} rate\n` +
      `each call: ${describeRequest(endpoint, sample)}\n`,
  );

  const controller = new AbortController();
  const onSigint = () => {
    process.stderr.write('\nstopping: the questions kept so far are written\n');
    controller.abort();
  };
  process.once('SIGINT', onSigint);
  let retries = 0;
  let lastShown = 0;
  const complete: CompleteFn = async (messages, { signal, responseFormat }) => {
    const r = await chatWithRetry(endpoint, messages, {
      ...(signal ? { signal } : {}),
      ...(responseFormat ? { responseFormat } : {}),
      maxTokens: 300,
      onRetry: ({ waitMs, reason }) => {
        retries++;
        process.stderr.write(`retry: ${visible(reason)}${waitMs ? `; waiting ${seconds(waitMs)}` : ''}\n`);
      },
    });
    if (r.stopped) throw new Error('stopped');
    return r.text;
  };
  const result = await generateQuestions({
    corpus,
    items: plan.items,
    complete,
    model: values.model,
    seed,
    thresholds,
    structured: !values['no-structured'],
    signal: controller.signal,
    onProgress: (p) => {
      // A line every tenth of the run (and at its end): short in logs, alive on a terminal.
      if (p.done === p.total || p.done - lastShown >= Math.max(1, Math.ceil(p.total / 10))) {
        lastShown = p.done;
        process.stderr.write(`${progressLine(p, retries)}\n`);
      }
    },
  });
  process.removeListener('SIGINT', onSigint);
  if (result.error) throw deps.usage(`questions generate: ${result.error}`);

  const out = values.out;
  const rejectedPath = rejectedPathOf(out);
  writeFileAtomic(out, exportJsonl({ questions: result.kept }));
  writeFileAtomic(rejectedPath, result.rejected.map((r) => rejectedLine(r, values.model!)).join('\n') + (result.rejected.length ? '\n' : ''));
  const p = result.progress;
  const byReason = REJECT_REASONS.filter((r) => result.run.rejected[r]).map((r) => `${r} ${result.run.rejected[r]}`);
  const hist = copyShareHistogram(result.kept.map((q) => q.copyShare ?? 0));
  console.log(`${result.cancelled ? 'cancelled: ' : ''}kept ${result.kept.length} of ${p.done} asked · rejected ${result.rejected.length}${byReason.length ? `: ${byReason.join(', ')}` : ''}`);
  console.log(`${p.calls + retries} calls (${p.calls} questions asked, ${retries} retries) · ${seconds(p.elapsedMs)}`);
  console.log(`copy share of kept questions (share of their content words found in the passage): ${hist.map((c, i) => `${(i / hist.length).toFixed(1)}–${((i + 1) / hist.length).toFixed(1)}: ${c}`).join(' · ')}`);
  console.log(`wrote ${out} (${result.kept.length} questions) and ${rejectedPath} (${result.rejected.length} rejected, each with its reason)`);
}

async function cmdConvert(values: QuestionValues, rest: string[], deps: QuestionDeps): Promise<void> {
  const [input, ...files] = rest;
  if (!input) throw deps.usage('questions convert: give the question set file first (questions convert set.jsonl … --to FORMAT --out PATH)');
  if (!values.to || !SET_FORMATS.includes(values.to as SetFormat)) throw deps.usage(`questions convert: --to must be one of ${SET_FORMATS.join(', ')}${values.to ? `, got "${values.to}"` : ''}`);
  if (!values.out) throw deps.usage('questions convert: --out PATH is required');
  if (!existsSync(input)) throw deps.usage(`questions convert: ${input}: no such file or folder`);
  const docs = await loadDocuments(values, files, 'questions convert', deps);
  const { set, skipped } = readQuestionSetFile(input, docs, deps);
  for (const line of skipped) process.stderr.write(`skipped: ${visible(line)}\n`);
  const exported = exportSet(values.to as SetFormat, set, docs);
  const written: string[] = [];
  if (exported.files.length === 1) {
    writeFileAtomic(values.out, exported.files[0]!.text);
    written.push(values.out);
  } else {
    // BEIR: a folder of its three files.
    if (existsSync(values.out) && !statSync(values.out).isDirectory()) throw deps.usage(`--out ${values.out}: BEIR is a folder of files, and this is a file`);
    for (const f of exported.files) {
      const path = join(values.out, f.name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileAtomic(path, f.text);
      written.push(path);
    }
  }
  for (const note of exported.notes) process.stderr.write(`note: ${visible(note)}\n`);
  console.log(`${set.questions.length} questions from ${basename(input)} → ${values.to}: ${written.join(', ')}${skipped.length ? ` · ${skipped.length} lines skipped or changed (listed above)` : ''}${exported.notes.length ? ` · ${exported.notes.length} not carried by ${values.to} (listed above)` : ''}`);
}

export async function cmdQuestions(values: QuestionValues, rest: string[], deps: QuestionDeps): Promise<void> {
  const [sub, ...args] = rest;
  if (sub === 'generate') return cmdGenerate(values, args, deps);
  if (sub === 'convert') return cmdConvert(values, args, deps);
  throw deps.usage(`questions: unknown subcommand "${sub ?? ''}" (generate, convert)`);
}

/** Source lines of sets made by loadQuestionsEvalSet, for the table and --json of eval. */
const sourceLines = new WeakMap<EvalSet, string>();

/** "18 marked by you · 42 generated by …" for an EvalSet made from a question set (undefined otherwise). */
export function sourceLineOf(set: EvalSet): string | undefined {
  return sourceLines.get(set);
}

/** eval --questions SET <files…|--corpus F>: the set as an EvalSet (documents included), its source line remembered. */
export async function loadQuestionsEvalSet(values: QuestionValues, files: string[], deps: QuestionDeps): Promise<EvalSet> {
  const path = values.questions!;
  if (values.data) throw deps.usage('eval: give --data or --questions, not both');
  if (!existsSync(path)) throw deps.usage(`--questions ${path}: no such file or folder`);
  const only = values.only as QuestionSourceKind | undefined;
  if (only && !['marked', 'generated', 'imported'].includes(only)) throw deps.usage(`--only must be marked, generated or imported, got "${only}"`);
  const docs = await loadDocuments(values, files, 'eval --questions', deps);
  const { set, skipped } = readQuestionSetFile(path, docs, deps);
  for (const line of skipped) process.stderr.write(`skipped: ${visible(line)}\n`);
  set.runs = runsFromRejected(path, set);
  const { set: evalSet, leftOut } = toEvalSet(set, docs, { name: basename(path), ...(only ? { only } : {}) });
  evalSet.skipped.unshift(...skipped);
  if (!evalSet.questions.length) throw deps.usage(`--questions ${path}: no question can be scored (${evaluateSetSources(set, only, leftOut)})`);
  sourceLines.set(evalSet, evaluateSetSources(set, only, leftOut));
  return evalSet;
}

export { queryJson } from './query-json';
