/**
 * A small OpenAI-compatible server on 127.0.0.1 that writes situating contexts, for the
 * contextual-retrieval tests (Node, CLI, e2e) and the bench. It reads the document and the chunk
 * out of each prompt (Anthropic's <document>/<chunk> tags) and answers
 *   Context: this part of "<the document's first words>" is about <the chunk's three longest words>.
 * (with the "Context:" label the page strips), streamed as SSE when asked, else one JSON
 * completion. CORS is open, as Ollama's with OLLAMA_ORIGINS set. It records every request and,
 * per request, how many characters of its prompt repeat the previous request's (what an
 * endpoint with prompt caching would not read again).
 *   model "refuse"   HTTP 401 every time
 *   model "slow"     each reply after 400 ms (to pause and cancel a run)
 *   failFrom: n      requests n, n+1, … get HTTP 500 (a server that goes away mid-run)
 *   npx tsx src/node/context-mock-server.ts   serves on a free port and prints its URL
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import { listenLocally } from './listen-locally';

export interface ContextMock {
  url: string;
  requests: { body: Record<string, unknown>; status: number; sharedPrefixChars: number }[];
  close(): Promise<void>;
}

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

const cors = (res: ServerResponse) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Headers', 'authorization, content-type');
  res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
};

const json = (res: ServerResponse, status: number, obj: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(obj));
};

function sharedPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

export async function startContextMock(options: ContextMockOptions = {}): Promise<ContextMock> {
  const requests: ContextMock['requests'] = [];
  let previous = '';
  const server: Server = createServer(async (req, res) => {
    cors(res);
    if (req.method === 'OPTIONS') {
      res.writeHead(204);
      return res.end();
    }
    const parts: Buffer[] = [];
    for await (const p of req) parts.push(p as Buffer);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(parts).toString('utf8'));
    } catch {
      requests.push({ body: {}, status: 400, sharedPrefixChars: 0 });
      return json(res, 400, { error: { message: 'the body is not JSON' } });
    }
    const messages = (body.messages ?? []) as { role: string; content: string }[];
    const user = messages.find((m) => m.role === 'user')?.content ?? '';
    const shared = sharedPrefix(previous, user);
    previous = user;
    const index = requests.length;
    const record = (status: number) => requests.push({ body, status, sharedPrefixChars: shared });
    if (body.model === 'refuse') {
      record(401);
      return json(res, 401, { error: { message: 'invalid api key' } });
    }
    if (options.failFrom !== undefined && index >= options.failFrom) {
      record(500);
      return json(res, 500, { error: { message: 'the server is shutting down' } });
    }
    const wait = options.delayMs ?? (body.model === 'slow' ? 400 : 0);
    if (wait) await new Promise((r) => setTimeout(r, wait));
    const document = /<document>\n([\s\S]*?)\n<\/document>/.exec(user)?.[1] ?? '';
    const chunk = /<chunk>\n([\s\S]*?)\n<\/chunk>/.exec(user)?.[1] ?? '';
    const content = mockContextReply(document, chunk);
    record(200);
    if (body.stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const half = Math.floor(content.length / 2);
      for (const piece of [content.slice(0, half), content.slice(half)]) res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`);
      return res.end('data: [DONE]\n\n');
    }
    return json(res, 200, { id: 'c', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });
  });
  return { ...(await listenLocally(server)), requests };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const mock = await startContextMock();
  process.stdout.write(`context mock listening at ${mock.url} (Ctrl-C to stop)\n`);
}
