/**
 * The CLI's reply cache (core/answers/reply-cache.ts) in a folder: one small JSON file per reply,
 * named by its key (two-character subfolders keep folders small), written whole or not at all.
 * A file that cannot be read or is not a reply is ignored and named in `damaged`; its request
 * is sent again and the file replaced.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCachedReply, type CachedReply, type ReplyCache } from '../core/answers/reply-cache';
import { writeFileAtomic } from './atomic-write';

export { defaultReplyCacheDir } from './cache-dir';

export class FolderReplyCache implements ReplyCache {
  readonly damaged: string[] = [];

  constructor(readonly dir: string) {}

  private path(key: string): string {
    if (!/^[0-9a-f]{64}$/.test(key)) throw new Error(`not a reply key: ${key}`);
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  get(key: string): Promise<CachedReply | undefined> {
    const path = this.path(key);
    if (!existsSync(path)) return Promise.resolve(undefined);
    let reply: CachedReply | null = null;
    try {
      reply = readCachedReply(JSON.parse(readFileSync(path, 'utf8')));
    } catch {
      reply = null;
    }
    if (!reply) {
      const note = `${path} could not be read as a cached reply; it was ignored and its request sent again`;
      if (!this.damaged.includes(note)) this.damaged.push(note);
      return Promise.resolve(undefined);
    }
    return Promise.resolve(reply);
  }

  put(key: string, reply: CachedReply): Promise<void> {
    const path = this.path(key);
    mkdirSync(join(this.dir, key.slice(0, 2)), { recursive: true });
    writeFileAtomic(path, JSON.stringify(reply));
    return Promise.resolve();
  }
}
