// The sandbox's single-use-key hand-off (spec 4.6.1-4.6.5): open the key's waiting page, check the key
// every 5-10 s until it is ready, fetch the file once; a key that fails gives way to a fresh one, up to
// three. Keys are secrets of a sort: they never reach a log line or an error message.
import { ConnectionError, UnexpectedResponseError } from './errors.js';
import { isServerTrouble, type HttpClient, type HttpRequest, type HttpResponse } from './http.js';
import { isFile } from './download-pages.js';
import { pollDelay, type DownloadLimits } from './download-limits.js';
import { singleUseKey } from './download-urls.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';

/** One download in progress: what it needs to send requests and to stop at its deadline. */
export interface DownloadCall {
  http: HttpClient;
  account: string;
  clock: Clock;
  log: Logger;
  limits: DownloadLimits;
  /** Aborted when the download's deadline passes. */
  signal: AbortSignal;
  /** The deadline on the clock. */
  until: number;
  /** "homework file 771", for messages. */
  what: string;
  /** Where the file's body goes (given to the request that fetches the file, never to a page or a key check). */
  toFile?: HttpRequest['toFile'];
}

/** Sends one request of a download: never after the deadline, never waiting past it. */
export function send(call: DownloadCall, req: HttpRequest): Promise<HttpResponse> {
  call.signal.throwIfAborted();
  const left = Math.max(1_000, call.until - call.clock.now());
  return call.http.send({ ...req, timeoutMs: Math.min(call.limits.requestTimeoutMs, left), signal: call.signal });
}

/** A 5xx or 429: the service is down or busy, and a fresh key would not help. */
export function serverTrouble(call: DownloadCall, res: HttpResponse): ConnectionError {
  return new ConnectionError(`${call.what}: ${res.status} from the download host`, { account: call.account, url: res.url, status: res.status });
}

type KeyOutcome = { file: HttpResponse } | { failed: string; status: number };

/**
 * Downloads through single-use keys. nextKey asks for a fresh key and resolves to its CSTryToDownload
 * URL, already checked to be on the sandbox host; `first`, when given, is a key already in hand and
 * is tried before asking for another.
 */
export async function downloadWithKeys(call: DownloadCall, nextKey: () => Promise<URL>, first?: URL): Promise<HttpResponse> {
  let last: { failed: string; status: number } = { failed: 'no key', status: 0 };
  for (let attempt = 1; attempt <= call.limits.maxKeys; attempt++) {
    if (attempt > 1) await call.clock.sleep(call.limits.keyRetryDelayMs, call.signal);
    const page = attempt === 1 && first !== undefined ? first : await nextKey();
    const key = singleUseKey(page);
    if (key === undefined) {
      throw new UnexpectedResponseError(200, `${call.what}: the sandbox link carries no single-use key`, {
        account: call.account,
        url: page.toString(),
      });
    }
    const outcome = await tryKey(call, page, key);
    if ('file' in outcome) return outcome.file;
    last = outcome;
    call.log.info({ account: call.account, what: call.what, attempt, reason: outcome.failed }, 'download key failed');
  }
  throw new UnexpectedResponseError(last.status, `${call.what}: ${call.limits.maxKeys} keys failed (last: ${last.failed})`, {
    account: call.account,
  });
}

async function tryKey(call: DownloadCall, page: URL, key: string): Promise<KeyOutcome> {
  const opened = await send(call, { url: page.toString(), headers: { accept: 'text/html' } });
  if (isServerTrouble(opened.status)) throw serverTrouble(call, opened);
  if (opened.status >= 400) return { failed: `the waiting page answered ${opened.status}`, status: opened.status };
  const indexUrl = new URL(page.pathname, page.origin).toString();
  for (let check = 1; check <= call.limits.checksPerKey; check++) {
    const delay = pollDelay(check, call.limits);
    if (delay > 0) await call.clock.sleep(delay, call.signal);
    const res = await send(call, {
      method: 'POST',
      url: indexUrl,
      headers: {
        accept: 'application/json, text/javascript, */*; q=0.01',
        'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
        'x-requested-with': 'XMLHttpRequest',
        referer: page.toString(),
      },
      body: new URLSearchParams({ action: 'CSCheckKey', singleUseKey: key }).toString(),
    });
    const status = keyStatus(res);
    call.log.debug({ account: call.account, what: call.what, check, status: status ?? 'not JSON' }, 'download key checked');
    if (status === 'not_downloaded_yet') continue;
    if (status !== 'ready') return { failed: status ?? `a non-JSON answer (${res.status})`, status: res.status };
    const file = await send(call, {
      url: `${indexUrl}?${new URLSearchParams({ action: 'CSDownload', singleUseKey: key }).toString()}`,
      headers: { referer: page.toString() },
      toFile: call.toFile,
    });
    if (isFile(file)) return { file };
    if (isServerTrouble(file.status)) throw serverTrouble(call, file);
    return { failed: `CSDownload answered ${file.status} without a file`, status: file.status };
  }
  return { failed: `not ready after ${call.limits.checksPerKey} checks`, status: 200 };
}

/** The status a CSCheckKey answer reports, or undefined when it is not such a JSON answer. */
function keyStatus(res: HttpResponse): string | undefined {
  if (res.status < 200 || res.status >= 300) return undefined;
  try {
    const body = JSON.parse(res.body.toString('utf8')) as unknown;
    const status = body && typeof body === 'object' ? (body as { status?: unknown }).status : undefined;
    return typeof status === 'string' ? status : undefined;
  } catch {
    return undefined;
  }
}
