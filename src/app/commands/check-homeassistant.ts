// `check`'s lines on Home Assistant's API (interface 15.4): whether it answers with the config's token, and
// each child's calendars and homework list as the bridge would keep them: to be made, made, kept (the
// family's own of that name) or removed by the family; then whether Home Assistant has Assist's Model
// Context Protocol entry, and its tools (16.4). It reads what the bridge remembers and changes nothing.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../config/schema.js';
import { HomeAssistantApi, HomeAssistantError, type HaEntry } from '../../outputs/homeassistant/client.js';
import { peekMade, type Known } from '../../outputs/homeassistant/made.js';
import { ASSIST_KEY, ASSIST_TITLE, assistEntry, MCP, statusOf, wantedEntries } from '../../outputs/homeassistant/steps.js';
import { HOMEASSISTANT_TEXT } from '../../i18n/homeassistant-text.js';
import { calendarFeedUrl, mcpUrl, TOKEN_FILE } from '../../outputs/web/token.js';
import { errorText } from '../../util/text.js';
import type { CalendarFeedName } from '../../rules/calendar-feeds.js';
import { HaSocket, socketUrl } from '../../outputs/homeassistant/statistics/socket.js';
import { peekStatistics } from '../../outputs/homeassistant/statistics/imported.js';
import { TOOLS } from '../../outputs/mcp/tools.js';

/** False when the API is set and does not answer as it should; true otherwise (set and answering, or not set). */
export async function checkHomeAssistant(
  config: Config,
  out: { write(text: string): unknown },
  children: readonly { id: string; name: string; schoolwork?: boolean }[],
): Promise<boolean> {
  const say = HOMEASSISTANT_TEXT[config.language];
  const ha = config.homeassistant;
  if (ha === undefined) {
    out.write(`\n${say.off}\n`);
    return true;
  }
  let listed: HaEntry[];
  try {
    listed = await new HomeAssistantApi({ url: ha.url, token: ha.token ?? '', timeoutMs: 15_000 }).entries();
  } catch (error) {
    const fault = error instanceof HomeAssistantError ? error.fault : 'server_error';
    out.write(`\nFAIL ${say.fails(ha.url, `${say.faults[fault]} (${errorText(error)})`)}\n`);
    return false;
  }
  // The calendar feeds' keys as the running bridge gives them (the token the web server keeps); none yet before its first start.
  const token = (await readFile(join(config.data_dir, TOKEN_FILE), 'utf8').catch(() => undefined))?.trim();
  const why = config.http.port === 0 ? say.webOff : ha.public_url === undefined ? say.noPublicUrl : undefined;
  const base = ha.public_url;
  const address =
    why !== undefined || base === undefined
      ? undefined
      : (child: string, calendarFeed: CalendarFeedName) => (token === undefined ? '' : calendarFeedUrl(base, child, calendarFeed, token));
  const present = new Set(listed.map((e) => e.entry_id));
  const { entries } = await peekMade(config.data_dir);
  const lines = wantedEntries(children, config.language, address).map((want) => {
    const known = entries[want.key];
    // Before the bridge's first start there is no token, so no address to compare: what was made counts as made.
    const compared = token === undefined && known?.url !== undefined ? { ...want, url: known.url } : want;
    return `     ${want.title}: ${say.status[statusOf(compared, known, present)]}`;
  });
  const assist = assistLines(config, listed, entries[ASSIST_KEY], token, why);
  out.write([`\nOK   ${say.answers(ha.url)}`, ...lines, ...(why === undefined ? [] : [`     ${say.noCalendars(why)}`]), ...assist, ''].join('\n'));
  return checkStatistics(config, out);
}

/** The WebSocket the statistics go through (reached, the token taken) and what the bridge imported so far; false when it fails. */
async function checkStatistics(config: Config, out: { write(text: string): unknown }): Promise<boolean> {
  const say = HOMEASSISTANT_TEXT[config.language];
  const ha = config.homeassistant;
  if (ha === undefined) return true;
  if (!ha.statistics) {
    out.write(`     ${say.statistics.off}\n`);
    return true;
  }
  const url = socketUrl(ha.url);
  try {
    (await HaSocket.open({ url, token: ha.token ?? '', timeoutMs: 15_000 })).close();
  } catch (error) {
    const fault = error instanceof HomeAssistantError ? error.fault : 'server_error';
    out.write(`${say.statistics.fails(url, `${say.faults[fault]} (${errorText(error)})`)}\n`);
    return false;
  }
  const kept = Object.values((await peekStatistics(config.data_dir)).statistics);
  const rows = kept.reduce((sum, s) => sum + s.values.filter((v) => v !== null).length, 0);
  out.write(`${say.statistics.answers(url)}\n${kept.length === 0 ? say.statistics.none : say.statistics.imported(kept.length, rows)}\n`);
  return true;
}

/**
 * Whether Home Assistant has Assist's Model Context Protocol entry: as the bridge keeps it through the flow
 * (would make, made, kept, removed by the family), or, where the flow is not the way (the app announces it
 * through the Supervisor; `assist: false`), whether Home Assistant lists it; then the tools it offers.
 */
function assistLines(
  config: Config,
  listed: readonly HaEntry[],
  known: Known | undefined,
  token: string | undefined,
  why: string | undefined,
): string[] {
  const say = HOMEASSISTANT_TEXT[config.language];
  const ha = config.homeassistant as NonNullable<Config['homeassistant']>;
  // send_message only where an account may write (write_messages), as the server offers it.
  const writes = [...config.accounts, ...config.families].some((a) => a.write_messages === true);
  const tools = say.assist.tools(
    TOOLS.map((tool) => tool.name)
      .filter((name) => name !== 'send_message' || writes)
      .join(', '),
  );
  if (!ha.assist || config.supervisor !== undefined) {
    const has = listed.some((e) => e.domain === MCP && e.title === ASSIST_TITLE);
    if (has) return [`     ${say.assist.present}`, tools];
    return [`     ${config.supervisor?.assist ? say.assist.absent : say.assist.off}`];
  }
  if (why !== undefined || ha.public_url === undefined) return [`     ${say.assist.notMade(why ?? say.noPublicUrl)}`];
  const present = new Set(listed.map((e) => e.entry_id));
  const want = assistEntry(mcpUrl(ha.public_url, token ?? ''));
  // Before the bridge's first start there is no token, so no address to compare: what was made counts as made.
  const compared = token === undefined && known?.url !== undefined ? { ...want, url: undefined } : want;
  return [`     ${say.assist.entry(say.status[statusOf(compared, known, present)])}`, tools];
}
