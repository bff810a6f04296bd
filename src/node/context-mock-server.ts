/**
 * Contextual retrieval's behaviour for the project's OpenAI-compatible fixture
 * (openai-fixture.ts), for the contextual-retrieval tests (Node, CLI, e2e) and the bench. It
 * reads the document and the chunk out of each prompt (Anthropic's <document>/<chunk> tags) and
 * answers
 *   Context: this part of "<the document's first words>" is about <the chunk's three longest words>.
 * (with the "Context:" label the page strips).
 *   model "refuse"   HTTP 401 every time
 *   model "slow"     each reply after 400 ms (to pause and cancel a run)
 *   failFrom: n      requests n, n+1, … get HTTP 500 (a server that goes away mid-run)
 *   npx tsx src/node/context-mock-server.ts   serves on a free port and prints its URL
 */
import { pathToFileURL } from 'node:url';
import { REFUSED_KEY, startOpenAIFixture, type ChatCall, type ChatReply, type OpenAIFixture } from './openai-fixture';

export type ContextMock = OpenAIFixture;

export interface ContextMockOptions {
  failFrom?: number;
  /** Wait before each reply (ms); the model "slow" waits 400 ms. */
  delayMs?: number;
}

/** The reply the mock gives for a document and a chunk, before the page cleans it. */
export function mockContextReply(document: string, chunk: string): string {
  const head = document.replace(/\[…\]/g, '').trim().split(/\s+/).slice(0, 4).join(' ');
  const words = [...new Set(chunk.toLowerCase().match(/\p{L}[\p{L}\p{N}-]*/gu) ?? [])].sort((a, b) => b.length - a.length || (a < b ? -1 : 1)).slice(0, 3);
  return `Context: this part of "${head}" is about ${words.join(', ') || 'nothing in words'}.`;
}

function contextBehaviour(options: ContextMockOptions): (call: ChatCall) => ChatReply {
  return (call) => {
    if (call.model === 'refuse') return REFUSED_KEY;
    if (options.failFrom !== undefined && call.index >= options.failFrom) return { status: 500, error: 'the server is shutting down' };
    const document = /<document>\n([\s\S]*?)\n<\/document>/.exec(call.user)?.[1] ?? '';
    const chunk = /<chunk>\n([\s\S]*?)\n<\/chunk>/.exec(call.user)?.[1] ?? '';
    return { content: mockContextReply(document, chunk), delayMs: options.delayMs ?? (call.model === 'slow' ? 400 : 0) };
  };
}

export function startContextMock(options: ContextMockOptions = {}): Promise<ContextMock> {
  return startOpenAIFixture({ chat: contextBehaviour(options) });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const mock = await startContextMock();
  process.stdout.write(`context mock listening at ${mock.url} (Ctrl-C to stop)\n`);
}
