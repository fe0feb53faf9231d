// The transcript of `check --trace FILE`: each request of an account's login and first reads, in a
// shape a family can attach to a bug report. It keeps what shows how the portal's login runs (paths,
// statuses, which cookies are set, the body's shape) and never a value that opens or names anything:
// no password, no cookie or token value, no `code` or `state`, no child's data.
import { CAPTCHA_MARKERS, REQUIRED_ACTIONS_MARKER } from './login.js';
import { header, pathOf, safeOrigin, type HttpExchange, type HttpResponse } from './http.js';
import type { PortalUrls } from '../config/schema.js';
import { redact, redactAndCut, redactPath } from '../util/redact.js';
import { parsedJson } from '../util/text.js';

/** Query parameters whose values are the same for everyone and say how the login runs. */
const PUBLIC_QUERY = new Set(['client_id', 'response_type', 'scope', 'action']);
const MAX_TITLE = 60;
/** What the transcript calls each configured host. */
const ROLES = { base_url: 'portal', auth_url: 'auth', messages_url: 'messages', sandbox_url: 'sandbox', family_url: 'family' } as const;

export class LoginTrace {
  private readonly lines: string[] = [];
  private count = 0;

  constructor(private readonly urls: PortalUrls) {}

  /** Starts an account's part (numbered: the login itself is not written). */
  account(n: number): void {
    this.lines.push('', `## account ${n}`);
    this.count = 0;
  }

  record(exchange: HttpExchange): void {
    this.count++;
    const head = `${this.count}. ${exchange.method} ${this.address(exchange.url)}`;
    if (!exchange.response) {
      this.lines.push(`${head} -> no answer (${exchange.failure ?? 'error'})`);
      return;
    }
    const res = exchange.response;
    const parts = [`${head} -> ${res.status}`];
    if (res.location !== undefined) parts.push(`   Location: ${this.address(res.location)}`);
    const cookies = cookiesSet(res.headers['set-cookie']);
    if (cookies.length > 0) parts.push(`   cookies set: ${cookies.join(', ')}`);
    const type = header(res, 'content-type');
    if (type !== undefined) parts.push(`   content type: ${type.split(';')[0]?.trim()}`);
    parts.push(`   body: ${bodyShape(res)}`);
    this.lines.push(parts.join('\n'));
  }

  /** A closing line for an account: where its login stopped, or that it worked. */
  outcome(text: string): void {
    this.lines.push(`=> ${text}`);
  }

  /** The lines so far, one request's lines after another (the diagnostics bundle keeps the last login's). */
  entries(): string[] {
    return this.lines.flatMap((line) => redact(line).split('\n'));
  }

  text(header: string): string {
    return redact(`${header}\n${this.lines.join('\n')}\n`);
  }

  /** Host role, path, and the query with every value but the public ones hidden. */
  private address(url: string): string {
    if (!URL.canParse(url)) return '(invalid address)';
    const parsed = new URL(url);
    const query = [...parsed.searchParams.keys()].map((key) => (PUBLIC_QUERY.has(key) ? `${key}=${parsed.searchParams.get(key)}` : `${key}=…`));
    return `${this.role(parsed.origin)} ${maskIds(pathOf(url))}${query.length === 0 ? '' : `?${query.join('&')}`}`;
  }

  private role(origin: string): string {
    return Object.entries(ROLES).find(([key]) => safeOrigin(this.urls[key as keyof typeof ROLES]) === origin)?.[1] ?? 'other host';
  }
}

/**
 * A path segment that holds an id (a number of 3 digits or more, a LID) names a person or a record:
 * <id>; the one after `/token/` is a one-time token, masked by its place whatever it holds.
 */
function maskIds(path: string): string {
  return redactPath(path)
    .split('/')
    .map((segment) => (/\d{3,}|LID-/i.test(segment) ? '<id>' : segment))
    .join('/');
}

/** "name (Path=/OAuth, Max-Age=31536000)" for each Set-Cookie: never its value. */
function cookiesSet(value: string | string[] | undefined): string[] {
  const lines = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return lines.map((line) => {
    const [pair = '', ...attributes] = line.split(';').map((p) => p.trim());
    const name = pair.slice(0, Math.max(0, pair.indexOf('='))) || '(unnamed)';
    const kept = attributes.filter((a) => /^(path|max-age)=/i.test(a));
    return kept.length === 0 ? name : `${name} (${kept.join(', ')})`;
  });
}

/** JSON: its keys and `status`; HTML: its title and the markers found; else its size. */
function bodyShape(res: HttpResponse): string {
  if (res.file) return `saved to a file (${res.file.size} bytes)`;
  if (res.body.length === 0) return 'empty';
  const text = res.text();
  const json = parsedJson(text);
  if (Array.isArray(json)) return `JSON list of ${json.length}`;
  if (json && typeof json === 'object') {
    const { status } = json as { status?: unknown };
    const shown = typeof status === 'string' && /^[a-z_]{1,20}$/i.test(status) ? `, status "${status}"` : '';
    return `JSON keys [${Object.keys(json).slice(0, 20).join(', ')}]${shown}`;
  }
  if (json !== undefined) return 'JSON value';
  // Not JSON: an HTML page or other text.
  const markers = [
    /name=["']?pass\b|id=["']?loginForm/i.test(text) ? 'login form' : undefined,
    CAPTCHA_MARKERS.test(text) ? 'captcha' : undefined,
    REQUIRED_ACTIONS_MARKER.test(text) ? 'requiredActions' : undefined,
    /Brak dostępu/.test(text) ? '"Brak dostępu"' : undefined,
  ].filter((m) => m !== undefined);
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.replace(/\s+/g, ' ').trim();
  const titled = title ? `, title "${redactAndCut(title, MAX_TITLE)}"` : '';
  const kind = /<html|<!doctype/i.test(text) ? 'HTML page' : 'text';
  return `${kind} of ${res.body.length} bytes${titled}${markers.length === 0 ? '' : `, markers: ${markers.join(', ')}`}`;
}
