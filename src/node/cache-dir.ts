/** Where the CLI keeps replies when no --cache is given (a light module: the help names it). */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The user's cache folder ($XDG_CACHE_HOME or ~/.cache), rag-lab/replies. */
export function defaultReplyCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'rag-lab', 'replies');
}
