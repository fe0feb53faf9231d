// The family portal's world (live-notes 21-26): e-mail accounts ("Konto LIBRUS") with their linked
// children, the portal's cookie sessions and form tokens, the children's bearer tokens and the one-time
// tokens that open a register web session, and the switches tests and `demo --quirks` flip. Written from
// the notes alone: nothing here is shared with the client's family road.
import { randomId } from './sessions.js';

/** One e-mail account of the family portal and the register logins linked to it. */
export interface SimFamilyInit {
  email: string;
  password: string;
  /** The children's register logins, in the order the portal lists them. */
  logins: string[];
}

/** A link's state as SynergiaAccounts says it; anything but 'active' needs the family in the portal. */
export type LinkState = 'active' | 'requiring_an_action' | 'need-activation';

/** How long a bearer token lives unless a test shortens it (public clients keep none of their own). */
export const TOKEN_LIFETIME_MS = 24 * 3600 * 1000;
/** How long the family portal's cookie session lives after its password login. */
export const FAMILY_SESSION_MS = 7 * 24 * 3600 * 1000;
const ONE_TIME_MS = 60 * 1000;

interface FamilySession {
  csrf: string;
  /** The e-mail whose password this session proved, if any. */
  email?: string;
  until: number;
  killed?: boolean;
}

interface Bearer {
  login: string;
  email: string;
  until: number;
}

export interface SynergiaAccountEntry {
  id: number;
  accountIdentifier: string;
  group: string;
  accessToken: string;
  login: string;
  studentName: string;
  scopes: string | string[];
  state: LinkState;
}

export class SimFamilies {
  /** A captcha page answers every password POST of the family login. */
  captcha = false;
  /** Bearer tokens issued from now on live this long. */
  tokenLifetimeMs = TOKEN_LIFETIME_MS;
  /** Tokens (bearer and one-time) of letters alone: no digit for a redaction to key on. */
  lettersOnlyTokens = false;
  /** Every token handed out (bearer and one-time), for a test to look for them where they must not be. */
  readonly issued: string[] = [];
  private readonly families = new Map<string, SimFamilyInit>();
  private readonly sessions = new Map<string, FamilySession>();
  private readonly bearers = new Map<string, Bearer>();
  /** The token SynergiaAccounts hands out for a child until fresh/<login> replaces it. */
  private readonly current = new Map<string, string>();
  private readonly oneTime = new Map<string, { login: string; until: number }>();
  private readonly links = new Map<string, LinkState>();
  /** Children whose token is handed out beside a state that is not `active` (live-notes 23), and works. */
  private readonly tokenBeside = new Set<string>();
  private readonly forbidden = new Map<string, Set<string>>();
  private readonly logins = new Map<string, number>();

  constructor(private readonly deps: { now: () => number; studentName: (login: string) => string | undefined }) {}

  add(init: SimFamilyInit): void {
    const key = init.email.toLowerCase();
    if (this.families.has(key)) throw new Error(`SimFamilies: ${init.email} exists`);
    this.families.set(key, { ...init, logins: [...init.logins] });
  }

  family(email: string): SimFamilyInit | undefined {
    return this.families.get(email.toLowerCase());
  }

  /** A new cookie session of the portal with its form token. */
  openSession(): { id: string; csrf: string } {
    const id = randomId(20);
    const csrf = randomId(20);
    this.sessions.set(id, { csrf, until: this.deps.now() + FAMILY_SESSION_MS });
    return { id, csrf };
  }

  session(id: string | undefined): FamilySession | undefined {
    const session = id === undefined ? undefined : this.sessions.get(id);
    return session && !session.killed && this.deps.now() < session.until ? session : undefined;
  }

  /** The password POST: the e-mail when the password is right (the session then holds it). */
  checkPassword(email: string, password: string): SimFamilyInit | undefined {
    const family = this.family(email);
    return family && family.password === password ? family : undefined;
  }

  /** A new session id for a session that proved its password (the portal renews it at login). */
  signIn(oldId: string, family: SimFamilyInit): string {
    this.sessions.delete(oldId);
    const id = randomId(20);
    this.sessions.set(id, { csrf: randomId(20), email: family.email, until: this.deps.now() + FAMILY_SESSION_MS });
    this.logins.set(family.email, (this.logins.get(family.email) ?? 0) + 1);
    return id;
  }

  /** The family portal's password logins that succeeded, of one e-mail or of all. */
  loginCount(email?: string): number {
    if (email !== undefined) return this.logins.get(email) ?? 0;
    return [...this.logins.values()].reduce((a, b) => a + b, 0);
  }

  /** SynergiaAccounts' entries of a family, each with its child's current token. */
  entries(family: SimFamilyInit): SynergiaAccountEntry[] {
    return family.logins.map((login, i) => this.entry(family, login, i, false));
  }

  /** fresh/<login>: the child's entry with a new token, or undefined when it is not linked. */
  fresh(family: SimFamilyInit, login: string): SynergiaAccountEntry | undefined {
    const i = family.logins.indexOf(login);
    return i < 0 ? undefined : this.entry(family, login, i, true);
  }

  private entry(family: SimFamilyInit, login: string, i: number, renew: boolean): SynergiaAccountEntry {
    const state = this.links.get(login) ?? 'active';
    const usable = state === 'active' || this.tokenBeside.has(login);
    let token = this.current.get(`${family.email} ${login}`);
    if (usable && (renew || token === undefined)) {
      token = this.newToken(32);
      this.bearers.set(token, { login, email: family.email, until: this.deps.now() + this.tokenLifetimeMs });
      this.current.set(`${family.email} ${login}`, token);
    }
    return {
      id: 100 + i,
      accountIdentifier: login,
      group: 'parent',
      accessToken: usable ? (token ?? '') : '',
      login,
      studentName: this.deps.studentName(login) ?? login,
      scopes: i % 2 === 0 ? ['synergia'] : '',
      state,
    };
  }

  /** The child a live bearer token reads for. */
  bearer(token: string | undefined): Bearer | undefined {
    const found = token === undefined ? undefined : this.bearers.get(token);
    const refused = this.links.get(found?.login ?? '') === 'requiring_an_action' && !this.tokenBeside.has(found?.login ?? '');
    return found && this.deps.now() < found.until && !refused ? found : undefined;
  }

  /** 2.0/AutoLoginToken: a one-time token that opens the child's register web session. */
  issueOneTime(login: string): string {
    const token = this.newToken(24);
    this.oneTime.set(token, { login, until: this.deps.now() + ONE_TIME_MS });
    return token;
  }

  /** Single use, as the portal's one-time tokens are. */
  redeemOneTime(token: string): string | undefined {
    const entry = this.oneTime.get(token);
    this.oneTime.delete(token);
    return entry && this.deps.now() < entry.until ? entry.login : undefined;
  }

  // ---- switches ----

  /**
   * The link of a child in every family that lists it; `tokenBeside`: its token is still handed out
   * (and works) beside a state that is not `active`, as live accounts report.
   */
  setLinkState(login: string, state: LinkState, options: { tokenBeside?: boolean } = {}): void {
    if (state === 'active') this.links.delete(login);
    else this.links.set(login, state);
    if (options.tokenBeside === true && state !== 'active') this.tokenBeside.add(login);
    else this.tokenBeside.delete(login);
  }

  private newToken(bytes: number): string {
    const hex = randomId(bytes);
    // Each hex digit to a letter (0 -> g ... 9 -> p): as random, with no digit in it.
    const token = this.lettersOnlyTokens ? hex.replace(/\d/g, (d) => String.fromCharCode(103 + Number(d))) : hex;
    this.issued.push(token);
    return token;
  }

  /** The API host answers 403 to this resource (as `Messages` always does) for this child, or stops. */
  forbid(login: string, resource: string, on = true): void {
    const set = this.forbidden.get(login) ?? new Set<string>();
    if (on) set.add(resource);
    else set.delete(resource);
    this.forbidden.set(login, set);
  }

  isForbidden(login: string, resource: string): boolean {
    return resource === 'Messages' || (this.forbidden.get(login)?.has(resource) ?? false);
  }

  /** Ends every bearer token now (of one child, or all): the next data call answers 401. */
  expireTokens(login?: string): void {
    for (const bearer of this.bearers.values()) if (login === undefined || bearer.login === login) bearer.until = 0;
  }

  /** Ends the portal's cookie sessions: Me and SynergiaAccounts answer 401 until a new login. */
  expireSessions(): void {
    for (const session of this.sessions.values()) session.killed = true;
  }
}
