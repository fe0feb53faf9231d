// `token --rotate`: a new access token for the web server (and with it new keys for every calendar feed), and
// the addresses that now hold them. A
// running bridge needs no restart: it looks at the token file on every request (web/token.ts), so
// from its next request on the old calendar feed addresses and board cookies open nothing, and the event
// streams opened with them are ended.
import { announcedChildren, type DashboardOptions } from './dashboard.js';
import { formatWebUrls, metricsLine, rotateToken, webBaseUrl, webUrls } from '../../outputs/web/token.js';
import { TERMINAL_TEXT } from '../../i18n/terminal-text.js';
import { declaresAgenda, offeredCalendarFeeds } from '../../features/calendar-feeds/calendar-feeds.js';
import { errorText } from '../../util/text.js';

/** As `dashboard` is run, as far as a rotation reads it. */
export type TokenRotationOptions = Pick<DashboardOptions, 'config' | 'out'>;

export async function runTokenRotation(options: TokenRotationOptions): Promise<number> {
  const { http, data_dir, language } = options.config;
  const say = TERMINAL_TEXT[language];
  let token: string;
  try {
    token = await rotateToken(data_dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? errorText(error);
    options.out.write(`${say.tokenNotWritten(data_dir, code)}\n`);
    return 1;
  }
  const lines = [say.tokenMade];
  if (http.port === 0) {
    lines.push(say.tokenWebOff);
  } else {
    const { children, unknown } = await announcedChildren(options.config);
    const base = webBaseUrl(http.bind, http.port);
    const ids = children.map((c) => c.id);
    // Each child's calendar feeds as its device declares them: a kindergarten child has no agenda.
    const calendarFeeds = new Map(children.map((c) => [c.id, offeredCalendarFeeds(declaresAgenda(c.entities))]));
    const urls = webUrls(base, ids, token, (id) => calendarFeeds.get(id) ?? []);
    lines.push(say.tokenOpenAgain, ...formatWebUrls(urls, language));
    if (http.metrics) lines.push(metricsLine(base, token, language));
    if (unknown.length > 0) lines.push(say.tokenCalendarFeedsFollow(unknown.join(', ')));
  }
  options.out.write(`${lines.join('\n')}\n`);
  return 0;
}
