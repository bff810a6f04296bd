/**
 * A small OpenAI-compatible server on 127.0.0.1 for question generation tests and the CLI's
 * measured run: it reads the passage out of each prompt and answers from a fixed cycle of ten
 * behaviours, so the kept and rejected counts of a run are known in advance:
 *   0 good JSON            1 JSON in prose and a code fence (streamed as SSE)
 *   2 not JSON             3 an array of one with a trailing comma
 *   4 "unknown"            5 an answer that is not in the passage
 *   6 a duplicate of item 0 of its cycle (answer from its own passage)
 *   7 a question copying the passage's words
 *   8 good JSON, after an HTTP 429 with Retry-After (first cycle) or a 503 (second cycle)
 *   9 refused: HTTP 400, or 401 in the third cycle
 * The model "refuse" gets HTTP 401 every time. A retried request (the same body again) keeps
 * its item's place in the cycle. Kept questions
 * use made-up words and one word of their answer, so they neither copy the passage nor
 * resemble each other.
 *   npx tsx src/cli/questions-mock-server.ts   serves on a free port and prints its URL
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import { listenLocally } from '../node/listen-locally';
import { mulberry32 } from '../core/util/random';

export interface QuestionMock {
  url: string;
  /** Every request body as received, in order. */
  requests: { body: Record<string, unknown>; status: number }[];
  close(): Promise<void>;
}

export interface QuestionMockOptions {
  /** The Retry-After value of the 429 (default "1": seconds). */
  retryAfter?: string;
}

/** Kept per cycle of ten items: behaviours 0, 1, 3 and 8. */
export const MOCK_KEPT_PER_CYCLE = 4;

const SYLLABLES = ['ka', 'lo', 'mi', 'ru', 'ten', 'vo', 'zel', 'bri', 'dan', 'pho', 'gri', 'sut', 'nef', 'yar', 'quo', 'jib'];

/**
 * A question of made-up words plus one word of its answer: it copies little of the passage,
 * resembles no other item's question, and still lets retrieval find its passage.
 */
function inventedQuestion(item: number, answer: string): string {
  const rand = mulberry32(item + 1);
  const word = () => Array.from({ length: 3 }, () => SYLLABLES[Math.floor(rand() * SYLLABLES.length)]).join('') + item;
  const clue = answer.split(' ').filter((w) => /\p{L}{3,}/u.test(w)).pop()?.replace(/[^\p{L}\p{N}-]/gu, '') ?? '';
  return `Which ${word()} ${word()} concerns ${clue}?`;
}

function passageOf(body: Record<string, unknown>): string {
  const messages = (body.messages ?? []) as { role: string; content: string }[];
  const user = messages.find((m) => m.role === 'user')?.content ?? '';
  return /"""\n([\s\S]*?)\n"""/.exec(user)?.[1] ?? '';
}

/** A short verbatim quote: three words from the middle of the passage's longest line. */
function quote(passage: string): string {
  const line = passage.split('\n').sort((a, b) => b.length - a.length)[0] ?? '';
  const words = line.split(' ').filter(Boolean);
  const from = Math.max(0, Math.floor(words.length / 2) - 1);
  return words.slice(from, from + 3).join(' ');
}

const json = (res: ServerResponse, status: number, obj: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(obj));
};
const completion = (res: ServerResponse, content: string) => json(res, 200, { id: 'q', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });
const sse = (res: ServerResponse, content: string) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const half = Math.floor(content.length / 2);
  for (const piece of [content.slice(0, half), content.slice(half)]) res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`);
  res.end('data: [DONE]\n\n');
};

export async function startQuestionMock(options: QuestionMockOptions = {}): Promise<QuestionMock> {
  const requests: QuestionMock['requests'] = [];
  const itemOf = new Map<string, number>();
  const refusedOnce = new Set<number>();
  const questions = new Map<number, string>();
  const server: Server = createServer(async (req, res) => {
    const parts: Buffer[] = [];
    for await (const p of req) parts.push(p as Buffer);
    const raw = Buffer.concat(parts).toString('utf8');
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw);
    } catch {
      requests.push({ body: {}, status: 400 });
      return json(res, 400, { error: { message: 'the body is not JSON' } });
    }
    if (body.model === 'refuse') {
      requests.push({ body, status: 401 });
      return json(res, 401, { error: { message: 'invalid api key' } });
    }
    if (!itemOf.has(raw)) itemOf.set(raw, itemOf.size);
    const item = itemOf.get(raw)!;
    const cycle = Math.floor(item / 10);
    const kind = item % 10;
    const passage = passageOf(body);
    const answer = quote(passage);
    const reply = (status: number, send: () => void) => {
      requests.push({ body, status });
      send();
    };
    const good = (q: string) => JSON.stringify({ question: q, answer });
    switch (kind) {
      case 0: {
        const q = inventedQuestion(item, answer);
        questions.set(cycle, q);
        return reply(200, () => completion(res, good(q)));
      }
      case 1:
        return reply(200, () => sse(res, `Here is a question about the passage:\n\`\`\`json\n${good(inventedQuestion(item, answer))}\n\`\`\`\nI hope it helps.`));
      case 2:
        return reply(200, () => completion(res, 'Sure. The passage is about many things, and a good question would be about them.'));
      case 3:
        return reply(200, () => completion(res, `[{"question": "${inventedQuestion(item, answer)}", "answer": "${answer}",}]`));
      case 4:
        return reply(200, () => completion(res, '{"question": "", "answer": "unknown"}'));
      case 5:
        return reply(200, () => completion(res, JSON.stringify({ question: inventedQuestion(item, answer), answer: 'purple elephants dancing at midnight' })));
      case 6:
        return reply(200, () => completion(res, good(questions.get(cycle) ?? inventedQuestion(item, answer))));
      case 7: {
        const copied = passage.replace(/\s+/g, ' ').split(/(?<=[.!?])\s/)[0]!.replace(/[.!?]$/, '');
        return reply(200, () => completion(res, good(`Is it true that ${copied}?`)));
      }
      case 8:
        if ((cycle === 0 || cycle === 1) && !refusedOnce.has(item)) {
          refusedOnce.add(item);
          if (cycle === 0) return reply(429, () => json(res, 429, { error: { message: 'rate limit reached' } }, { 'retry-after': options.retryAfter ?? '1' }));
          return reply(503, () => json(res, 503, { error: { message: 'model is loading' } }));
        }
        return reply(200, () => completion(res, good(inventedQuestion(item, answer))));
      default:
        if (cycle === 2) return reply(401, () => json(res, 401, { error: { message: 'invalid api key' } }));
        return reply(400, () => json(res, 400, { error: { message: 'the request was refused' } }));
    }
  });
  return { ...(await listenLocally(server)), requests };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const mock = await startQuestionMock();
  process.stdout.write(`question mock listening at ${mock.url} (Ctrl-C to stop)\n`);
}
