// Downloads started by a pass but never awaited by it: a file can take two minutes (spec 4.6), which
// must not hold up the account's reading. A finished file's path shows from the next computation on.
// The attachments read from here: a pass asks for a file (this file), the downloader fetches it
// (downloader.ts, reading the portal's answers with answers.ts), and saved.ts places it under
// data_dir/downloads/<child>/, names its /files/... path and serves it from the web server.
import type { Downloader } from './downloader.js';
import type { SavedFile } from './saved.js';
import type { Logger } from '../../util/log.js';
import { errorText } from '../../util/text.js';

/** The downloader for one child id and the files it fetches in the background. */
export interface Downloads {
  downloader: Downloader;
  files: BackgroundFiles;
}

export class BackgroundFiles {
  private readonly saved = new Map<string, string>();
  private readonly running = new Set<string>();
  private readonly failedAt = new Map<string, number>();

  /** `retryAfterMs`: a failed file is tried again after this long. */
  constructor(
    private readonly log: Logger,
    private readonly retryAfterMs = 60 * 60_000,
  ) {}

  /** The saved path of a file, if it is already on disk. */
  pathOf(key: string): string | undefined {
    return this.saved.get(key);
  }

  /** Starts a download unless the file is saved, on its way, or failed recently. */
  request(key: string, now: number, download: () => Promise<SavedFile>, onDone?: () => void): void {
    if (this.saved.has(key) || this.running.has(key)) return;
    const failed = this.failedAt.get(key);
    if (failed !== undefined && now - failed < this.retryAfterMs) return;
    this.running.add(key);
    download().then(
      (file) => {
        this.running.delete(key);
        this.saved.set(key, file.path);
        this.log.info({ file: file.name, size: file.size }, 'file saved');
        onDone?.();
      },
      (error: unknown) => {
        this.running.delete(key);
        this.failedAt.set(key, now);
        this.log.warn({ key, err: errorText(error) }, 'download failed; will try again later');
      },
    );
  }
}
