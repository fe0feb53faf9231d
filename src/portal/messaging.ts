// The messaging session (spec 5.4) inside the account's main session: the /wiadomosci3 bootstrap
// (shared by concurrent calls, redone after every password login), the "no messages module" answer
// with its recheck schedule, the recovery ladder with its 10-minute window around every call, what an
// answer stands for (spec 5.4.5), and the learned lifetime of a messaging session.
import { MessageSendError, SessionExpiredError, UnexpectedResponseError } from './errors.js';
import { isLoginRedirect, isServerTrouble, pathOf, readJson, safeOrigin, serverError, type HttpResponse, type JsonAnswer } from './http.js';
import {
  DEFAULT_MESSAGING_POLICY,
  MessagesUnavailableError,
  absentRecheckAt,
  saysNoAccess,
  statusAction,
  type MessagingPolicy,
} from './messaging-policy.js';
import type { PortalSession } from './session.js';
import { maskedMessagingPath, observed, type PortalObserver } from './observer.js';
import { errorText } from '../util/text.js';
import type { PortalUrls } from '../config/schema.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';

export interface MessagingClientOptions {
  session: PortalSession;
  urls: PortalUrls;
  /** A label for logs and errors (the account's id or login); never a secret. */
  account: string;
  clock: Clock;
  log: Logger;
  policy?: MessagingPolicy;
  /** Per-request timeout of messaging calls; default: the session's. */
  timeoutMs?: number;
  /** Called for every request sent to the messaging host (for counting). */
  onRequest?: (method: string, path: string) => void;
  /** Told of every bootstrap (the diagnostics' figures). */
  observer?: PortalObserver;
}

type Outcome = 'ok' | 'absent';

export class MessagingClient {
  private readonly policy: MessagingPolicy;
  private booted = false;
  private booting: Promise<Outcome> | undefined;
  /** Counts bootstraps, so that callers rejected by the same messaging session share one new one. */
  private bootGeneration = 0;
  private absent: { streak: number; checkAt: number } | undefined;
  private failure: { error: Error; until: number } | undefined;
  private relogging: Promise<void> | undefined;
  private attached = false;
  private known: boolean | undefined;
  /** When the messaging session in use was bootstrapped. */
  private bootedAt = 0;
  /** The age at which messaging sessions are seen to die: one that old is renewed before the call. */
  private readonly lifetime: LearnedLifetime;
  /** accessToAttachments of /api/me, kept for the messaging session that answered it (see MessagesApi.me). */
  private attachments: { allowed: boolean; generation: number } | undefined;

  constructor(private readonly options: MessagingClientOptions) {
    this.policy = options.policy ?? DEFAULT_MESSAGING_POLICY;
    this.lifetime = new LearnedLifetime(this.policy);
  }

  /** Whether the school has the messages module: undefined until a bootstrap has answered. */
  get available(): boolean | undefined {
    return this.known;
  }

  /** Whether this messaging session may fetch attachments: undefined until its /api/me has answered. */
  get attachmentsAllowed(): boolean | undefined {
    return this.attachments?.generation === this.bootGeneration ? this.attachments.allowed : undefined;
  }

  /** Keeps /api/me's accessToAttachments for the messaging session in use. */
  set attachmentsAllowed(allowed: boolean) {
    this.attachments = { allowed, generation: this.bootGeneration };
  }

  /** GET a messaging API path (e.g. /api/me) as JSON, with the whole recovery ladder. */
  async get(path: string, query?: Record<string, string>): Promise<unknown> {
    this.prepare();
    const url = this.url(path, query);
    await this.ensureBooted();
    const generation = this.bootGeneration;
    const logins = this.options.session.logins;
    const sentAt = this.options.clock.now();
    const first = await this.send('GET', url);
    if (statusAction(first.status) !== 'recover') return this.read(first, path);
    // A rejection at this age: an age this session type is known to reach dead.
    const age = sentAt - this.bootedAt;
    if (generation === this.bootGeneration && this.lifetime.rejectedAt(age)) {
      this.options.log.debug({ minutes: Math.round(age / 60_000) }, 'messaging session died at this age; renewing the next one before it');
    }

    // Step 1: a new bootstrap (shared with every call the same session rejected) and one retry.
    this.options.log.debug({ path, status: first.status }, 'messaging call rejected; bootstrapping again');
    if ((await this.rebootstrap(generation)) === 'ok') {
      const second = await this.send('GET', url);
      if (statusAction(second.status) !== 'recover') return this.read(second, path);
      if (first.status !== 401 || second.status !== 401) throw this.rejected(second, path);
    } else if (first.status !== 401) {
      throw this.unavailable();
    }

    // Step 2, only after a 401: a password login, a bootstrap and one last try.
    try {
      await this.relogin(logins);
      if ((await this.bootstrap()) === 'absent') throw this.unavailable();
      const third = await this.send('GET', url);
      if (statusAction(third.status) !== 'recover') return this.read(third, path);
      throw this.rejected(third, path);
    } catch (error) {
      if (!(error instanceof MessagesUnavailableError) && !(error instanceof UnexpectedResponseError && error.status === 404)) {
        const failed = error instanceof Error ? error : new Error(String(error));
        this.failure = { error: failed, until: this.options.clock.now() + this.policy.failureWindowMs };
        this.options.log.warn({ err: failed.message }, 'messaging recovery failed; pausing messaging calls');
      }
      throw error;
    }
  }

  /**
   * POSTs once, with no recovery and no retry (spec 4.8: a message is sent once). Every answer,
   * whatever its status, is returned. A failure before the request left raises MessageSendError
   * with sent=false; a network error or timeout of the request itself, with sent=null.
   */
  async postOnce(path: string, body: unknown): Promise<JsonAnswer> {
    const { account } = this.options;
    try {
      this.prepare();
      await this.ensureBooted();
    } catch (error) {
      throw new MessageSendError(false, `not sent: ${errorText(error)}`, { account, cause: error });
    }
    const res = await this.send('POST', this.url(path), body).catch((error: unknown) => {
      throw new MessageSendError(null, `outcome unknown: ${errorText(error)}`, { account, cause: error });
    });
    return { status: res.status, json: readJson(res) };
  }

  /** For `check`: asks now (after any backoff) whether the module answers. */
  async probe(): Promise<boolean> {
    try {
      await this.get('/api/inbox/unreadMessagesCount');
      return true;
    } catch (error) {
      if (error instanceof MessagesUnavailableError) return false;
      throw error;
    }
  }

  /** The 10-minute window and the login hook, checked before every call. */
  private prepare(): void {
    if (!this.attached) {
      this.attached = true;
      // A password login ends the messaging session's ground: bootstrap again before the next call,
      // and ask a school that had no module again at once (spec 5.4.1-2). It also ends the window of
      // a failed recovery (5.4.4), which only keeps the ladder from logging in again: a login that
      // worked since (the gateway's, after a maintenance burst broke the ladder's own) is new ground.
      this.options.session.onLogin(() => {
        this.booted = false;
        if (this.absent) this.absent.checkAt = 0;
        this.failure = undefined;
      });
    }
    if (this.failure) {
      if (this.options.clock.now() < this.failure.until) throw this.failure.error;
      this.failure = undefined;
    }
  }

  private async ensureBooted(): Promise<void> {
    if (this.booted && !this.booting && this.lifetime.outlived(this.options.clock.now() - this.bootedAt)) this.booted = false;
    if (this.booted && !this.booting) return;
    if (!this.booting && this.absent && this.options.clock.now() < this.absent.checkAt) throw this.unavailable();
    if ((await this.bootstrap()) === 'absent') throw this.unavailable();
  }

  /** A new bootstrap unless another caller already started one since `generation`. */
  private async rebootstrap(generation: number): Promise<Outcome> {
    if (this.bootGeneration !== generation && !this.booting) return this.booted ? 'ok' : 'absent';
    if (this.bootGeneration === generation) this.booted = false;
    return this.bootstrap();
  }

  /** Runs the bootstrap, or joins the one in flight. */
  private bootstrap(): Promise<Outcome> {
    this.booting ??= this.bootstrapOnce().finally(() => (this.booting = undefined));
    return this.booting;
  }

  private async bootstrapOnce(): Promise<Outcome> {
    const { session, urls, account, clock, log } = this.options;
    const start = `${urls.base_url}/wiadomosci3`;
    this.options.onRequest?.('GET', '/wiadomosci3');
    // Inside the main session: a dead one (401 or a bounce to the login page) logs in first.
    let res = await session.request(
      () => session.http.send({ url: start, headers: { accept: 'text/html' }, timeoutMs: this.options.timeoutMs }),
      // The chain may pass the authorization host (live-notes 15): a hop there is followed, not a login.
      (r) => r.status === 401 || (isLoginRedirect(r, urls) && safeOrigin(r.location ?? '') !== safeOrigin(urls.auth_url)),
    );
    for (let hops = 0; res.status >= 300 && res.status < 400 && res.location; hops++) {
      if (hops >= this.policy.maxBootstrapHops) throw new UnexpectedResponseError(res.status, '/wiadomosci3: too many redirects', { account });
      const next = res.location;
      if (!configuredHost(next, this.options.urls))
        throw new UnexpectedResponseError(res.status, '/wiadomosci3: redirect to a host not configured', { account, resource: '/wiadomosci3' });
      this.options.onRequest?.('GET', pathOf(next));
      res = await session.http.send({ url: next, headers: { accept: 'text/html' }, timeoutMs: this.options.timeoutMs });
    }
    if (isServerTrouble(res.status)) throw serverError(res, '/wiadomosci3', account);
    if (res.status !== 200) throw new UnexpectedResponseError(res.status, `/wiadomosci3 answered ${res.status}`, { account });
    this.bootGeneration++;
    this.options.observer?.bootstrapped();
    if (saysNoAccess(res.text())) {
      const streak = (this.absent?.streak ?? 0) + 1;
      this.absent = { streak, checkAt: absentRecheckAt(streak, clock.now(), this.policy) };
      this.booted = false;
      this.known = false;
      log.info({ streak, checkAt: new Date(this.absent.checkAt).toISOString() }, 'no messages module (Brak dostępu)');
      return 'absent';
    }
    this.absent = undefined;
    this.booted = true;
    this.bootedAt = clock.now();
    this.known = true;
    log.debug('messaging session bootstrapped');
    return 'ok';
  }

  /** One password login for every call that needs it at the same time. */
  private relogin(seen: number): Promise<void> {
    if (!this.relogging) {
      this.options.log.info('messaging rejected a fresh bootstrap; logging in again');
      this.relogging = this.options.session.forceLogin(seen).finally(() => (this.relogging = undefined));
    }
    return this.relogging;
  }

  private send(method: 'GET' | 'POST', url: string, body?: unknown): Promise<HttpResponse> {
    this.options.onRequest?.(method, pathOf(url));
    const send = () =>
      this.options.session.http.send({
        method,
        url,
        headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs: this.options.timeoutMs,
      });
    const outcome = (res: HttpResponse) => (res.status >= 200 && res.status < 300 ? 'ok' : String(res.status));
    return observed(this.options.observer, maskedMessagingPath(pathOf(url)), send, outcome);
  }

  /** A non-rejection answer: JSON on a 2xx, else the error of spec 5.4.5, raised as it is. */
  private read(res: HttpResponse, path: string): unknown {
    const { account } = this.options;
    if (isServerTrouble(res.status)) throw serverError(res, path, account);
    if (res.status < 200 || res.status >= 300) throw new UnexpectedResponseError(res.status, `${path}: status ${res.status}`, { account });
    const json = readJson(res);
    if (json === undefined) throw new UnexpectedResponseError(res.status, `${path}: the answer is not JSON`, { account });
    return json;
  }

  /** The error of a call still rejected after a new bootstrap. */
  private rejected(res: HttpResponse, path: string): Error {
    const { account } = this.options;
    if (res.status === 401) return new SessionExpiredError(`${path}: the messaging host rejected a fresh session`, { account });
    return new UnexpectedResponseError(res.status, `${path}: status ${res.status} after a new bootstrap`, { account });
  }

  private unavailable(): MessagesUnavailableError {
    return new MessagesUnavailableError(this.options.account, this.absent?.checkAt ?? this.options.clock.now());
  }

  private url(path: string, query?: Record<string, string>): string {
    const search = query ? `?${new URLSearchParams(query).toString()}` : '';
    return `${this.options.urls.messages_url}${path}${search}`;
  }
}

/** Only the four configured hosts; cookies never go anywhere else. */
function configuredHost(url: string, urls: PortalUrls): boolean {
  const origin = safeOrigin(url);
  const { base_url, auth_url, messages_url, sandbox_url } = urls;
  return origin !== undefined && [base_url, auth_url, messages_url, sandbox_url].some((u) => safeOrigin(u) === origin);
}

/**
 * The learned lifetime of a messaging session (spec 5.4): the age at which the last one was seen
 * rejected. A session that old is renewed before the call instead of after a rejected one, which saves
 * the rejected request; every `relearnAfter` renewals one session is let run into its rejection, in case
 * the portal now keeps them longer.
 */
class LearnedLifetime {
  private learned: { ageMs: number; renewed: number } | undefined;

  constructor(private readonly policy: Pick<MessagingPolicy, 'minLearnedLifetimeMs' | 'relearnAfter'>) {}

  /** A rejection at `ageMs`: an age this session type is known to reach dead. True when it was learned. */
  rejectedAt(ageMs: number): boolean {
    if (ageMs < this.policy.minLearnedLifetimeMs) return false;
    this.learned = { ageMs, renewed: 0 };
    return true;
  }

  /** Whether a session of this age is to be renewed before the call (and counts the renewal). */
  outlived(ageMs: number): boolean {
    const learned = this.learned;
    if (!learned || ageMs < learned.ageMs) return false;
    if (learned.renewed >= this.policy.relearnAfter) {
      this.learned = undefined;
      return false;
    }
    learned.renewed++;
    return true;
  }
}
