// One account's file downloads (spec 4.6, 4.8): homework files, school files and message attachments,
// each under the 150 s deadline and a process-wide slot, saved under data_dir/downloads/<child>/.
import { unlink } from 'node:fs/promises';
import { UnexpectedResponseError } from './errors.js';
import { isServerTrouble, type FileTarget, type HttpResponse, type ResponseHead } from './http.js';
import { downloadWithKeys, send, serverTrouble, type DownloadCall } from './download-keys.js';
import { DEFAULT_DOWNLOAD_LIMITS, pollDelay, withDeadline, type DownloadLimits, type DownloadSlots } from './download-limits.js';
import { dispositionName, header, isDeadWebSession, isFile, isHtml, pageText, saysNotFound } from './download-pages.js';
import { attachmentGetUrl, onHost, sandboxRedirect, schoolFileUrl, singleUseKey } from './download-urls.js';
import type { PortalSession } from './session.js';
import type { PortalUrls } from '../config/schema.js';
import { DownloadStore, type SavedFile } from '../store/downloads.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';

export type { SavedFile } from '../store/downloads.js';

export interface DownloaderOptions {
  session: PortalSession;
  urls: PortalUrls;
  /** The account's label for logs and errors (never a secret). */
  account: string;
  /** The child's id: files go to data_dir/downloads/<child>/. */
  child: string;
  /** Folders under the child's: files go to data_dir/downloads/<child>/<folder>/... */
  folder?: readonly string[];
  dataDir: string;
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

export class Downloader {
  private readonly options: DownloaderOptions;
  private readonly limits: DownloadLimits;
  private readonly store: DownloadStore;

  constructor(options: DownloaderOptions) {
    this.options = options;
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
    const what = `homework file ${String(fileId)}`;
    const url = `${this.options.urls.base_url}/homework/downloadFile/${id}`;
    return this.run(`homework-${String(fileId)}`, what, suggestedName, `zadanie-${id}`, (call) =>
      downloadWithKeys(call, () => this.portalStep(call, url)),
    );
  }

  /**
   * A school file by its SchoolFiles downloadUrl (a web path such as /pliki_szkoly/pobierz/31). The
   * path must resolve on the portal host; anything else is refused before any request.
   */
  async schoolFile(downloadUrl: string, suggestedName?: string): Promise<SavedFile> {
    const url = schoolFileUrl(downloadUrl, this.options.urls.base_url, this.options.account);
    const what = `school file ${url.pathname}`;
    return this.run(`school-${url.pathname}`, what, suggestedName, 'plik-szkoly', async (call) => {
      const target = await this.portalStep(call, url.toString());
      if (singleUseKey(target) !== undefined) {
        return downloadWithKeys(call, () => this.portalStep(call, url.toString()), target);
      }
      const res = await send(call, { url: target.toString(), toFile: call.toFile });
      if (isFile(res)) return res;
      if (isServerTrouble(res.status)) throw serverTrouble(call, res);
      throw new UnexpectedResponseError(res.status, `${what}: the sandbox answered ${res.status} without a file`, { account: call.account });
    });
  }

  /**
   * A message attachment. getLink asks the messaging API for the attachment's downloadLink (GET
   * /api/attachments/<attachment id>/messages/<message id>, with the messaging session's recovery);
   * it may be called again for a fresh link. The link must be on the configured messages or sandbox
   * host (scheme and host); a sandbox single-use-key link goes through the key hand-off.
   */
  messageAttachment(ref: AttachmentRef, getLink: () => Promise<string>): Promise<SavedFile> {
    const what = `attachment ${String(ref.attachmentId)} of message ${String(ref.messageId)}`;
    const key = `message-${String(ref.messageId)}-${String(ref.attachmentId)}`;
    return this.run(key, what, ref.name, `zalacznik-${String(ref.attachmentId)}`, async (call) => {
      const link = await this.attachmentLink(call, getLink);
      if (singleUseKey(link) !== undefined && onHost(link.toString(), [this.options.urls.sandbox_url])) {
        return downloadWithKeys(call, () => this.attachmentLink(call, getLink), link);
      }
      return this.attachmentFile(call, link);
    });
  }

  /**
   * Slot, deadline, then save: the one path every kind of download takes. The file's body streams
   * into a temporary file under the per-file cap (downloads_max_mb), never into memory; the temporary
   * file is gone afterwards, whether it was saved or the download failed.
   */
  private async run(
    key: string,
    what: string,
    suggestedName: string | undefined,
    fallback: string,
    fetch: (call: DownloadCall) => Promise<HttpResponse>,
  ): Promise<SavedFile> {
    const saved = await this.store.find(key);
    if (saved) return saved;
    const { session, account, clock, log, slots } = this.options;
    // The 150 s count from getting a slot: time spent queueing behind other downloads is not the portal's.
    const release = await slots.acquire();
    // Only a name yet: the file (and its folder) is made once a file answer arrives.
    const temp = this.store.tempPath();
    let res: HttpResponse;
    try {
      const until = clock.now() + this.limits.totalMs;
      const toFile = (head: ResponseHead): FileTarget | undefined => (isFile(head) ? { path: temp, maxBytes: this.limits.maxFileBytes } : undefined);
      res = await withDeadline(clock, this.limits.totalMs, { account, what }, (signal) =>
        fetch({ http: session.http, account, clock, log, limits: this.limits, signal, until, what, toFile }),
      );
    } catch (error) {
      // Not awaited: the failure is told at once (the deadline's time is the portal's, not the disk's).
      void unlink(temp).catch(() => undefined);
      throw error;
    } finally {
      release();
    }
    try {
      if (!res.file) throw new UnexpectedResponseError(res.status, `${what}: the answer carried no file`, { account });
      const name = dispositionName(header(res, 'content-disposition')) ?? suggestedName;
      const file = await this.store.place(temp, res.file.size, name, fallback, key);
      log.info({ what, file: file.name, size: file.size }, 'file downloaded');
      return file;
    } finally {
      await unlink(temp).catch(() => undefined);
    }
  }

  /**
   * The portal's first step, inside the session: a redirect to the sandbox is the answer; the
   * logged-out page counts as a dead session (one login, shared, then one retry).
   */
  private async portalStep(call: DownloadCall, url: string): Promise<URL> {
    const { session, urls } = this.options;
    const res = await session.request(
      () => send(call, { url, headers: { accept: 'text/html,application/xhtml+xml' } }),
      (r) => isDeadWebSession(r, urls),
    );
    if (res.status >= 300 && res.status < 400) return sandboxRedirect(res, urls.sandbox_url, call.account, call.what);
    if (isServerTrouble(res.status)) throw serverTrouble(call, res);
    if (res.status === 200 && isHtml(res) && saysNotFound(pageText(res))) {
      throw new UnexpectedResponseError(200, `${call.what}: the portal says the file does not exist`, {
        account: call.account,
        url,
        code: 'NotFound',
      });
    }
    throw new UnexpectedResponseError(res.status, `${call.what}: the portal answered ${res.status} without a redirect`, {
      account: call.account,
      url,
    });
  }

  private async attachmentLink(call: DownloadCall, getLink: () => Promise<string>): Promise<URL> {
    call.signal.throwIfAborted();
    const raw = await getLink();
    const { messages_url, sandbox_url } = this.options.urls;
    const link = onHost(raw, [messages_url, sandbox_url]);
    if (!link) {
      throw new UnexpectedResponseError(200, `${call.what}: refused a download link outside the messages and sandbox hosts`, {
        account: call.account,
      });
    }
    return link;
  }

  /** <downloadLink> (the waiting page), then <downloadLink>/get with Referer until it is no longer HTML. */
  private async attachmentFile(call: DownloadCall, link: URL): Promise<HttpResponse> {
    const page = await send(call, { url: link.toString(), headers: { accept: 'text/html' } });
    if (isServerTrouble(page.status)) throw serverTrouble(call, page);
    if (page.status >= 400) {
      throw new UnexpectedResponseError(page.status, `${call.what}: the download link answered ${page.status}`, { account: call.account });
    }
    const getUrl = attachmentGetUrl(link).toString();
    for (let attempt = 1; attempt <= this.limits.attachmentTries; attempt++) {
      const delay = pollDelay(attempt, this.limits);
      if (delay > 0) await call.clock.sleep(delay, call.signal);
      const res = await send(call, { url: getUrl, headers: { referer: link.toString() }, toFile: call.toFile });
      if (isFile(res)) return res;
      if (isServerTrouble(res.status)) throw serverTrouble(call, res);
      if (res.status !== 200) {
        throw new UnexpectedResponseError(res.status, `${call.what}: /get answered ${res.status}`, { account: call.account });
      }
    }
    throw new UnexpectedResponseError(200, `${call.what}: still a waiting page after ${this.limits.attachmentTries} tries`, {
      account: call.account,
    });
  }
}
