/**
 * Question generation's behaviour for the project's OpenAI-compatible fixture
 * (node/openai-fixture.ts), for its tests and the CLI's measured run: it reads the passage out of
 * each prompt and answers from a fixed cycle of ten behaviours, so the kept and rejected counts
 * of a run are known in advance:
 *   0 good JSON            1 JSON in prose and a code fence (streamed as SSE)
 *   2 not JSON             3 an array of one with a trailing comma
 *   4 "unknown"            5 an answer that is not in the passage
 *   6 a duplicate of item 0 of its cycle (answer from its own passage)
 *   7 a question copying the passage's words
 *   8 good JSON, after an HTTP 429 with Retry-After (first cycle) or a 503 (second cycle)
 *   9 refused: HTTP 400, or 401 in the third cycle
 * Replies other than item 1 are whole JSON completions, though the client asks for a stream.
 * The model "refuse" gets HTTP 401 every time. A retried request (the same body again) keeps
 * its item's place in the cycle. Kept questions
 * use made-up words and one word of their answer, so they neither copy the passage nor
 * resemble each other.
 *   npx tsx src/cli/questions-mock-server.ts   serves on a free port and prints its URL
 */
import { pathToFileURL } from 'node:url';
import { failingFirst, REFUSED_KEY, startOpenAIFixture, type ChatCall, type ChatReply, type OpenAIFixture } from '../node/openai-fixture';
import { mulberry32 } from '../core/util/random';

export type QuestionMock = OpenAIFixture;

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

function passageOf(call: ChatCall): string {
  const user = call.messages.find((m) => m.role === 'user')?.content ?? '';
  return /"""\n([\s\S]*?)\n"""/.exec(user)?.[1] ?? '';
}

/** A short verbatim quote: three words from the middle of the passage's longest line. */
function quote(passage: string): string {
  const line = passage.split('\n').sort((a, b) => b.length - a.length)[0] ?? '';
  const words = line.split(' ').filter(Boolean);
  const from = Math.max(0, Math.floor(words.length / 2) - 1);
  return words.slice(from, from + 3).join(' ');
}

export async function startQuestionMock(options: QuestionMockOptions = {}): Promise<QuestionMock> {
  const items = new Map<string, number>();
  /** A request's place in the cycle: the same body again (a retry) keeps it. */
  const itemOf = (call: ChatCall) => {
    if (!items.has(call.raw)) items.set(call.raw, items.size);
    return items.get(call.raw)!;
  };
  const questions = new Map<number, string>();
  const json = (content: string): ChatReply => ({ content, form: 'json' });
  const reply = (call: ChatCall): ChatReply => {
    const item = itemOf(call);
    const cycle = Math.floor(item / 10);
    const passage = passageOf(call);
    const answer = quote(passage);
    const good = (q: string) => JSON.stringify({ question: q, answer });
    switch (item % 10) {
      case 0: {
        const q = inventedQuestion(item, answer);
        questions.set(cycle, q);
        return json(good(q));
      }
      case 1:
        return { content: `Here is a question about the passage:\n\`\`\`json\n${good(inventedQuestion(item, answer))}\n\`\`\`\nI hope it helps.`, form: 'sse' };
      case 2:
        return json('Sure. The passage is about many things, and a good question would be about them.');
      case 3:
        return json(`[{"question": "${inventedQuestion(item, answer)}", "answer": "${answer}",}]`);
      case 4:
        return json('{"question": "", "answer": "unknown"}');
      case 5:
        return json(JSON.stringify({ question: inventedQuestion(item, answer), answer: 'purple elephants dancing at midnight' }));
      case 6:
        return json(good(questions.get(cycle) ?? inventedQuestion(item, answer)));
      case 7: {
        const copied = passage.replace(/\s+/g, ' ').split(/(?<=[.!?])\s/)[0]!.replace(/[.!?]$/, '');
        return json(good(`Is it true that ${copied}?`));
      }
      case 8:
        return json(good(inventedQuestion(item, answer)));
      default:
        return cycle === 2 ? REFUSED_KEY : { status: 400, error: 'the request was refused' };
    }
  };
  /** Item 8 of the first two cycles is refused once: a 429 with Retry-After, then a 503. */
  const fault = (call: ChatCall) => {
    const item = itemOf(call);
    if (item % 10 !== 8 || item >= 20) return null;
    return item < 10 ? { status: 429, error: 'rate limit reached', headers: { 'Retry-After': options.retryAfter ?? '1' } } : { status: 503, error: 'model is loading' };
  };
  const behaviour = failingFirst(reply, fault);
  return startOpenAIFixture({ chat: (call) => (call.model === 'refuse' ? REFUSED_KEY : behaviour(call)) });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const mock = await startQuestionMock();
  process.stdout.write(`question mock listening at ${mock.url} (Ctrl-C to stop)\n`);
}
