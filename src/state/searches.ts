/**
 * Searches: every shown column for the current question (an older answer never overwrites a
 * newer one), searched again when what a column depends on arrives, and the document view
 * a block opens.
 */
import type { BlockView, ColumnId, ColumnResult, ColumnSpec, SearchFirst, SearchRequest } from '../worker/protocol';
import type { WorkerClient } from './worker-client';
import { firstColumns } from './columns-in-sight';
import { chosenColumns } from './columns';
import { rewriteFor, useRewrite } from './query-rewrite';
import { labWorker, worker } from './lab-client';
import { columnNoticeText, errorText, rewriteStateText } from './messages';
import { useResults, useView } from './stores';

let searchSeq = 0;
let researchTimer: ReturnType<typeof setTimeout> | null = null;

export function scheduleResearch(ms: number): void {
  if (researchTimer || !useView.getState().view.query.trim()) return;
  researchTimer = setTimeout(() => {
    researchTimer = null;
    void search();
  }, ms);
}

let running: Promise<void> | null = null;
let queued: Promise<void> | null = null;

/**
 * Runs every column for the current question; an older answer never overwrites a newer one.
 * One search is in flight at a time: asked meanwhile (a slider drag asks every frame), one more
 * runs when it answers, with the values of then, so the worker never computes answers that are
 * already stale and the page paints each answer it gets.
 */
export function search(): Promise<void> {
  return ask(true);
}

/** Whether a search waits for the one running (a slider drag): the answer about to come will be replaced at once. */
export function searchWaiting(): boolean {
  return queued !== null;
}

/**
 * `split`: the columns in sight may come first (a new question). A search asked while another
 * runs (a slider drag) comes in one message: two a step cost the drag more than they gained.
 */
function ask(split: boolean): Promise<void> {
  if (!running) {
    running = searchNow(split).finally(() => {
      running = null;
    });
    return running;
  }
  queued ??= running.catch(() => undefined).then(() => {
    queued = null;
    return ask(false);
  });
  return queued;
}

async function searchNow(split: boolean): Promise<void> {
  const { view } = useView.getState();
  const client = labWorker();
  if (!client || !view.query.trim()) {
    // A search that waited for the last one finds the question cleared: nothing runs now, so the page is not searching.
    if (useResults.getState().searching && !queued) useResults.setState({ searching: false });
    return;
  }
  const seq = ++searchSeq;
  useResults.setState({ searching: true });
  try {
    // Only the columns the user chose are searched: fewer columns answer sooner.
    const columns: ColumnSpec[] = chosenColumns(view.retrieval.retriever, view.columns);
    // The query transformation: the generator's rewrite of this question, once written (then search again).
    const asked = view.query.trim();
    const rewrite = rewriteFor(asked, () => {
      if (useView.getState().view.query.trim() === asked) void search();
    });
    // The columns in sight come first, in a message of their own, and are painted while the worker searches the rest.
    const first = split ? firstColumns(columns.map((c) => c.id)) : undefined;
    const held = heldAnswers(client);
    let sent: ColumnResult[] = [];
    const onProgress = (got: SearchFirst) => {
      if (seq !== searchSeq) return;
      sent = received(got, asked, client);
      const ids = new Set(sent.map((c) => c.column.id));
      useResults.setState((s) => ({ columns: [...s.columns.filter((c) => !ids.has(c.column.id)), ...sent], partial: true, error: null }));
    };
    const r = await client.request('search', { query: view.query, params: view.retrieval, columns, ...(rewrite ? { rewrite } : {}), ...(first ? { first } : {}), ...(held ? { held } : {}) }, { onProgress }).promise;
    if (seq !== searchSeq) return;
    const byId = new Map([...sent, ...received(r, asked, client)].map((c) => [c.column.id, c]));
    // Still searching when another search waits for this one.
    useResults.setState({ columns: columns.flatMap((c) => byId.get(c.id) ?? []), partial: false, ms: r.ms, error: null, searching: queued !== null });
  } catch (e) {
    if (seq !== searchSeq) return;
    useResults.setState({ error: errorText(e), partial: false, searching: queued !== null });
  }
}

/**
 * The answers the page shows, as the worker sent them (`raw`) and as shown (worded), by column: a
 * column the worker says answers the same again keeps its shown object, so React leaves it as it
 * is. Only for the worker that sent them (a crashed worker's successor numbers its answers anew).
 */
const shownAnswers = new Map<ColumnId, { raw: ColumnResult; shown: ColumnResult }>();
let shownFrom: WorkerClient | null = null;

function heldAnswers(client: WorkerClient): SearchRequest['held'] {
  if (client !== shownFrom) return undefined;
  const held: SearchRequest['held'] = {};
  for (const [id, { raw }] of shownAnswers) if (raw.answer !== undefined) held[id] = raw.answer;
  return held;
}

/** A message's columns as shown: those sent, worded, and those it names `same` as they were shown (worded again if their notes changed). */
function received(got: SearchFirst, asked: string, client: WorkerClient): ColumnResult[] {
  if (client !== shownFrom) {
    shownAnswers.clear();
    shownFrom = client;
  }
  const out: ColumnResult[] = [];
  for (const id of got.same ?? []) {
    const kept = shownAnswers.get(id);
    // The worker says `same` only for the number the page named, which it holds: missing here is a bug.
    if (!kept) throw new Error(`the worker answered column ${id} as before, but the page holds no answer for it`);
    const [again] = worded([kept.raw], asked);
    // The query-transformation column's note follows the generator's state, which may change while its answer does not.
    const shown = sameStrings(again!.result.notes, kept.shown.result.notes) ? kept.shown : again!;
    shownAnswers.set(id, { raw: kept.raw, shown });
    out.push(shown);
  }
  for (const raw of got.columns) {
    const [shown] = worded([raw], asked);
    shownAnswers.set(raw.column.id, { raw, shown: shown! });
    out.push(shown!);
  }
  return out;
}

/**
 * The worker's notices become notes, first; the query-transformation column says what the
 * generator is doing with the question, in place of the worker's generic notice.
 */
function worded(columns: ColumnResult[], asked: string): ColumnResult[] {
  const f = useRewrite.getState().current;
  const fusionNote = f && f.query === asked && f.state !== 'ready' ? rewriteStateText({ ...f, state: f.state }) : null;
  return columns.map(({ column, result: { notices, ...result }, answer }) => ({
    column,
    ...(answer !== undefined ? { answer } : {}),
    result: { ...result, notes: column.fusion && fusionNote ? [fusionNote] : [...(notices ?? []).map(columnNoticeText), ...result.notes] },
  }));
}

const sameStrings = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Opens a block in the document view (the document's text comes from the worker once). */
export async function openBlock(block: BlockView, column: ColumnSpec): Promise<void> {
  useResults.setState({ selected: { block, column } });
  const current = useResults.getState().document;
  if (current?.id === block.docId) return;
  const doc = await worker().request('getDocument', { docId: block.docId }).promise;
  if (useResults.getState().selected?.block.docId === doc.id) useResults.setState({ document: doc });
}

export function closeDocument(): void {
  useResults.setState({ selected: null });
}

/** A document's whole text, from the worker (for writing its header title and summary). */
export async function getDocumentText(docId: string): Promise<string> {
  const doc = useResults.getState().document;
  if (doc?.id === docId) return doc.text;
  return (await worker().request('getDocument', { docId }).promise).text;
}
