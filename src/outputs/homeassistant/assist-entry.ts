// Assist's entry in Home Assistant (interface 16.4): the Model Context Protocol integration pointed at the MCP server,
// at the address Home Assistant reaches the bridge by, its key the web token. Its flow aborts when an entry has its
// very address (this server, this key): that one is the bridge's, whoever made it. The entry it stands in for (an
// old key, a predecessor's address) is deleted once the new one stands.
import type { HomeAssistantConfig } from '../../config/schema.js';
import { flowRefused, type FlowOutcome } from './client.js';
import { assistEntry, keptUrl, MCP, type Wanted } from './steps.js';
import { mcpUrl } from '../web/token.js';
import type { Known } from './made.js';
import type { Kept } from './kept.js';

/** Assist's entry as wanted: with `assist` on, once the web server serves and its token is known. */
export function assistWanted(config: Pick<HomeAssistantConfig, 'assist' | 'public_url'>, token: string | undefined): Wanted[] {
  return config.assist && config.public_url !== undefined && token !== undefined ? [assistEntry(mcpUrl(config.public_url, token))] : [];
}

/** Assist's entry after its flow (`replaces`: the one it stands in for). */
export async function madeAssist(kept: Kept, want: Wanted, outcome: FlowOutcome, replaces: Known | undefined): Promise<void> {
  const url = keptUrl(want);
  if ('made' in outcome) {
    // Home Assistant titles an MCP entry by the server's name; the bridge keeps the title it was given.
    kept.remember(want.key, { entry: outcome.made.entry_id, title: outcome.made.title, by: 'bridge', ...(url ? { url } : {}) });
    kept.log.info({ title: outcome.made.title }, 'made in Home Assistant');
    await replaced(kept, replaces, outcome.made.entry_id);
  } else if ('aborted' in outcome && outcome.aborted === 'already_configured') {
    // Home Assistant shows no entry's address: the entry is the one of the server's name, the newer when the old is listed too.
    const named = (await kept.api.entries()).filter((e) => e.domain === MCP && e.title === want.title);
    const found = named.length > 1 ? named.find((e) => e.entry_id !== replaces?.entry) : named[0];
    kept.remember(want.key, { entry: found?.entry_id ?? null, title: found?.title ?? want.title, by: 'bridge', ...(url ? { url } : {}) });
    kept.log.info({ title: want.title }, "already in Home Assistant at this bridge's address: taken as the bridge's");
    await replaced(kept, replaces, found?.entry_id);
  } else throw flowRefused(want, outcome);
}

/** The entry a new one stands in for, deleted (one deleted meanwhile is gone already). */
async function replaced(kept: Kept, old: Known | undefined, current: string | undefined): Promise<void> {
  if (old?.entry === undefined || old.entry === null || old.entry === current) return;
  await kept.api.deleteEntry(old.entry);
  kept.log.info({ title: old.title }, 'the entry it stands in for deleted from Home Assistant');
}
