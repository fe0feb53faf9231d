// The web server's access token (interface 6.1): made at first start, kept in data_dir (0600) and
// reused after; compared in constant time. The keys derived from it (the board's cookie, each calendar feed's
// own key), and the URLs a person opens, with or without them. A running bridge sees the token as the file
// holds it now (LiveToken): `dziennik2mqtt token --rotate` (another process) writes a new one, and the
// server stops taking the old one without a restart. The token and every key made from it are masked wherever
// they would stand (util/redact.ts), from the moment the bridge holds or makes one.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { writeFileAtomic } from '../../util/files.js';
import { readStoredText } from '../../util/stored.js';
import { knownNames } from '../../util/redact.js';
import { CALENDAR_FEED_NAMES, type CalendarFeedName } from '../../rules/calendar-feeds.js';
import { ADDRESS_WORDS } from '../../i18n/address-words.js';
import { FALLBACK_LANGUAGE, type Language } from '../../config/language.js';

export const TOKEN_FILE = 'http-token';

/** What a token file may hold: a hand-written one is taken too, if it is long enough to guess hard. */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,256}$/;

/**
 * The token in data_dir, made (32 random bytes, base64url) when there is none or it is unusable (then
 * the unusable file is moved aside, told to onBroken, as every broken file in data_dir). `created` is
 * true when this call made it (the first start): only then are the full URLs printed.
 */
export async function loadOrCreateToken(dataDir: string, onBroken?: (error: Error) => void): Promise<{ value: string; created: boolean }> {
  const existing = await readStoredText(join(dataDir, TOKEN_FILE), z.string().regex(TOKEN_SHAPE), { onBroken });
  if (existing !== undefined) return { value: maskedToken(existing), created: false };
  return { value: await rotateToken(dataDir), created: true };
}

/**
 * A new token in data_dir, in place of the old one (`dziennik2mqtt token --rotate`): the old calendar feed
 * addresses and board cookies stop working, in a running bridge too (it reads the file again when it
 * changes, see LiveToken).
 */
export async function rotateToken(dataDir: string): Promise<string> {
  const value = maskedToken(randomBytes(32).toString('base64url'));
  await writeFileAtomic(join(dataDir, TOKEN_FILE), `${value}\n`);
  return value;
}

/** The token in data_dir as it stands, read only (the diagnostics: nothing made, nothing moved aside), masked from now on; undefined when there is none. */
export function peekToken(dataDir: string): string | undefined {
  try {
    const text = readFileSync(join(dataDir, TOKEN_FILE), 'utf8').trim();
    return TOKEN_SHAPE.test(text) ? maskedToken(text) : undefined;
  } catch {
    return undefined;
  }
}

/** A token, and the keys made from it that name no child (the board's cookie, the metrics' key), masked wherever they would stand; the token handed back. */
function maskedToken(token: string): string {
  knownNames.secret(token);
  cookieFor(token);
  metricsKey(token);
  return token;
}

/** A key made from the token, masked wherever it would stand from now on; handed back. */
function maskedKey(key: string): string {
  knownNames.secret(key);
  return key;
}

/**
 * What the board's cookie holds: an HMAC keyed by the token. It opens the board as the token does, but
 * cannot be turned back into the token, and it stops working when the token is rotated.
 */
export function cookieFor(token: string): string {
  return maskedKey(createHmac('sha256', token).update('dziennik2mqtt board cookie').digest('base64url'));
}

/**
 * The key of one calendar feed (`?key=`): an HMAC keyed by the token over the child and the calendar feed, so
 * it opens that calendar feed alone. A calendar feed address synced to a phone's cloud then gives neither the board nor
 * another calendar feed nor the token, and `token --rotate` renews every key with the token.
 */
export function calendarFeedKey(token: string, child: string, calendarFeed: CalendarFeedName): string {
  return maskedKey(createHmac('sha256', token).update(`dziennik2mqtt feed\0${child}\0${calendarFeed}`).digest('base64url'));
}

/**
 * The key of `/metrics` (`?key=`, or a bearer token): an HMAC keyed by the token, so that a Prometheus
 * scrape config holds a key that opens the metrics alone; `token --rotate` renews it.
 */
export function metricsKey(token: string): string {
  return maskedKey(createHmac('sha256', token).update('dziennik2mqtt metrics').digest('base64url'));
}

/**
 * Whether `given` is the token. Both sides are hashed first, so the comparison takes the same time
 * whatever their lengths and wherever they first differ.
 */
export function tokenMatches(given: string | undefined, token: string): boolean {
  if (given === undefined || given === '') return false;
  const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(token));
}

/** Stands for the host's address where the bridge cannot know it (inside a container). */
export const HOST_PLACEHOLDER = '<this-machine>';

/** Docker (also the add-on) or Podman: the container's own address means nothing outside it. */
function inContainer(): boolean {
  return existsSync('/.dockerenv') || existsSync('/run/.containerenv');
}

/**
 * The base URL a person on the home network would type: the bound address, or this machine's own;
 * in a container, HOST_PLACEHOLDER (the container's address is not the one to type).
 */
export function webBaseUrl(bind: string, port: number, container = inContainer()): string {
  const host = bind !== '0.0.0.0' && bind !== '::' ? bind : container ? HOST_PLACEHOLDER : (ownAddresses()[0] ?? '127.0.0.1');
  return `http://${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}

/** This machine's IPv4 addresses on its networks (not the loopback). */
export function ownAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((a) => a.family === 'IPv4' && !a.internal)
    .map((a) => a.address);
}

/**
 * The board's and every child's calendar feed URLs (per child, each calendar feed it has: `calendarFeedsOf`, every one
 * where its kind is not known): with a token, the board's with `?token=` and each calendar feed's with its own `?key=`;
 * without one, the bare addresses (what the start-up lines and logs show).
 */
export function webUrls(
  base: string,
  children: readonly string[],
  token?: string,
  calendarFeedsOf: (child: string) => readonly CalendarFeedName[] = () => CALENDAR_FEED_NAMES,
) {
  return {
    board: token === undefined ? `${base}/` : `${base}/?token=${encodeURIComponent(token)}`,
    calendarFeeds: children.map((child) => ({ child, urls: calendarFeedsOf(child).map((name) => calendarFeedUrl(base, child, name, token)) })),
  };
}

/** One calendar feed's address: with its own key when a token is given (Home Assistant's Remote Calendar takes it so). */
export function calendarFeedUrl(base: string, child: string, name: CalendarFeedName, token?: string): string {
  const key = token === undefined ? '' : `?key=${calendarFeedKey(token, child, name)}`;
  return `${base}/calendar/${encodeURIComponent(child)}/${name}.ics${key}`;
}

/**
 * The MCP server's address (interface 16.4) with the web token as its `?key=`: what Home Assistant's Model
 * Context Protocol entry and any other MCP client are given.
 */
export function mcpUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/mcp?key=${encodeURIComponent(token)}`;
}

/** `/metrics` with its own key (http.metrics on), as a line for `check --show-token` and `token --rotate`. */
export function metricsLine(base: string, token: string, language: Language = FALLBACK_LANGUAGE): string {
  return addressLine(ADDRESS_WORDS[language].metrics, `${base}/metrics?key=${metricsKey(token)}`, language);
}

/** The URLs as plain lines (start-up on stdout, `check`), labelled in the family's language. */
export function formatWebUrls(urls: ReturnType<typeof webUrls>, language: Language = FALLBACK_LANGUAGE): string[] {
  return [
    addressLine(ADDRESS_WORDS[language].board, urls.board, language),
    ...urls.calendarFeeds.flatMap(({ child, urls: list }) => list.map((url) => `  ${child}: ${inWords(url, language)}`)),
  ];
}

/** One labelled address, the addresses of a block aligned: `  board:    http://...`. */
export function addressLine(label: string, url: string, language: Language = FALLBACK_LANGUAGE): string {
  return `  ${`${label}:`.padEnd(9)} ${inWords(url, language)}`;
}

/** An address with the container's stand-in for the host in the family's words. */
function inWords(url: string, language: Language): string {
  return url.replace(HOST_PLACEHOLDER, ADDRESS_WORDS[language].thisMachine);
}

/**
 * The token as the file holds it now: the file's identity (inode, size, mtime) is looked at on every
 * request, a stat of a few microseconds, and the file is read again only when it changed, so a rotation
 * counts from the next request on.
 */
export class LiveToken {
  private readonly path: string;
  private value: string;
  private seen: string;
  private readonly listeners = new Set<() => void>();

  /** `initial` is the token just loaded from the file (loadOrCreateToken). */
  constructor(dataDir: string, initial: string) {
    this.path = join(dataDir, TOKEN_FILE);
    this.value = initial;
    this.seen = this.identity() ?? '';
  }

  /**
   * The token now. A file that is gone, unreadable or malformed leaves the last good token in force:
   * a half-edited file must not lock the family out, nor open the server.
   */
  current(): string {
    const identity = this.identity();
    if (identity === undefined || identity === this.seen) return this.value;
    this.seen = identity;
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8').trim();
    } catch {
      return this.value;
    }
    if (!TOKEN_SHAPE.test(text) || text === this.value) return this.value;
    this.value = maskedToken(text);
    for (const listener of this.listeners) listener();
    return this.value;
  }

  /** Called after the token changed (open event streams, let in with the old one, are ended). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private identity(): string | undefined {
    try {
      const stats = statSync(this.path);
      return `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
    } catch {
      return undefined;
    }
  }
}
