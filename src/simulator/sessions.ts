// Server-side sessions. The authorization host keeps a short login session (its own cookie) and hands
// out one-time codes; the portal keeps the real session, found by its oauth_token (data gateway) or by
// DZIENNIKSID (web pages). A session lives 24 h from the password login, or from its last refresh.
import { randomBytes } from 'node:crypto';

export const SESSION_LIFETIME_MS = 24 * 3600 * 1000;
/** How long the previous oauth_token keeps working after a refresh (requests already in flight). */
export const OLD_TOKEN_GRACE_MS = 60 * 1000;
/** A login code must be redeemed quickly, as an OAuth code would. */
const CODE_LIFETIME_MS = 5 * 60 * 1000;

export function randomId(bytes = 16): string {
  return randomBytes(bytes).toString('hex');
}

export interface AuthSession {
  id: string;
  /** The login whose password was accepted in step 3, if any. */
  login?: string;
  /** The OAuth state given in step 1, echoed back to the portal. */
  state: string;
  /** The requiredActions page was skipped ("remind me later") after this session's password. */
  actionsSkipped?: boolean;
}

export interface PortalSession {
  login: string;
  /** The current oauth_token value. */
  token: string;
  webSid: string;
  secureSid: string;
  expiresAt: number;
  killed: boolean;
}

interface TokenEntry {
  session: PortalSession;
  /** Set when a refresh replaced this token: it works until then. */
  retiredUntil?: number;
}

export class SessionStore {
  private auth = new Map<string, AuthSession>();
  private codes = new Map<string, { login: string; state: string; until: number }>();
  private tokens = new Map<string, TokenEntry>();
  private webSids = new Map<string, PortalSession>();

  constructor(private readonly now: () => number) {}

  createAuthSession(state: string): AuthSession {
    const session: AuthSession = { id: randomId(13), state };
    this.auth.set(session.id, session);
    return session;
  }

  authSession(id: string | undefined): AuthSession | undefined {
    return id === undefined ? undefined : this.auth.get(id);
  }

  issueCode(login: string, state: string): string {
    const code = randomId(20);
    this.codes.set(code, { login, state, until: this.now() + CODE_LIFETIME_MS });
    return code;
  }

  /** Single use: a second redemption of the same code fails. */
  redeemCode(code: string | null): { login: string; state: string } | undefined {
    if (!code) return undefined;
    const entry = this.codes.get(code);
    this.codes.delete(code);
    return entry && entry.until >= this.now() ? entry : undefined;
  }

  open(login: string): PortalSession {
    const session: PortalSession = {
      login,
      token: randomId(20),
      webSid: randomId(13),
      secureSid: randomId(13),
      expiresAt: this.now() + SESSION_LIFETIME_MS,
      killed: false,
    };
    this.tokens.set(session.token, { session });
    this.webSids.set(session.webSid, session);
    return session;
  }

  isLive(session: PortalSession): boolean {
    return !session.killed && this.now() < session.expiresAt;
  }

  /** The session an oauth_token value belongs to, live or not (for the request log). */
  findByToken(token: string | undefined): PortalSession | undefined {
    return token === undefined ? undefined : this.tokens.get(token)?.session;
  }

  findByWebSid(sid: string | undefined): PortalSession | undefined {
    return sid === undefined ? undefined : this.webSids.get(sid);
  }

  /** The live session that may use this token now, or undefined (unknown, expired, or retired too long ago). */
  liveByToken(token: string | undefined): PortalSession | undefined {
    const entry = token === undefined ? undefined : this.tokens.get(token);
    if (!entry || !this.isLive(entry.session)) return undefined;
    if (entry.retiredUntil !== undefined && this.now() > entry.retiredUntil) return undefined;
    return entry.session;
  }

  liveByWebSid(sid: string | undefined): PortalSession | undefined {
    const session = this.findByWebSid(sid);
    return session && this.isLive(session) ? session : undefined;
  }

  /** Issues a new oauth_token and extends the session by a full lifetime from now. */
  refresh(session: PortalSession): string {
    const old = this.tokens.get(session.token);
    if (old) old.retiredUntil = this.now() + OLD_TOKEN_GRACE_MS;
    session.token = randomId(20);
    session.expiresAt = this.now() + SESSION_LIFETIME_MS;
    this.tokens.set(session.token, { session });
    return session.token;
  }

  /** Ends every session of a login, or every session at all. */
  expire(login?: string): void {
    for (const { session } of this.tokens.values()) {
      if (login === undefined || session.login === login) session.killed = true;
    }
  }
}

/** The session cookie as every portal response for a live session re-sends it (spec 5.3). */
export const TOKEN_MAX_AGE = 600;
