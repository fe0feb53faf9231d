// One account's file downloads (spec 4.6, 4.8): homework files, school files and message attachments,
// each under the 150 s deadline and a process-wide slot, saved under data_dir/downloads/<child>/. A
// homework file (and a school file or an attachment handed to the sandbox) goes through the sandbox's
// single-use keys: open the key's waiting page, check the key every 5-10 s until it is ready, fetch
// the file once; a key that fails gives way to a fresh one, up to three. Keys are secrets of a sort:
// they never reach a log line or an error message.
import { unlink } from 'node:fs/promises';
import { ConnectionError } from '../errors.js';
import { header, isServerTrouble, readJson, type HttpRequest, type HttpResponse } from '../http.js';
import type { PortalSession } from '../session.js';
import { DEFAULT_DOWNLOADS_MAX_MB, type PortalUrls } from '../../config/schema.js';
import { withDeadline, type Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import { attachmentGetUrl, dispositionName, failure, isDeadWebSession, isFile, keyPage, onHost, schoolFileUrl, singleUseKey } from './answers.js';
import { DownloadStore, type DownloadStoreOptions, type SavedFile } from './saved.js';

/** Download policy as data, with the spec's defaults (spec 4.6, 8). */
export const DEFAULT_DOWNLOAD_LIMITS = {
  /** The whole download, keys and logins included (DOWNLOAD_TIMEOUT_SECONDS). */
  totalMs: 150_000,
  /** Single-use keys tried per homework file before giving up. */
  maxKeys: 3,
  /**
   * Delay before the second key check; each later check waits pollStepMs more, up to pollMaxMs: checks 5,
   * 6, ... 10, 10 s apart, so that 15 checks take about two minutes, as the web page waits.
   */
  checkFirstMs: 5_000,
  checkStepMs: 1_000,
  checkMaxMs: 10_000,
  /** Checks of one key before it is dropped for a fresh one (the web page gives up after 15). */
  checksPerKey: 15,
  /** Pause before asking for a fresh key: a key that failed at once works "a moment later". */
  keyRetryDelayMs: 2_000,
  /** Times an attachment's /get may still answer its HTML waiting page. */
  attachmentTries: 15,
  /** Upper bound of one HTTP request inside a download. */
  requestTimeoutMs: 30_000,
  /** Largest file saved (downloads_max_mb): a bigger one is refused as it streams in. */
  maxFileBytes: DEFAULT_DOWNLOADS_MAX_MB * 1024 * 1024,
};
export type DownloadLimits = typeof DEFAULT_DOWNLOAD_LIMITS;

/** How long to wait before check number `check` (1-based) of a key or an attachment link. */
export function checkDelay(check: number, limits: DownloadLimits): number {
  if (check <= 1) return 0;
  return Math.min(limits.checkMaxMs, limits.checkFirstMs + (check - 2) * limits.checkStepMs);
}

/**
 * A FIFO semaphore, at most two downloads at once by default (MAX_CONCURRENT_DOWNLOADS). One instance
 * is made by the composition root and handed to every account's Downloader, so the limit holds for the
 * process, all accounts together, apart from the ordinary request limit. It also knows when no download is
 * at work (rested).
 */
export class DownloadSlots {
  private running = 0;
  private readonly queue: (() => void)[] = [];
  /** Downloads at work (a request in flight, a slot awaited, the disk), not those asleep on the clock. */
  private working = 0;
  private rest: (() => void)[] = [];

  constructor(private readonly max = 2) {}

  /** Downloads holding a slot now. */
  get active(): number {
    return this.running;
  }

  /** Downloads waiting for a slot. */
  get waiting(): number {
    return this.queue.length;
  }

  /**
   * Resolves once no download is at work: each is done or waits on the clock. A pass never waits for its
   * downloads, so what moves a fake clock (a simulated day) waits here too: moved on while a request is in
   * flight, the clock passes the download's 150 s deadline in an instant, and a file that takes a real second
   * fails.
   */
  rested(): Promise<void> {
    return this.working === 0 ? Promise.resolve() : new Promise((resolve) => this.rest.push(resolve));
  }

  /** Runs a download, counted at work but while it sleeps on the clock (asleep). */
  async atWork<T>(download: () => Promise<T>): Promise<T> {
    this.working++;
    try {
      return await download();
    } finally {
      this.leave();
    }
  }

  /** A download's wait on the clock: not at work meanwhile. */
  async asleep(wait: () => Promise<void>): Promise<void> {
    this.leave();
    try {
      await wait();
    } finally {
      this.working++;
    }
  }

  private leave(): void {
    if (--this.working > 0) return;
    const waiting = this.rest;
    this.rest = [];
    for (const resolve of waiting) resolve();
  }

  /** Resolves with a release function once a slot is free. */
  async acquire(): Promise<() => void> {
    if (this.running >= this.max) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      // The slot passes straight to the next waiter, so a newcomer cannot overtake the queue.
      if (next) next();
      else this.running--;
    };
  }
}

/** Where the files go (data_dir/downloads/<child>/<folder>/..., the download store's), and how they are fetched. */
export interface DownloaderOptions extends Pick<DownloadStoreOptions, 'dataDir' | 'child' | 'folder'> {
  session: PortalSession;
  urls: PortalUrls;
  /** The account's label for logs and errors (never a secret). */
  account: string;
  clock: Clock;
  log: Logger;
  /** Shared by every account's Downloader: at most two downloads at once per process. */
  slots: DownloadSlots;
  limits?: DownloadLimits;
}

export interface AttachmentRef {
  messageId: string | number;
  attachmentId: string | number;
  /** The attachment's name from the message, used when the answer names no file. */
  name?: string;
}

/** One download in progress: what its requests need to stop at its deadline and to name it. */
interface DownloadCall {
  account: string;
  /** "homework file 771", for messages. */
  what: string;
  /** Aborted when the download's deadline passes. */
  signal: AbortSignal;
  /** The deadline on the clock. */
  until: number;
  /** Where the file's body goes (given to the request that fetches the file, never to a page or a key check). */
  toFile?: HttpRequest['toFile'];
}

export class Downloader {
  private readonly limits: DownloadLimits;
  private readonly store: DownloadStore;

  constructor(private readonly options: DownloaderOptions) {
    this.limits = options.limits ?? DEFAULT_DOWNLOAD_LIMITS;
    this.store = new DownloadStore({
      dataDir: options.dataDir,
      child: options.child,
      folder: options.folder,
      onBroken: (error) => options.log.warn({ err: error.message }, 'downloads index unreadable; files are fetched again when needed'),
    });
  }

  /** The same downloader saving into a folder under the child's (a message's attachments). */
  inFolder(folder: readonly string[]): Downloader {
    return new Downloader({ ...this.options, folder });
  }

  /**
   * A homework file (HomeworkAssigmentFiles[].Id): {base_url}/homework/downloadFile/<id>, then the
   * sandbox keys. A file saved before (and still there) is returned without asking the portal.
   */
  homeworkFile(fileId: string | number, suggestedName?: string): Promise<SavedFile> {
    const id = encodeURIComponent(String(fileId));
    const url = `${this.options.urls.base_url}/homework/downloadFile/${id}`;
    return this.save(`homework-${String(fileId)}`, `homework file ${String(fileId)}`, suggestedName, `zadanie-${id}`, (call) =>
      this.withKeys(call, () => this.portalStep(call, url)),
    );
  }

  /**
   * A school file by its SchoolFiles downloadUrl (a web path such as /pliki_szkoly/pobierz/31). The
   * path must resolve on the portal host; anything else is refused before any request.
   */
  async schoolFile(downloadUrl: string, suggestedName?: string): Promise<SavedFile> {
    const { href: url, pathname } = schoolFileUrl(downloadUrl, this.options.urls.base_url, this.options.account);
    return this.save(`school-${pathname}`, `school file ${pathname}`, suggestedName, 'plik-szkoly', async (call) => {
      const target = await this.portalStep(call, url);
      if (singleUseKey(target) !== undefined) return this.withKeys(call, () => this.portalStep(call, url), target);
      const res = await this.send(call, { url: target.toString(), toFile: call.toFile });
      if (isFile(res)) return res;
      throw failure(call, res.status, `the sandbox answered ${res.status} without a file`);
    });
  }

  /**
   * A message attachment. getLink asks the messaging API for the attachment's downloadLink (GET
   * /api/attachments/<attachment id>/messages/<message id>, with the messaging session's recovery);
   * it may be called again for a fresh link. The link must be on the configured messages or sandbox
   * host (scheme and host); a sandbox single-use-key link goes through the key hand-off, any other
   * is <downloadLink> (the waiting page), then <downloadLink>/get with Referer until it is no longer HTML.
   */
  messageAttachment(ref: AttachmentRef, getLink: () => Promise<string>): Promise<SavedFile> {
    const what = `attachment ${String(ref.attachmentId)} of message ${String(ref.messageId)}`;
    const key = `message-${String(ref.messageId)}-${String(ref.attachmentId)}`;
    return this.save(key, what, ref.name, `zalacznik-${String(ref.attachmentId)}`, async (call) => {
      const nextLink = async (): Promise<URL> => {
        call.signal.throwIfAborted();
        const { messages_url, sandbox_url } = this.options.urls;
        const link = onHost(await getLink(), [messages_url, sandbox_url]);
        if (link) return link;
        throw failure(call, 200, 'refused a download link outside the messages and sandbox hosts');
      };
      const link = await nextLink();
      if (singleUseKey(link) !== undefined && onHost(link.toString(), [this.options.urls.sandbox_url])) {
        return this.withKeys(call, nextLink, link);
      }
      const page = await this.send(call, { url: link.toString(), headers: { accept: 'text/html' } });
      if (page.status >= 400) throw failure(call, page.status, `the download link answered ${page.status}`);
      const getUrl = attachmentGetUrl(link).toString();
      for (let attempt = 1; attempt <= this.limits.attachmentTries; attempt++) {
        await this.pause(call, checkDelay(attempt, this.limits));
        const res = await this.send(call, { url: getUrl, headers: { referer: link.toString() }, toFile: call.toFile });
        if (isFile(res)) return res;
        if (res.status !== 200) throw failure(call, res.status, `/get answered ${res.status}`);
      }
      throw failure(call, 200, `still a waiting page after ${this.limits.attachmentTries} tries`);
    });
  }

  /**
   * Slot, deadline, then save. The file's body streams into a temporary file under the per-file cap
   * (downloads_max_mb), never into memory; the temporary file is gone afterwards, whether it was saved or
   * the download failed. Every kind of download takes this path, counted at work from its start to its end
   * (DownloadSlots.rested).
   */
  private save(
    key: string,
    what: string,
    suggestedName: string | undefined,
    fallback: string,
    fetch: (call: DownloadCall) => Promise<HttpResponse>,
  ): Promise<SavedFile> {
    return this.options.slots.atWork(async () => {
      const saved = await this.store.find(key);
      if (saved) return saved;
      const { account, clock, log, slots } = this.options;
      // The 150 s count from getting a slot: time spent queueing behind other downloads is not the portal's.
      const release = await slots.acquire();
      // Only a name yet: the file (and its folder) is made once a file answer arrives.
      const temp = this.store.tempPath();
      let res: HttpResponse;
      try {
        const until = clock.now() + this.limits.totalMs;
        const toFile: HttpRequest['toFile'] = (head) => (isFile(head) ? { path: temp, maxBytes: this.limits.maxFileBytes } : undefined);
        const late = () => new ConnectionError(`${what}: gave up after ${Math.round(this.limits.totalMs / 1000)} s`, { account });
        res = await withDeadline(clock, this.limits.totalMs, late, (signal) => fetch({ account, what, signal, until, toFile }));
      } catch (error) {
        // Not awaited: the failure is told at once (the deadline's time is the portal's, not the disk's).
        void unlink(temp).catch(() => undefined);
        throw error;
      } finally {
        release();
      }
      try {
        if (!res.file) throw failure({ account, what }, res.status, 'the answer carried no file');
        const name = dispositionName(header(res, 'content-disposition')) ?? suggestedName;
        const file = await this.store.place(temp, res.file.size, name, fallback, key);
        log.info({ what, file: file.name, size: file.size }, 'file downloaded');
        return file;
      } finally {
        await unlink(temp).catch(() => undefined);
      }
    });
  }

  /**
   * Sends one request of a download: never after the deadline, never waiting past it. A 5xx or 429
   * (the service is down or busy, and a fresh key would not help) is a ConnectionError, unless
   * `keyCheck` (a key check's failure gives way to a fresh key).
   */
  private async send(call: DownloadCall, req: HttpRequest, keyCheck = false): Promise<HttpResponse> {
    call.signal.throwIfAborted();
    const left = Math.max(1_000, call.until - this.options.clock.now());
    const res = await this.options.session.http.send({ ...req, timeoutMs: Math.min(this.limits.requestTimeoutMs, left), signal: call.signal });
    if (keyCheck || !isServerTrouble(res.status)) return res;
    throw new ConnectionError(`${call.what}: ${res.status} from the download host`, { account: call.account, url: res.url, status: res.status });
  }

  /** A wait on the clock: the download is not at work meanwhile (DownloadSlots.rested). */
  private async pause(call: DownloadCall, ms: number): Promise<void> {
    if (ms <= 0) return;
    const { clock, slots } = this.options;
    await slots.asleep(() => clock.sleep(ms, call.signal));
  }

  /**
   * The portal's first step, inside the session: a redirect to the sandbox is the answer; the
   * logged-out page counts as a dead session (one login, shared, then one retry).
   */
  private async portalStep(call: DownloadCall, url: string): Promise<URL> {
    const { session, urls } = this.options;
    const res = await session.request(
      () => this.send(call, { url, headers: { accept: 'text/html,application/xhtml+xml' } }),
      (r) => isDeadWebSession(r, urls),
    );
    return keyPage(res, urls.sandbox_url, call);
  }

  /**
   * Downloads through single-use keys. nextKey asks for a fresh key and resolves to its CSTryToDownload
   * URL, already checked to be on the sandbox host; `first`, when given, is a key already in hand and
   * is tried before asking for another.
   */
  private async withKeys(call: DownloadCall, nextKey: () => Promise<URL>, first?: URL): Promise<HttpResponse> {
    let last = { failed: 'no key', status: 0 };
    for (let attempt = 1; attempt <= this.limits.maxKeys; attempt++) {
      await this.pause(call, attempt > 1 ? this.limits.keyRetryDelayMs : 0);
      const page = attempt === 1 && first !== undefined ? first : await nextKey();
      const key = singleUseKey(page);
      if (key === undefined) throw failure(call, 200, 'the sandbox link carries no single-use key', { url: page.toString() });
      const outcome = await this.tryKey(call, page, key);
      if ('file' in outcome) return outcome.file;
      last = outcome;
      this.options.log.info({ account: call.account, what: call.what, attempt, reason: outcome.failed }, 'download key failed');
    }
    throw failure(call, last.status, `${this.limits.maxKeys} keys failed (last: ${last.failed})`);
  }

  private async tryKey(call: DownloadCall, page: URL, key: string): Promise<{ file: HttpResponse } | { failed: string; status: number }> {
    const opened = await this.send(call, { url: page.toString(), headers: { accept: 'text/html' } });
    if (opened.status >= 400) return { failed: `the waiting page answered ${opened.status}`, status: opened.status };
    const indexUrl = new URL(page.pathname, page.origin).toString();
    for (let check = 1; check <= this.limits.checksPerKey; check++) {
      await this.pause(call, checkDelay(check, this.limits));
      const headers = {
        accept: 'application/json, text/javascript, */*; q=0.01',
        'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
        'x-requested-with': 'XMLHttpRequest',
        referer: page.toString(),
      };
      const body = new URLSearchParams({ action: 'CSCheckKey', singleUseKey: key }).toString();
      const res = await this.send(call, { method: 'POST', url: indexUrl, headers, body }, true);
      const status = keyStatus(res);
      this.options.log.debug({ account: call.account, what: call.what, check, status: status ?? 'not JSON' }, 'download key checked');
      if (status === 'not_downloaded_yet') continue;
      if (status !== 'ready') return { failed: status ?? `a non-JSON answer (${res.status})`, status: res.status };
      const file = await this.send(call, {
        url: `${indexUrl}?${new URLSearchParams({ action: 'CSDownload', singleUseKey: key }).toString()}`,
        headers: { referer: page.toString() },
        toFile: call.toFile,
      });
      if (isFile(file)) return { file };
      return { failed: `CSDownload answered ${file.status} without a file`, status: file.status };
    }
    return { failed: `not ready after ${this.limits.checksPerKey} checks`, status: 200 };
  }
}

/** The status a CSCheckKey answer reports, or undefined when it is not such a JSON answer. */
function keyStatus(res: HttpResponse): string | undefined {
  if (res.status < 200 || res.status >= 300) return undefined;
  const status = (readJson(res) as { status?: unknown } | null | undefined)?.status;
  return typeof status === 'string' ? status : undefined;
}
