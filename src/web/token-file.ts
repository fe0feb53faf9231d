// The token as a running bridge sees it: `dziennik2mqtt token --rotate` (another process) writes a new
// one into data_dir, and the server must stop taking the old one without a restart. The file's identity
// (inode, size, mtime) is looked at on every request, a stat of a few microseconds, and the file is
// read again only when it changed: a rotation counts from the next request on.
import { readFileSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { TOKEN_FILE, TOKEN_SHAPE } from './token.js';

export class LiveToken {
  private readonly path: string;
  private value: string;
  private seen: string;
  private readonly listeners = new Set<() => void>();

  /** `initial` is the token just loaded from the file (loadOrCreateToken). */
  constructor(dataDir: string, initial: string) {
    this.path = join(dataDir, TOKEN_FILE);
    this.value = initial;
    this.seen = this.identity() ?? '';
  }

  /**
   * The token now. A file that is gone, unreadable or malformed leaves the last good token in force:
   * a half-edited file must not lock the family out, nor open the server.
   */
  current(): string {
    const identity = this.identity();
    if (identity === undefined || identity === this.seen) return this.value;
    this.seen = identity;
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8').trim();
    } catch {
      return this.value;
    }
    if (!TOKEN_SHAPE.test(text) || text === this.value) return this.value;
    this.value = text;
    for (const listener of this.listeners) listener();
    return this.value;
  }

  /** Called after the token changed (open event streams, let in with the old one, are ended). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private identity(): string | undefined {
    let stats: Stats;
    try {
      stats = statSync(this.path);
    } catch {
      return undefined;
    }
    return `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
  }
}
