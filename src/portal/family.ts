// One family account (an `email` entry): its portal session, logged in with the e-mail (family-login.ts)
// under the same pause policy as a register login, the linked children it lists, and each child's bearer
// token, renewed with fresh/<login> on a 401 before any new password login (live-notes 22-25).
import { ConnectionError, LinkNeedsActionError, LoginChangedError, SessionExpiredError } from './errors.js';
import { familyLogin, freshChild, linkedChildren, type LinkedChild } from './family-login.js';
import type { DataRoad } from './gateway.js';
import { isInsufficientScopes, isServerTrouble, pathOf, readJson, type HttpClient, type HttpRequest, type HttpResponse } from './http.js';
import type { LoginOutcome } from './login.js';
import { knownNames } from '../util/redact.js';
import { PortalSession, DEFAULT_SESSION_POLICY, type PortalSessionOptions, type SessionPolicy } from './session.js';
import { errorText } from '../util/text.js';
import type { Logger } from '../util/log.js';

/** How often the children are listed again while a link needs the family's action. */
const RELIST_WHILE_WAITING_MS = 15 * 60_000;

/** A session's options, with the family portal's e-mail in place of a login (the session logs in with it). */
export interface FamilyAccountOptions extends Omit<PortalSessionOptions, 'login' | 'signIn'> {
  email: string;
}

export class FamilyAccount {
  /** The family portal's cookie session: the pause after a refusal and single-flight logins, as a register login's. */
  readonly session: PortalSession;
  private readonly tokens = new Map<string, string>();
  /** Each child's link state as last listed (live-notes 23). */
  private readonly states = new Map<string, string>();
  /** Each listed child's name as the portal gives it, by its login in lower case: its device's name before its first read. */
  private readonly names = new Map<string, string>();
  /** When the children were last listed: the age of `states`. */
  private listedAt = -Infinity;

  constructor(private readonly options: FamilyAccountOptions) {
    this.session = new PortalSession({
      ...options,
      login: options.email,
      policy: untimed(options.policy),
      signIn: (http) => familyLogin({ http, urls: options.urls, account: options.account, email: options.email, password: options.password }),
    });
  }

  /** The label logs and errors name this account by. */
  get label(): string {
    return this.options.account;
  }

  /** The linked children as the portal lists them now; their tokens are kept for the reads. */
  async children(): Promise<LinkedChild[]> {
    const children = await linkedChildren(this.session, this.options.urls, this.options.account);
    this.listedAt = this.options.clock.now();
    for (const child of children) {
      // A register login the portal listed is as private as one the config names.
      knownNames.add(child.login);
      this.states.set(child.login, child.state);
      if (child.studentName.trim() !== '') this.names.set(child.login.trim().toLowerCase(), child.studentName.trim());
      if (child.accessToken !== '') this.tokens.set(child.login, masked(child.accessToken));
      else this.tokens.delete(child.login);
    }
    return children;
  }

  /**
   * The child's link state (`active`, `requiring_an_action`, ...). While one of the family's links is not
   * active, the children are listed again every 15 minutes, so the family's fix in the portal ends the
   * problem by itself; while all are active, no request.
   */
  async linkState(login: string): Promise<string | undefined> {
    const waiting = [...this.states.values()].some((state) => state !== 'active');
    const now = this.options.clock.now();
    if (waiting && now - this.listedAt >= RELIST_WHILE_WAITING_MS) {
      // Tried once per 15 minutes, answered or not: a failed listing leaves the state last known.
      this.listedAt = now;
      await this.children().catch((error: unknown) =>
        this.options.log.debug({ account: this.options.account, err: errorText(error) }, 'the family portal’s children could not be listed again'),
      );
    }
    return this.states.get(login);
  }

  /** The child's name as the portal listed it, if it has been listed. */
  studentName(login: string): string | undefined {
    return this.names.get(login.trim().toLowerCase());
  }

  /** The child's bearer token: the one kept, else from the list. Undefined when the portal lists none. */
  async token(login: string): Promise<string | undefined> {
    const kept = this.tokens.get(login);
    if (kept !== undefined) return kept;
    await this.children();
    return this.tokens.get(login);
  }

  /**
   * A new token for the child after a 401 (fresh/<login>), unless another read renewed it since `stale`
   * was handed out; a dead portal session logs in once on the way.
   */
  async renew(login: string, stale: string): Promise<string | undefined> {
    const kept = this.tokens.get(login);
    if (kept !== undefined && kept !== stale) return kept;
    const child = await freshChild(this.session, this.options.urls, this.options.account, login);
    this.states.set(login, child.state);
    if (child.accessToken === '') this.tokens.delete(login);
    else this.tokens.set(login, masked(child.accessToken));
    return this.tokens.get(login);
  }

  /**
   * The child's data on the API host by its bearer token (live-notes 24): `3.0/<Resource>`, the
   * gateway's resources and shapes. A 401 renews the token once (live-notes 25). A bearer goes to the
   * API host, and to the register's own gateway path for the kindergarten's service alone (both the
   * portal's hosts; live-notes 34 does not say which serves it), never anywhere else.
   */
  dataRoad(login: string, http: HttpClient, log: Logger = this.options.log): DataRoad {
    const { auth_url, base_url } = this.options.urls;
    const withBearer = (request: HttpRequest, token: string): HttpRequest => ({
      ...request,
      headers: { ...request.headers, authorization: `Bearer ${token}` },
    });
    const send = async (request: HttpRequest): Promise<HttpResponse> => {
      const token = await this.usableToken(login);
      const first = await http.send(withBearer(request, token));
      if (first.status !== 401 || isInsufficientScopes(first)) return first;
      // Said about the child (the reader's log names it by its id), and the entry whose token it is.
      log.debug({ family: this.options.account }, 'the child’s token has ended; renewing it');
      const renewed = await this.renew(login, token);
      if (renewed === undefined) throw this.linkNeedsAction(login);
      const second = await http.send(withBearer(request, renewed));
      if (second.status === 401 && !isInsufficientScopes(second)) {
        throw new SessionExpiredError('the API host rejected a fresh token', { account: this.options.account, url: second.url });
      }
      return second;
    };
    return {
      url: (endpoint) => `${auth_url}/3.0/${endpoint}`,
      send,
      // The kindergarten's service (live-notes 34 does not say where a bearer reaches it): the register's
      // gateway path, where a 401 only means "not here" (the token is not renewed for it), then the API host's.
      services: [
        {
          host: 'gateway',
          url: (path) => `${base_url}/gateway/${path}`,
          send: async (request) => http.send(withBearer(request, await this.usableToken(login))),
        },
        { host: 'api', url: (path) => `${auth_url}/${path}`, send },
      ],
    };
  }

  /**
   * How the child's register web session is opened on this road (the messaging session and downloads
   * stand on it): a one-time token of `2.0/AutoLoginToken`, then the portal's token login (live-notes 26).
   */
  webSignIn(login: string): (http: HttpClient) => Promise<LoginOutcome> {
    const { auth_url, base_url } = this.options.urls;
    const account = this.options.account;
    return async (http) => {
      const road = this.dataRoad(login, http);
      const answer = await road.send({ method: 'POST', url: `${auth_url}/2.0/AutoLoginToken`, headers: { accept: 'application/json' } });
      if (isServerTrouble(answer.status)) throw new ConnectionError(`AutoLoginToken answered ${answer.status}`, { account, status: answer.status });
      const json = answer.status === 200 ? readJson(answer) : undefined;
      const token = json && typeof json === 'object' ? (json as { Token?: unknown }).Token : undefined;
      if (typeof token !== 'string' || !/^[\w-]+$/.test(token)) {
        throw new LoginChangedError('session check', `AutoLoginToken answered ${answer.status} without a token`, { account, status: answer.status });
      }
      const opened = await http.send({
        url: `${base_url}/loguj/token/${token}/przenies/uczen/widok/centrum_powiadomien`,
        headers: { accept: 'text/html' },
      });
      if (isServerTrouble(opened.status)) throw new ConnectionError(`the token login answered ${opened.status}`, { account, status: opened.status });
      if (opened.status >= 400 || (opened.location !== undefined && /\/loguj\/portalRodzina/.test(pathOf(opened.location)))) {
        throw new LoginChangedError('session check', `the token login answered ${opened.status}`, { account, status: opened.status });
      }
      return {};
    };
  }

  private async usableToken(login: string): Promise<string> {
    const token = await this.token(login);
    if (token === undefined) throw this.linkNeedsAction(login);
    return token;
  }

  /**
   * `problem` for a child whose link the portal lists as not `active` while its token still works: its
   * data is read on, and the family is told to sign in to the portal. Undefined while the link is active.
   */
  async linkProblem(login: string): Promise<LinkNeedsActionError | undefined> {
    const state = await this.linkState(login);
    if (state === undefined || state === 'active') return undefined;
    return new LinkNeedsActionError(`the family portal lists this child’s link as ${state}: it needs the family’s action in the portal`, {
      account: this.options.account,
      portalMessage: state,
    });
  }

  private linkNeedsAction(login: string): LinkNeedsActionError {
    return new LinkNeedsActionError('the family portal lists this child without a token: its link needs the family’s action in the portal', {
      account: this.options.account,
      portalMessage: this.states.get(login),
    });
  }
}

/** Public clients keep no lifetime of their own on this road: the portal's 401 says when to log in again (live-notes 25). */
export function untimed(policy: SessionPolicy = DEFAULT_SESSION_POLICY): SessionPolicy {
  return { ...policy, lifetimeMs: Infinity, refreshAfterMs: Infinity };
}

/** A child's bearer token, masked wherever it would stand from now on (a log line, an error, a bundle). */
function masked(token: string): string {
  knownNames.secret(token);
  return token;
}
