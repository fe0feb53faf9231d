// One redaction for everything that may end up in a public bug report: a log line, an error's message,
// the login transcript, the diagnostics bundle, what is kept of another's answer. It masks by position,
// never by what a value looks like (a token of letters alone is as secret as one with digits):
// - the path segment after `/token/` (the portal's one-time token login, live-notes 26);
// - the value of a query key named like a secret (token, key, code, state, password, session, the change
//   feed's pushDevice...), its `?`, `&` and `=` as written or percent-encoded (an address quoted in another's answer);
// - whatever follows `Bearer`;
// - the user and password of a URL (`mqtt://user:pass@host`);
// - every login and e-mail the config names or the portal listed, cut to a hint (`12…u`);
// and by value, every secret the bridge holds (interface 18.4: the portal's and the broker's passwords, Home
// Assistant's token, the web token and each key made from it, the cookies the portal set): masked wherever it
// stands, as written, percent-encoded, JSON-escaped; of a long one, any run of FRAGMENT of its characters too
// (another's answer cut in the middle of it), so that no part long enough to guess from is left.
import { hint } from './text.js';

/** A query key whose value opens something or names a session: its value goes, whatever it holds (`%26` ends it as `&` does). */
const SECRET_QUERY =
  /((?:[?&;]|%3F|%26|%3B)(?:[\w.-]*?(?:token|key|secret|passw(?:or)?d|pass|code|state|session|sid|auth|device)[\w.-]*)(?:=|%3D))(?:(?!%26|%23)[^&#\s"'<>\\])*/gi;
/** The one-time token of the portal's token login, in a path: `/loguj/token/<T>/przenies/...`. */
const TOKEN_SEGMENT = /(\/token\/)[^/?#\s"'<>\\]+/gi;
/** A URL's credentials: `scheme://user:password@`. */
const URL_CREDENTIALS = /([a-z][a-z0-9+.-]*:\/\/)[^/@\s"'<>\\]+@/gi;
/** A bearer token, whosever it is, as a header or a text quotes it (`Bearer x`, `Bearer%20x`, `Bearer+x`). */
const BEARER = /(\bBearer(?:\s+|%20|\+))[^\s"'<>\\,;&]+/gi;

/** A run of this many characters of a secret is masked wherever it stands; a secret this long or longer is searched for in parts. */
export const FRAGMENT = 12;
/** The parts a long secret is searched by: GRAM characters at every STEP, so that any run of FRAGMENT holds one whole. */
const GRAM = 8;
const STEP = FRAGMENT - GRAM + 1;
/** The cookies the portal set, masked as the other secrets: the newest this many (a session's cookies change all day). */
const COOKIES_KEPT = 256;

/** The forms a secret may stand in: as written, percent-encoded (as a form, as Python quotes a path, either case), JSON-escaped (also as ASCII, `\/`). */
function formsOf(value: string): string[] {
  const percent = encodeURIComponent(value);
  const json = JSON.stringify(value).slice(1, -1);
  const forms = [value, percent, percent.replace(/%20/g, '+'), percent.replace(/%2F/g, '/'), json, json.replaceAll('/', '\\/')];
  forms.push(json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  for (const form of [...forms]) if (/%[0-9A-F]{2}/.test(form)) forms.push(form.replace(/%[0-9A-F]{2}/g, (code) => code.toLowerCase()));
  return [...new Set(forms)];
}

/** One place a secret may start at in a text: a gram of one of its forms, at `at` in the form (0 for a form searched whole). */
interface Gram {
  /** The secret or cookie the form is of (what leaves the index with it). */
  owner: string;
  gram: string;
  form: string;
  at: number;
  whole: boolean;
}

/**
 * Where each secret may stand, by the GRAM characters it would start with there: a form searched in parts (FRAGMENT or
 * longer) by each of its grams, a form searched whole by its first. A text is then read once, a gram at each place, and
 * its cost does not grow with the secrets held (a session's cookies, hundreds of them in a long run); a secret that
 * comes or goes changes its own entries only.
 */
class GramIndex {
  /** By the first two characters of each gram (read from a text without making a string), the grams starting so. */
  private readonly grams = new Map<number, Gram[]>();

  /** The forms of `owner`; `inParts`: a long form is searched in parts (a secret), else every form whole (a cookie). */
  add(owner: string, forms: readonly string[], inParts: boolean): void {
    for (const g of gramsOf(owner, forms, inParts)) {
      const key = pairAt(g.gram, 0);
      const list = this.grams.get(key);
      if (list === undefined) this.grams.set(key, [g]);
      else list.push(g);
    }
  }

  remove(owner: string, forms: readonly string[], inParts: boolean): void {
    for (const { gram } of gramsOf(owner, forms, inParts)) {
      const key = pairAt(gram, 0);
      const left = this.grams.get(key)?.filter((g) => g.owner !== owner) ?? [];
      if (left.length === 0) this.grams.delete(key);
      else this.grams.set(key, left);
    }
  }

  /** Where in `text` a form stands whole, or a run of FRAGMENT or more of a form searched in parts: [start, end) each. */
  found(text: string): [number, number][] {
    const ranges: [number, number][] = [];
    if (this.grams.size === 0) return ranges;
    for (let at = 0; at + GRAM <= text.length; at++) {
      const here = this.grams.get(pairAt(text, at));
      if (here === undefined) continue;
      for (const { gram, form, at: from, whole } of here) {
        if (!text.startsWith(gram, at)) continue;
        if (whole) {
          if (text.startsWith(form, at)) ranges.push([at, at + form.length]);
          continue;
        }
        let [start, i] = [at, from];
        while (start > 0 && i > 0 && text[start - 1] === form[i - 1]) [start, i] = [start - 1, i - 1];
        let [end, to] = [at + GRAM, from + GRAM];
        while (end < text.length && to < form.length && text[end] === form[to]) [end, to] = [end + 1, to + 1];
        if (end - start >= FRAGMENT) ranges.push([start, end]);
      }
    }
    return ranges;
  }
}

/** The grams `owner`'s forms are found by (GramIndex.add). */
function gramsOf(owner: string, forms: readonly string[], inParts: boolean): Gram[] {
  const grams: Gram[] = [];
  const gram = (form: string, at: number, whole: boolean) => grams.push({ owner, gram: form.slice(at, at + GRAM), form, at, whole });
  for (const form of forms) {
    if (!inParts || form.length < FRAGMENT) gram(form, 0, true);
    else for (let at = 0; at + GRAM <= form.length; at += STEP) gram(form, at, false);
  }
  return grams;
}

/** The two characters at `at` as one small integer (a map's key that needs no string made). */
function pairAt(text: string, at: number): number {
  return ((text.charCodeAt(at) & 0x3fff) << 16) | text.charCodeAt(at + 1);
}

/** `text` with each range replaced by `…` (overlapping and touching ranges as one). */
function masked(text: string, ranges: [number, number][]): string {
  if (ranges.length === 0) return text;
  const sorted = ranges.sort((a, b) => a[0] - b[0]);
  let out = '';
  let done = 0;
  for (const [start, end] of sorted) {
    if (end <= done) continue;
    out += `${text.slice(done, Math.max(start, done))}${start >= done ? '…' : ''}`;
    done = end;
  }
  return out + text.slice(done);
}

/** The logins and e-mails to cut to a hint: the config's, and those the family portal listed. */
export class KnownNames {
  private readonly names = new Set<string>();
  /** Each secret's forms, by the secret: searched in parts when long, replaced whole when short. */
  private readonly secrets = new Map<string, string[]>();
  private readonly cookies = new Map<string, string[]>();
  private pattern: RegExp | undefined;
  /** The secrets' and cookies' forms by gram. */
  private readonly index = new GramIndex();

  /** Adds names (empty ones are ignored); each is matched without regard to case. */
  add(...names: readonly (string | undefined)[]): void {
    for (const key of names.map((name) => name?.trim())) {
      if (!key || this.names.has(key)) continue;
      this.names.add(key);
      this.pattern = undefined;
    }
  }

  /** A secret value (a password, a token, a key), masked wherever it stands, in any of its forms; one under 8 characters is not. */
  secret(value: string | undefined): void {
    const key = value?.trim();
    if (key === undefined || key.length < GRAM || this.secrets.has(key)) return;
    this.holdSecret(key, formsOf(key));
  }

  /** A cookie's value the portal set: masked whole in each of its forms, the newest COOKIES_KEPT of them. */
  cookie(value: string | undefined): void {
    const key = value?.trim();
    if (key === undefined || key.length < GRAM || this.cookies.has(key) || this.secrets.has(key)) return;
    this.holdCookie(key, formsOf(key));
    if (this.cookies.size <= COOKIES_KEPT) return;
    const [oldest, forms] = this.cookies.entries().next().value as [string, string[]];
    this.cookies.delete(oldest);
    this.index.remove(oldest, forms, false);
  }

  /** The names, to hand on to another set. */
  list(): string[] {
    return [...this.names];
  }

  /** Another set with this one's names and secrets, to which more may be added without changing this one. */
  copy(): KnownNames {
    const other = new KnownNames();
    other.add(...this.names);
    for (const [secret, forms] of this.secrets) other.holdSecret(secret, forms);
    for (const [cookie, forms] of this.cookies) other.holdCookie(cookie, forms);
    return other;
  }

  private holdSecret(secret: string, forms: string[]): void {
    this.secrets.set(secret, forms);
    this.index.add(secret, forms, true);
  }

  private holdCookie(cookie: string, forms: string[]): void {
    this.cookies.set(cookie, forms);
    this.index.add(cookie, forms, false);
  }

  /** Every login and e-mail of a config cut to a hint, and every secret it holds masked: passwords, tokens. */
  addConfig(config: {
    accounts: readonly { login: string; password?: string }[];
    families?: readonly { email: string; password?: string; children?: readonly { login: string }[] | undefined }[];
    mqtt?: { password?: string | undefined } | undefined;
    homeassistant?: { token?: string | undefined } | undefined;
    supervisor?: { token: string } | undefined;
  }): void {
    for (const account of config.accounts) {
      this.add(account.login);
      this.secret(account.password);
    }
    for (const entry of config.families ?? []) {
      this.add(entry.email, ...(entry.children ?? []).map((c) => c.login));
      this.secret(entry.password);
    }
    this.secret(config.mqtt?.password);
    this.secret(config.homeassistant?.token);
    this.secret(config.supervisor?.token);
  }

  /** The text with every secret masked in whichever form it stands, then every known name cut to its hint (the longest first). */
  cut(text: string): string {
    text = this.secretsMasked(text);
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

  /** The text with each secret's forms masked: a short form where it stands whole, a long one wherever FRAGMENT of it stand; a cookie whole. */
  secretsMasked(text: string): string {
    return masked(text, this.index.found(text));
  }
}

/** The names of this process: what the bridge's config names and the family portal listed. */
export const knownNames = new KnownNames();

/** The text with the secrets found by position masked, and the known names cut to a hint. */
export function redact(text: string, names: KnownNames = knownNames): string {
  // The secrets by value first: a position's rule may leave a part of one (a key cut short before its `&`).
  const byValue = names.cut(text);
  return byValue.replace(TOKEN_SEGMENT, '$1…').replace(SECRET_QUERY, '$1…').replace(BEARER, '$1…').replace(URL_CREDENTIALS, '$1…@');
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

/**
 * A text made of what the school wrote (an Assist answer) with every secret the bridge holds masked, and nothing
 * else touched: no login is cut, no address's query is, there being none of the bridge's own in it.
 */
export function maskSecrets(text: string, names: KnownNames = knownNames): string {
  return names.secretsMasked(text);
}

/** A path with the segment after `/token/` masked (the transcript's addresses). */
export function redactPath(path: string): string {
  return path.replace(TOKEN_SEGMENT, '$1…');
}
