// How the web server writes an answer: every one with the security headers; a whole answer with its
// validators (ETag, Last-Modified) or 304 when the client has it; a file streamed from disk, never
// through a link; a plain text.
import { createHash } from 'node:crypto';
import { closeSync, constants, createReadStream, openSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebResponse } from './types.js';

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/**
 * A file streamed from disk; a read error cuts the answer short (its Content-Length then tells the
 * client). Opened before anything is sent, never through a link: the route checked the real path, and
 * a link put there since is refused (404).
 */
export function sendFile(res: ServerResponse, answer: WebResponse, path: string, headers: Record<string, string>, head: boolean): void {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return plain(res, 404, 'Not found.\n', {}, head);
  }
  res.writeHead(answer.status, { 'Cache-Control': 'private, no-cache', ...answer.headers, ...headers });
  if (head) {
    closeSync(fd);
    return void res.end();
  }
  const file = createReadStream('', { fd });
  file.on('error', () => res.destroy());
  res.on('close', () => file.destroy());
  file.pipe(res);
}

/** A whole answer, with its validators, or 304 when the client already has it. */
export function send(req: IncomingMessage, res: ServerResponse, answer: WebResponse, extra: Record<string, string>, head: boolean): void {
  const headers: Record<string, string> = { 'Cache-Control': 'private, no-cache', ...answer.headers, ...extra, ...SECURITY_HEADERS };
  const body = answer.body === undefined ? undefined : Buffer.isBuffer(answer.body) ? answer.body : Buffer.from(answer.body, 'utf8');
  if (body !== undefined) {
    headers.ETag = etagOf(body);
    if (answer.modifiedAt !== undefined && Number.isFinite(answer.modifiedAt)) headers['Last-Modified'] = new Date(answer.modifiedAt).toUTCString();
    if (answer.status === 200 && notModified(req, headers.ETag, answer.modifiedAt)) {
      const kept = new Set(['ETag', 'Last-Modified', 'Cache-Control', 'Set-Cookie', ...Object.keys(SECURITY_HEADERS)]);
      res.writeHead(304, Object.fromEntries(Object.entries(headers).filter(([name]) => kept.has(name))));
      return void res.end();
    }
    headers['Content-Length'] = String(body.length);
  }
  res.writeHead(answer.status, headers);
  res.end(head ? undefined : body);
}

/** A strong validator: the same bytes, the same tag, across restarts too. */
export function etagOf(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** If-None-Match decides when present (RFC 9110 13.2.2); If-Modified-Since only without it. */
function notModified(req: IncomingMessage, etag: string, modifiedAt: number | undefined): boolean {
  const match = req.headers['if-none-match'];
  if (match !== undefined) {
    return match.trim() === '*' || match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
  }
  const since = req.headers['if-modified-since'];
  if (since === undefined || modifiedAt === undefined) return false;
  const sinceMs = Date.parse(since);
  // HTTP dates have whole seconds: content changed within the second sent is not newer than it.
  return Number.isFinite(sinceMs) && Math.floor(modifiedAt / 1000) * 1000 <= sinceMs;
}

export function plain(res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}, head = false): void {
  const body = Buffer.from(text, 'utf8');
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(body.length),
    'Cache-Control': 'no-store',
    ...extra,
    ...SECURITY_HEADERS,
  });
  res.end(head ? undefined : body);
}
