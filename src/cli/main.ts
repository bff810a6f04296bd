/**
 * rag-lab: the command line over the same retrieval core as the web app (bin/rag-lab.mjs and
 * `npm run cli` run this file). The commands and their dispatcher: dispatch.ts.
 */
import { main } from './dispatch';

process.exitCode = await main(process.argv.slice(2));
