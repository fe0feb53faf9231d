// One redaction for everything that may end up in a public bug report: a log line, an error's message,
// the login transcript, the diagnostics bundle. It masks by position, never by what a value looks like
// (a token of letters alone is as secret as one with digits):
// - the path segment after `/token/` (the portal's one-time token login, live-notes 26);
// - the value of a query key named like a secret (token, key, code, state, password, session, the change
//   change feed's pushDevice...);
// - the user and password of a URL (`mqtt://user:pass@host`);
// - every login and e-mail the config names or the portal listed, cut to a hint (`12…u`);
// - every secret value the config holds that a position cannot tell (Home Assistant's token): masked whole.
import { hint } from './text.js';

/** A query key whose value opens something or names a session: its value goes, whatever it holds. */
const SECRET_QUERY = /([?&;](?:[\w.-]*?(?:token|key|secret|passw(?:or)?d|pass|code|state|session|sid|auth|device)[\w.-]*)=)[^&#\s"'<>\\]*/gi;
/** The one-time token of the portal's token login, in a path: `/loguj/token/<T>/przenies/...`. */
const TOKEN_SEGMENT = /(\/token\/)[^/?#\s"'<>\\]+/gi;
/** A URL's credentials: `scheme://user:password@`. */
const URL_CREDENTIALS = /([a-z][a-z0-9+.-]*:\/\/)[^/@\s"'<>\\]+@/gi;

/** The logins and e-mails to cut to a hint: the config's, and those the family portal listed. */
export class KnownNames {
  private readonly names = new Set<string>();
  private readonly secrets = new Set<string>();
  private pattern: RegExp | undefined;

  /** Adds names (empty ones are ignored); each is matched without regard to case. */
  add(...names: readonly (string | undefined)[]): void {
    for (const key of names.map((name) => name?.trim())) {
      if (!key || this.names.has(key)) continue;
      this.names.add(key);
      this.pattern = undefined;
    }
  }

  /** A secret value (a token), masked whole wherever it stands. */
  secret(value: string | undefined): void {
    if (value !== undefined && value.trim().length >= 8) this.secrets.add(value.trim());
  }

  /** The names, to hand on to another set. */
  list(): string[] {
    return [...this.names];
  }

  /** Every login and e-mail of a config: login entries, e-mail entries and the children they list. */
  addConfig(config: {
    accounts: readonly { login: string }[];
    families?: readonly { email: string; children?: readonly { login: string }[] | undefined }[];
    homeassistant?: { token?: string | undefined } | undefined;
    supervisor?: { token: string } | undefined;
  }): void {
    for (const account of config.accounts) this.add(account.login);
    for (const family of config.families ?? []) this.add(family.email, ...(family.children ?? []).map((c) => c.login));
    this.secret(config.homeassistant?.token);
    this.secret(config.supervisor?.token);
  }

  /** The text with every known name cut to its hint (longest names first, so an e-mail's login part is not cut alone). */
  cut(text: string): string {
    for (const secret of this.secrets) text = text.replaceAll(secret, '…');
    if (this.names.size === 0) return text;
    this.pattern ??= new RegExp(
      [...this.names]
        .sort((a, b) => b.length - a.length)
        .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('|'),
      'gi',
    );
    return text.replace(this.pattern, (found) => hint(found));
  }
}

/** The names of this process: what the bridge's config names and the family portal listed. */
export const knownNames = new KnownNames();

/** The text with the secrets found by position masked, and the known names cut to a hint. */
export function redact(text: string, names: KnownNames = knownNames): string {
  const masked = text.replace(TOKEN_SEGMENT, '$1…').replace(SECRET_QUERY, '$1…').replace(URL_CREDENTIALS, '$1…@');
  return names.cut(masked);
}

/**
 * A text from outside (Home Assistant's error, the portal's words) made fit to log or keep: its secrets
 * masked first, and only then cut to `max` characters. Cut first, a token split by the cut is no longer
 * whole, and what stood before the cut would go out unmasked.
 */
export function redactAndCut(text: string, max: number, names: KnownNames = knownNames): string {
  const masked = redact(text, names);
  return masked.length <= max ? masked : `${masked.slice(0, max - 1)}…`;
}

/** A path with the segment after `/token/` masked (the transcript's addresses). */
export function redactPath(path: string): string {
  return path.replace(TOKEN_SEGMENT, '$1…');
}
