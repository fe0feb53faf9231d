// One family account (an `email` entry): its portal session, logged in with the e-mail (family-login.ts)
// under the same pause policy as a register login, the linked children it lists, and each child's bearer
// token, renewed with fresh/<login> on a 401 before any new password login (live-notes 22-25).
import { familyLogin, freshChild, linkedChildren, type LinkedChild } from './family-login.js';
import { PortalSession, DEFAULT_SESSION_POLICY, type SessionPolicy } from './session.js';
import type { PortalUrls } from '../config/schema.js';
import type { SessionStore } from '../store/session-store.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import type { Dispatcher } from 'undici';

export interface FamilyAccountOptions {
  /** A label for logs and errors (never the e-mail). */
  account: string;
  email: string;
  password: string;
  urls: PortalUrls;
  clock: Clock;
  log: Logger;
  store?: SessionStore;
  dispatcher?: Dispatcher;
  timeoutMs?: number;
  policy?: SessionPolicy;
}

export class FamilyAccount {
  /** The family portal's cookie session: the pause after a refusal and single-flight logins, as a register login's. */
  readonly session: PortalSession;
  private readonly options: FamilyAccountOptions;
  private readonly tokens = new Map<string, string>();

  constructor(options: FamilyAccountOptions) {
    this.options = options;
    // Public clients keep no lifetime of their own: the portal's 401 says when to log in again (live-notes 25).
    const policy = { ...(options.policy ?? DEFAULT_SESSION_POLICY), lifetimeMs: Infinity, refreshAfterMs: Infinity };
    this.session = new PortalSession({
      account: options.account,
      login: options.email,
      password: options.password,
      urls: options.urls,
      clock: options.clock,
      log: options.log,
      store: options.store,
      dispatcher: options.dispatcher,
      timeoutMs: options.timeoutMs,
      policy,
      signIn: (http) => familyLogin({ http, urls: options.urls, account: options.account, email: options.email, password: options.password }),
    });
  }

  /** The linked children as the portal lists them now; their tokens are kept for the reads. */
  async children(): Promise<LinkedChild[]> {
    const children = await linkedChildren(this.session, this.options.urls, this.options.account);
    for (const child of children) {
      if (child.accessToken !== '') this.tokens.set(child.login, child.accessToken);
      else this.tokens.delete(child.login);
    }
    return children;
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
    if (child.accessToken === '') this.tokens.delete(login);
    else this.tokens.set(login, child.accessToken);
    return this.tokens.get(login);
  }
}
