// The session policy of spec 5.3.5 around one account's cookie jar: when to log in, when to refresh,
// how long to pause, and one login for any number of requests that hit the same dead session. The policy
// is data with its defaults, and one function decides what the session needs before the next request.
// The pause after a refused password login is tied to the credentials it was for by a salted digest, so
// that changing the config ends it.
import { createHash, randomBytes } from 'node:crypto';
import { CookieJar } from 'tough-cookie';
import {
  CaptchaRequiredError,
  ConnectionError,
  LoginChangedError,
  LoginPausedError,
  SessionExpiredError,
  WrongCredentialsError,
  problemReason,
} from './errors.js';
import { HttpClient, type HttpClientOptions, type HttpResponse } from './http.js';
import { passwordLogin, type LoginOutcome } from './login.js';
import type { PortalUrls } from '../config/schema.js';
import type { Logger } from '../util/log.js';
import type { PersistedSession, SessionStore } from './session-store.js';
import type { PortalObserver } from './observer.js';
import { HOUR, MINUTE } from '../util/duration.js';

/** The session policy as data, with the spec's defaults. */
export const DEFAULT_SESSION_POLICY = {
  /** Assumed lifetime of a session from its password login. */
  lifetimeMs: 20 * HOUR,
  /** Age (since login or the last good refresh) at which refreshToken is called. */
  refreshAfterMs: 2 * HOUR,
  /** No refreshToken again for this long after a failed one. */
  refreshPauseMs: 30 * MINUTE,
  /** No login again for this long after wrong credentials (or until they change). */
  wrongCredentialsPauseMs: HOUR,
  /** No login again for this long after a captcha. */
  captchaPauseMs: 30 * MINUTE,
  /** No password login again for this long after a login the bridge did not understand (login_changed). */
  loginChangedPauseMs: HOUR,
  /** A login page it does not know (HTML, status 200) is the portal down until it has lasted this long; then login_changed. */
  unknownLoginPageMs: 30 * MINUTE,
  /** The advice to change the password is logged at most this often. */
  adviceLogEveryMs: 24 * HOUR,
};

/** The session policy as data (its fields, DEFAULT_SESSION_POLICY's). */
export type SessionPolicy = typeof DEFAULT_SESSION_POLICY;

/** The policy's times of the session in use (kept with it in its file). */
export type SessionState = Pick<PersistedSession, 'loggedInAt' | 'refreshedAt' | 'refreshFailedAt'>;

/** The one place that decides what the session needs before the next request. */
export function nextSessionAction(state: SessionState, now: number, policy: SessionPolicy): 'login' | 'refresh' | 'none' {
  if (state.loggedInAt === undefined || now - state.loggedInAt >= policy.lifetimeMs) return 'login';
  const age = now - Math.max(state.loggedInAt, state.refreshedAt ?? 0);
  if (age < policy.refreshAfterMs) return 'none';
  if (state.refreshFailedAt !== undefined && now - state.refreshFailedAt < policy.refreshPauseMs) return 'none';
  return 'refresh';
}

export type Pause = NonNullable<PersistedSession['pause']>;

/** The errors after which password logins pause, and the reason the pause shows. */
export function pauseReason(error: unknown): Pause['reason'] | undefined {
  if (error instanceof WrongCredentialsError) return 'wrong_credentials';
  if (error instanceof CaptchaRequiredError) return 'captcha_required';
  if (error instanceof LoginChangedError) return 'login_changed';
  return undefined;
}

/** How long a pause of this reason lasts. */
export function pauseLength(reason: Pause['reason'], policy: SessionPolicy): number {
  if (reason === 'wrong_credentials') return policy.wrongCredentialsPauseMs;
  if (reason === 'login_changed') return policy.loginChangedPauseMs;
  return policy.captchaPauseMs;
}

/**
 * The pause, ending no later than its reason's policy allows from now: one restored from a file
 * written under a clock years ahead, or kept while the clock was set back, is cut to that.
 */
export function boundedPause(pause: Pause, now: number, policy: SessionPolicy): Pause {
  const longest = now + pauseLength(pause.reason, policy);
  return pause.until > longest ? { ...pause, until: longest } : pause;
}

/** Identifies the credentials without storing them: a salted digest, salt kept beside it. */
export function credentialsDigest(login: string, password: string | undefined, salt = randomBytes(8).toString('hex')): string {
  const digest = createHash('sha256').update(`${salt}\0${login}\0${password}`).digest('hex').slice(0, 32);
  return `${salt}:${digest}`;
}

/** Whether a saved pause was for these credentials (its salt is kept in it). */
export function pauseIsFor(pause: Pause, login: string, password: string | undefined): boolean {
  return pause.credentials === credentialsDigest(login, password, pause.credentials.split(':')[0] ?? '');
}

/** The pause a refused login starts, or undefined when the error is no refusal (the portal down, say). */
export function pauseAfter(error: unknown, now: number, policy: SessionPolicy, login: string, password: string | undefined): Pause | undefined {
  const reason = pauseReason(error);
  if (reason === undefined) return undefined;
  const words = error instanceof WrongCredentialsError || error instanceof LoginChangedError ? error.portalMessage : undefined;
  return {
    reason,
    until: now + pauseLength(reason, policy),
    credentials: credentialsDigest(login, password),
    ...(words === undefined ? {} : { portal_message: words }),
  };
}

/** Its HTTP client's (`account`: a label for logs and errors, the account's id or login, never a secret), and the session's. */
export interface PortalSessionOptions extends Pick<HttpClientOptions, 'account' | 'clock' | 'dispatcher' | 'portalTime' | 'timeoutMs'> {
  login: string;
  password: string;
  urls: PortalUrls;
  log: Logger;
  store?: SessionStore;
  policy?: SessionPolicy;
  /**
   * How this session logs in with its password, in its own cookie jar (default: the register's login,
   * spec 5.2); the family road's portal session logs in with the e-mail (family-login.ts). `login` is
   * then what identifies the credentials (the e-mail).
   */
  signIn?: (http: HttpClient) => Promise<LoginOutcome>;
  /** Told of every password login, its requests and its outcome (the diagnostics' figures). */
  observer?: PortalObserver;
  /** A child on both roads (roads.ts): the road its session was opened on is kept with the session. */
  road?: RoadHold;
}

/** What a session keeps of the road its child is read through, so that a restart stays on it. */
export interface RoadHold {
  held(): PersistedSession['familyRoad'];
  resume(saved: PersistedSession['familyRoad']): void;
}

export type LoginAdvice = NonNullable<PersistedSession['advice']>;

export class PortalSession {
  readonly http: HttpClient;
  private readonly policy: SessionPolicy;
  private state: SessionState = {};
  private pause: Pause | undefined;
  /** Since when the login has met a login page it does not know, answer after answer (in memory only). */
  private unknownPageSince: number | undefined;
  private generation = 0;

  /** Counts the logins of this session: a caller that saw a dead session tells by it whether a login came since. */
  get logins(): number {
    return this.generation;
  }
  private pending: Promise<void> | undefined;
  private advised: { advice?: LoginAdvice; loggedAt?: number } = {};
  private readonly loginListeners: ((proof: unknown) => void)[] = [];
  /** Password logins done by this process (for the benchmark and the tests). */
  loginCount = 0;

  constructor(private readonly options: PortalSessionOptions) {
    this.policy = options.policy ?? DEFAULT_SESSION_POLICY;
    const { account, clock, dispatcher, portalTime, timeoutMs } = options;
    this.http = new HttpClient({ account, clock, dispatcher, portalTime, timeoutMs });
  }

  /** Restores a saved jar and policy state, so that a restart does not need a new login. */
  async restore(): Promise<void> {
    const saved = await this.options.store?.load((error) =>
      this.options.log.warn({ err: error.message }, 'saved session unreadable; logging in anew'),
    );
    if (!saved) return;
    const jar = await CookieJar.deserialize(saved.cookies as never).catch(() => undefined);
    if (!jar) return;
    this.http.useJar(jar);
    // Times from the future were saved under a clock that ran ahead (or this one was set back): taken
    // as now, so a refresh pause lasts at most its policy from here.
    const now = this.options.clock.now();
    const past = (at: number | undefined): number | undefined => (at === undefined ? undefined : Math.min(at, now));
    this.state = { loggedInAt: past(saved.loggedInAt), refreshedAt: past(saved.refreshedAt), refreshFailedAt: past(saved.refreshFailedAt) };
    this.advised = { advice: saved.advice, loggedAt: past(saved.adviceLoggedAt) };
    this.options.road?.resume(saved.familyRoad);
    // A pause for wrong credentials or a captcha ends when the credentials in the config change.
    if (saved.pause && pauseIsFor(saved.pause, this.options.login, this.options.password)) {
      this.pause = boundedPause(saved.pause, now, this.policy);
    }
  }

  /** When the session in use began (its password login), if one is known. */
  get loggedInAt(): number | undefined {
    return this.state.loggedInAt;
  }

  /** What the last password login learned beside the session (the portal advises a new password). */
  get advice(): LoginAdvice | undefined {
    return this.advised.advice;
  }

  /**
   * Called after every password login (the messaging session must bootstrap again), with the answer
   * that proved the new session when the login read one (Auth/TokenInfo).
   */
  onLogin(listener: (proof: unknown) => void): void {
    this.loginListeners.push(listener);
  }

  /**
   * The login pause in force, if any (reason and until); login() refuses to log in during one. Never
   * longer than the policy gives its reason from now: a pause restored from a file written under a
   * clock years ahead, or kept while the clock was set back, is cut to that.
   */
  get pausedUntil(): Pause | undefined {
    if (!this.pause) return undefined;
    const now = this.options.clock.now();
    const pause = (this.pause = boundedPause(this.pause, now, this.policy));
    return pause.until > now ? pause : undefined;
  }

  /**
   * Sends a request inside the session: logs in or refreshes first when the policy says so, and on a
   * dead-session answer logs in once (shared with every request that hit the same dead session) and
   * retries once.
   */
  async request(send: () => Promise<HttpResponse>, isDead: (res: HttpResponse) => boolean): Promise<HttpResponse> {
    await this.ensure();
    const generation = this.generation;
    const first = await send();
    if (!isDead(first)) return first;
    this.options.log.info('session expired; logging in again');
    // One login for every request that met the same dead session; none when one came since.
    if (this.pending || this.generation === generation) await this.singleFlight(() => this.login());
    const second = await send();
    if (isDead(second)) {
      throw new SessionExpiredError('the portal rejected a fresh session', { account: this.options.account, url: second.url });
    }
    return second;
  }

  /** Makes sure a session exists and is refreshed per the policy (single-flight). */
  async ensure(): Promise<void> {
    while (this.pending) await this.pending.catch(() => undefined);
    const action = nextSessionAction(this.state, this.options.clock.now(), this.policy);
    if (action === 'none') return;
    await this.singleFlight(() => (action === 'login' ? this.login() : this.refresh()));
  }

  /**
   * Logs in with the password now, even when the policy thinks the session is fine: the messaging
   * recovery (spec 5.4.3) learns of a dead session where the gateway cannot see it. `seen`: the logins
   * count when the caller met the dead session; a login since (the register's reads met it too, at the
   * same time) is the one it needed, and none is made again.
   */
  async forceLogin(seen?: number): Promise<void> {
    while (this.pending) await this.pending.catch(() => undefined);
    if (seen !== undefined && this.generation !== seen) return;
    await this.singleFlight(() => this.login());
  }

  /** Forgets the login (the cookies stay): the next request logs in, or meets the pause in force. */
  forget(): void {
    this.state = {};
  }

  /** Saves the jar and state (after a pass, and on stop). */
  async persist(): Promise<void> {
    if (!this.options.store) return;
    await this.options.store.save({
      version: 1,
      cookies: await this.http.serialize(),
      ...this.state,
      pause: this.pause,
      ...(this.advised.advice ? { advice: this.advised.advice } : {}),
      ...(this.advised.loggedAt === undefined ? {} : { adviceLoggedAt: this.advised.loggedAt }),
      ...(this.options.road?.held() ? { familyRoad: this.options.road.held() } : {}),
    });
  }

  private async singleFlight(work: () => Promise<void>): Promise<void> {
    this.pending ??= work().finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async login(): Promise<void> {
    const { account, clock, log } = this.options;
    const pause = this.pausedUntil;
    if (pause && !(await this.endedByCheck(pause)))
      throw new LoginPausedError(pause.reason, pause.until, { account, portalMessage: pause.portal_message });
    log.info('logging in');
    let outcome: LoginOutcome;
    const watch = this.options.observer?.login();
    const unobserve = watch && this.http.observe((exchange) => watch.exchange(exchange));
    try {
      this.loginCount++;
      outcome = this.options.signIn
        ? await this.options.signIn(this.http)
        : await passwordLogin({
            http: this.http,
            urls: this.options.urls,
            account,
            login: this.options.login,
            password: this.options.password,
            now: () => clock.now(),
          });
      watch?.ended('ok');
    } catch (caught) {
      const error = this.lasting(caught);
      watch?.ended(problemReason(error));
      const pause = pauseAfter(error, clock.now(), this.policy, this.options.login, this.options.password);
      if (pause) {
        this.pause = pause;
        const { reason, portal_message: words } = pause;
        // Once per refusal: the pause keeps the next passes from logging in (and from logging it again).
        const said =
          reason === 'login_changed' ? 'the portal answered the login in a way this version does not know' : 'the portal refused the login';
        const step = error instanceof LoginChangedError ? { step: error.loginStep, err: error.message } : {};
        log.warn({ reason, ...step, ...(words === undefined ? {} : { portal_message: words }) }, said);
        await this.persist().catch(() => undefined);
      }
      throw error;
    } finally {
      unobserve?.();
    }
    this.pause = undefined;
    this.unknownPageSince = undefined;
    this.noteAdvice(outcome.advice);
    this.state = { loggedInAt: clock.now() };
    this.generation++;
    await this.persist();
    log.info('logged in');
    for (const listener of this.loginListeners) listener(outcome.proof);
  }

  /** A pause is over once `check` has logged the account in since it began (a false "wrong password"). */
  private async endedByCheck(pause: Pause): Promise<boolean> {
    const at = await this.options.store?.checkedLoginAt();
    if (at === undefined || at < pause.until - pauseLength(pause.reason, this.policy)) return false;
    this.pause = undefined;
    return true;
  }

  /**
   * A login page the login does not know is the portal down (a maintenance page) until the same answer
   * has lasted unknownLoginPageMs; from then on it is the changed login it would be (login_changed).
   */
  private lasting(error: unknown): unknown {
    const changed = error instanceof ConnectionError ? error.changedLogin : undefined;
    if (changed === undefined) {
      this.unknownPageSince = undefined;
      return error;
    }
    const now = this.options.clock.now();
    this.unknownPageSince ??= now;
    return now - this.unknownPageSince >= this.policy.unknownLoginPageMs ? changed : error;
  }

  private async refresh(): Promise<void> {
    const { clock, log, urls } = this.options;
    const before = await this.http.cookieValue(`${urls.base_url}/`, 'oauth_token');
    let refreshed = false;
    try {
      const res = await this.http.send({ url: `${urls.base_url}/refreshToken` });
      const after = await this.http.cookieValue(`${urls.base_url}/`, 'oauth_token');
      // A refresh counts only when its answer set a new oauth_token (spec 5.3.3).
      refreshed = res.status === 200 && after !== undefined && after !== before;
    } catch (error) {
      if (!(error instanceof ConnectionError)) throw error;
    }
    if (refreshed) {
      this.state.refreshedAt = clock.now();
      await this.persist();
      log.debug('session refreshed');
      return;
    }
    this.state.refreshFailedAt = clock.now();
    log.info('session refresh failed; logging in with the password');
    try {
      await this.login();
    } catch (error) {
      // The old session may well still work; a dead one shows as a 401 and is handled there.
      if (!(error instanceof ConnectionError)) throw error;
      log.warn({ err: error.message }, 'login after a failed refresh could not reach the portal');
    }
  }

  /** Keeps what the login advised; says it in the log at most once a day while it lasts. */
  private noteAdvice(advice: LoginAdvice | undefined): void {
    const now = this.options.clock.now();
    const { loggedAt } = this.advised;
    const due = loggedAt === undefined || now - loggedAt >= this.policy.adviceLogEveryMs;
    if (advice && due) {
      const said = 'the portal advises changing this account’s password; the bridge skipped it, as “remind me later” does';
      this.options.log.warn({ advice }, said);
    }
    this.advised = advice ? { advice, loggedAt: due ? now : loggedAt } : {};
  }
}
