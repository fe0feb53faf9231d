// Reading the Cookie header and writing Set-Cookie values. Deliberately tiny and separate from the
// client's cookie jar (style rule 11): the simulator must not share a parser with what it tests.

/** Parses a Cookie request header into name -> value (the first value of a repeated name wins). */
export function parseCookieHeader(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name && !cookies.has(name)) cookies.set(name, value);
  }
  return cookies;
}

export interface CookieOptions {
  path?: string;
  maxAge?: number;
  httpOnly?: boolean;
}

/**
 * A host-only Set-Cookie value. No Domain and no Secure: the simulated hosts are plain http on
 * loopback addresses, and a Secure cookie would never be sent back over http.
 */
export function setCookie(name: string, value: string, options: CookieOptions = {}): string {
  const parts = [`${name}=${value}`, `Path=${options.path ?? '/'}`];
  if (options.maxAge !== undefined) parts.push(`Max-Age=${options.maxAge}`);
  if (options.httpOnly !== false) parts.push('HttpOnly');
  parts.push('SameSite=Lax');
  return parts.join('; ');
}

/**
 * A Set-Cookie value with a Max-Age given the Expires the portal writes beside it, by the portal's clock
 * at `at`: a client whose clock is apart from the portal's must keep it by its Max-Age (RFC 6265 5.3).
 */
export function withExpires(cookie: string, at: number): string {
  const maxAge = /;\s*Max-Age=(-?\d+)/i.exec(cookie)?.[1];
  if (maxAge === undefined || /;\s*Expires=/i.test(cookie)) return cookie;
  return `${cookie}; Expires=${new Date(at + Number(maxAge) * 1000).toUTCString()}`;
}
