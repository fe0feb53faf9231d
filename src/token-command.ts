// `token --rotate`: a new access token for the web server (and with it new keys for every feed), and
// the addresses that now hold them. A
// running bridge needs no restart: it looks at the token file on every request (web/token-file.ts), so
// from its next request on the old feed addresses and board cookies open nothing, and the event
// streams opened with them are ended.
import { announcedChildren } from './dashboard.js';
import { formatWebUrls, metricsLine, rotateToken, webBaseUrl, webUrls } from './web/token.js';
import type { Config } from './config/schema.js';

export interface TokenRotationOptions {
  config: Config;
  out: { write(text: string): unknown };
}

export async function runTokenRotation(options: TokenRotationOptions): Promise<number> {
  const { http, data_dir } = options.config;
  let token: string;
  try {
    token = await rotateToken(data_dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    options.out.write(`token: cannot write a new access token into ${data_dir} (${code}); the old one stays in force\n`);
    return 1;
  }
  const lines = ['New access token made. The old addresses and board cookies no longer open anything (a running bridge too, from its next request).'];
  if (http.port === 0) {
    lines.push('The web server is off (http.port is 0): the token counts once it is turned on.');
  } else {
    const { children, unknown } = await announcedChildren(options.config);
    const base = webBaseUrl(http.bind, http.port);
    const urls = webUrls(
      base,
      children.map((c) => c.id),
      token,
    );
    lines.push(
      'Open the board once with its new address on each tablet, and give calendar apps the new feed addresses (each feed has a new key of its own; keep them private):',
    );
    lines.push(...formatWebUrls(urls));
    if (http.metrics) lines.push(metricsLine(base, token));
    if (unknown.length > 0)
      lines.push(`  (the feeds of ${unknown.join(', ')} follow once the bridge or check has named the child: dziennik2mqtt check --show-token)`);
  }
  options.out.write(`${lines.join('\n')}\n`);
  return 0;
}
