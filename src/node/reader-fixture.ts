/**
 * An extractive reader for answer-run tests and demos, as a behaviour of the OpenAI-compatible
 * fixture (openai-fixture.ts): it reads the answer prompt's numbered sources and question, and
 * answers with the source sentence that shares the most words with the question, citing its
 * source — or "I cannot answer from the sources." when no sentence shares a word. Deterministic,
 * so a run's scores are the same every time; sentence-wrapped, so exact match is rare and F1
 * partial, as with real models.
 */
import type { ChatCall, ChatReply } from './openai-fixture';

const words = (s: string) => new Set((s.toLowerCase().match(/\p{Script=Han}|[\p{L}\p{N}]{3,}/gu) ?? []).filter((w) => !STOP.has(w)));
const STOP = new Set(['the', 'and', 'which', 'what', 'who', 'whom', 'whose', 'when', 'where', 'why', 'how', 'did', 'does', 'was', 'were', 'are', 'for', 'from', 'with', 'that', 'this', 'its', 'his', 'her', 'their', 'qual', 'que', 'por', 'para', 'com', 'uma', 'dos', 'das']);

/** The sources of an answer prompt: number and text (label line dropped). */
export function promptSources(user: string): { n: number; text: string }[] {
  const body = user.split(/\n\nQuestion: /)[0] ?? '';
  const out: { n: number; text: string }[] = [];
  for (const m of body.matchAll(/^\[(\d+)\] [^\n]*\n([\s\S]*?)(?=\n\n\[\d+\] |$)/gm)) out.push({ n: Number(m[1]), text: m[2]!.trim() });
  return out;
}

export function extractiveReader(call: ChatCall): ChatReply {
  const question = /\n?Question: ([^\n]*)\s*$/.exec(call.user)?.[1] ?? '';
  const q = words(question);
  let best: { score: number; text: string; n: number } | null = null;
  for (const s of promptSources(call.user)) {
    for (const sentence of s.text.split(/(?<=[.!?。！？])\s*/u)) {
      const w = words(sentence);
      let score = 0;
      for (const x of w) if (q.has(x)) score++;
      if (score > 0 && (!best || score > best.score)) best = { score, text: sentence.trim(), n: s.n };
    }
  }
  return { content: best ? `${best.text.replace(/[.。]$/u, '')} [${best.n}].` : 'I cannot answer from the sources.' };
}

/** `npx tsx src/node/reader-fixture.ts [--delay MS]`: serves the reader on a free port and prints its URL (Ctrl-C to stop). */
if (process.argv[1] && import.meta.url === (await import('node:url')).pathToFileURL(process.argv[1]).href) {
  const { startOpenAIFixture } = await import('./openai-fixture');
  const at = process.argv.indexOf('--delay');
  const delayMs = at > 0 ? Number(process.argv[at + 1]) : 0;
  const f = await startOpenAIFixture({ chat: (c) => ({ ...extractiveReader(c), ...(delayMs ? { delayMs } : {}) }) });
  process.stdout.write(`extractive reader listening at ${f.url} (any model name; Ctrl-C to stop)\n`);
}
