// `check`'s lines on Home Assistant's API (interface 15.4): whether it answers with the config's token, and
// each child's calendars and homework list as the bridge would keep them: to be made, made, kept (the
// family's own of that name) or removed by the family. It reads what the bridge remembers and changes nothing.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../config/schema.js';
import { HomeAssistantApi, HomeAssistantError } from '../../homeassistant/client.js';
import { peekMemory } from '../../homeassistant/memory.js';
import { statusOf, wantedEntries } from '../../homeassistant/plan.js';
import { HOMEASSISTANT_TEXT } from '../../i18n/homeassistant-text.js';
import { feedUrl, TOKEN_FILE } from '../../web/token.js';
import { errorText } from '../../util/text.js';
import type { FeedName } from '../../rules/calendar-feeds.js';

/** False when the API is set and does not answer as it should; true otherwise (set and answering, or not set). */
export async function checkHomeAssistant(
  config: Config,
  out: { write(text: string): unknown },
  children: readonly { id: string; name: string }[],
): Promise<boolean> {
  const say = HOMEASSISTANT_TEXT[config.language];
  const ha = config.homeassistant;
  if (ha === undefined) {
    out.write(`\n${say.off}\n`);
    return true;
  }
  let present: Set<string>;
  try {
    present = new Set((await new HomeAssistantApi({ url: ha.url, token: ha.token ?? '', timeoutMs: 15_000 }).entries()).map((e) => e.entry_id));
  } catch (error) {
    const fault = error instanceof HomeAssistantError ? error.fault : 'server_error';
    out.write(`\nFAIL ${say.fails(ha.url, `${say.faults[fault]} (${errorText(error)})`)}\n`);
    return false;
  }
  // The feeds' keys as the running bridge gives them (the token the web server keeps); none yet before its first start.
  const token = (await readFile(join(config.data_dir, TOKEN_FILE), 'utf8').catch(() => undefined))?.trim();
  const why = config.http.port === 0 ? say.webOff : ha.public_url === undefined ? say.noPublicUrl : undefined;
  const base = ha.public_url;
  const address =
    why !== undefined || base === undefined
      ? undefined
      : (child: string, feed: FeedName) => (token === undefined ? '' : feedUrl(base, child, feed, token));
  const { entries } = await peekMemory(config.data_dir);
  const lines = wantedEntries(children, config.language, address).map((want) => {
    const known = entries[want.key];
    // Before the bridge's first start there is no token, so no address to compare: what was made counts as made.
    const compared = token === undefined && known?.url !== undefined ? { ...want, url: known.url } : want;
    return `     ${want.title}: ${say.status[statusOf(compared, known, present)]}`;
  });
  out.write([`\nOK   ${say.answers(ha.url)}`, ...lines, ...(why === undefined ? [] : [`     ${say.noCalendars(why)}`]), ''].join('\n'));
  return true;
}
