/**
 * npx tsx scripts/bench/embedding-mock-serve.ts --limit TEXTS_PER_S --dim N
 * The mock embeddings server (src/cli/embedding-mock-server.ts) in its own process, so its
 * vector making and JSON do not share an event loop with the client being measured. Prints
 * one JSON line {"url": …} when listening; runs until killed.
 */
import { parseArgs } from 'node:util';
import { startEmbeddingMockServer } from '../../src/cli/embedding-mock-server';

const { values } = parseArgs({ options: { limit: { type: 'string' }, dim: { type: 'string' } } });
const server = await startEmbeddingMockServer({ dim: Number(values.dim ?? 384), ...(values.limit ? { limitPerSecond: Number(values.limit) } : {}) });
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
