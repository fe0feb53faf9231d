// What the bridge keeps in Home Assistant for each child (interface 15.4): a Remote Calendar entry per
// calendar feed and a Local To-do list for the homework; and for the whole bridge the Model Context Protocol
// entry that lets Assist ask the register (16.4). What to do about each, from what is wanted, what the
// bridge remembers making and the entries Home Assistant lists now. Pure: the keeper acts on it, `check`
// tells it.
import { createHash } from 'node:crypto';
import type { CalendarFeedName } from '../../rules/calendar-feeds.js';
import { offeredCalendarFeeds } from '../../features/calendar-feeds/calendar-feeds.js';
import { HOMEASSISTANT_TEXT, type EntryStatus, type ListKind } from '../../i18n/homeassistant-text.js';
import type { Language } from '../../config/language.js';
import type { Known } from './made.js';
import { MINUTE } from '../../util/duration.js';

export const REMOTE_CALENDAR = 'remote_calendar';
export const LOCAL_TODO = 'local_todo';
/** Home Assistant's Model Context Protocol integration (`components/mcp`). */
export const MCP = 'mcp';
/** The Model Context Protocol entry's key in what the bridge remembers: the bridge's own, no child's (no `/`). */
export const ASSIST_KEY = 'assist';
/** What Home Assistant titles the entry: the MCP server's name, as its initialize answers it. */
export const ASSIST_TITLE = 'dziennik2mqtt';

/**
 * One entry the bridge wants: a child's (its key `<child>/<kind>`) or the bridge's own (the MCP entry, no
 * child); `url` for a calendar (its calendar feed with its key) and for the MCP entry (the server with the token).
 */
export interface Wanted {
  key: string;
  child?: string;
  kind: ListKind | 'assist';
  domain: typeof REMOTE_CALENDAR | typeof LOCAL_TODO | typeof MCP;
  title: string;
  url?: string;
}

/** The Model Context Protocol entry at the MCP server's address (`mcpUrl`: the web token is its key). */
export function assistEntry(url: string): Wanted {
  return { key: ASSIST_KEY, kind: 'assist', domain: MCP, title: ASSIST_TITLE, url };
}

/** How long after its first look Assist's entry waits for a child it cannot name (a login that keeps failing). */
export const FAMILY_WAIT = 10 * MINUTE;

/**
 * Whether Assist's entry may be made now. Home Assistant lists the MCP server's tools as it sets the entry up and again
 * only 30 minutes later, and each tool's description names the family's children: the entry waits until every child
 * the bridge reads is named (`named`: how many are), or FAMILY_WAIT (`waited`: since the first look) for one that
 * cannot be read.
 */
export function familyNamed(children: { ids: readonly string[]; complete: boolean }, named: number, waited: number): boolean {
  return (children.complete && named >= children.ids.length) || waited >= FAMILY_WAIT;
}

/**
 * The address as the bridge remembers it in data_dir: a calendar's as it is (its key opens that calendar feed alone);
 * the MCP entry's with its key (the web token itself) replaced by a digest, so the file never holds the token.
 */
export function keptUrl(want: Pick<Wanted, 'domain' | 'url'>): string | undefined {
  if (want.domain !== MCP || want.url === undefined) return want.url;
  const url = new URL(want.url);
  const key = url.searchParams.get('key');
  if (key !== null) url.searchParams.set('key', `sha256:${createHash('sha256').update(key).digest('hex').slice(0, 16)}`);
  return url.toString();
}

/** The child a remembered key belongs to (`<child>/<kind>`); undefined for the bridge's own entry. */
export function childOfKey(key: string): string | undefined {
  const slash = key.lastIndexOf('/');
  return slash < 0 ? undefined : key.slice(0, slash);
}

/**
 * The entries of one child's calendars and homework list, named in the family's language ("Zofia – lekcje").
 * `schoolwork: false` for a child whose device declares no homework nor agenda (a kindergarten child):
 * no homework list and no agenda calendar, which would stay empty.
 */
export function wantedEntries(
  children: readonly { id: string; name: string; schoolwork?: boolean }[],
  language: Language,
  calendarFeedUrl: ((child: string, calendarFeed: CalendarFeedName) => string) | undefined,
): Wanted[] {
  const words = HOMEASSISTANT_TEXT[language].lists;
  return children.flatMap(({ id, name, schoolwork = true }) => [
    ...(calendarFeedUrl === undefined
      ? []
      : offeredCalendarFeeds(schoolwork).map(
          (calendarFeed): Wanted => ({
            key: `${id}/${calendarFeed}`,
            child: id,
            kind: calendarFeed,
            domain: REMOTE_CALENDAR,
            title: `${name} – ${words[calendarFeed]}`,
            url: calendarFeedUrl(id, calendarFeed),
          }),
        )),
    ...(schoolwork
      ? [{ key: `${id}/homework`, child: id, kind: 'homework', domain: LOCAL_TODO, title: `${name} – ${words.homework}` } satisfies Wanted]
      : []),
  ]);
}

export type Step =
  | { do: 'make'; want: Wanted }
  /** Made with another address, or one not known (a rotated key, a new public_url, a predecessor's): deleted and made again (the flow has no edit). */
  | { do: 'remake'; want: Wanted; known: Known }
  /** The family deleted it: remembered, never made again. */
  | { do: 'gone'; key: string }
  /** Its child left the config: the bridge's is deleted, the family's left; either forgotten. */
  | { do: 'remove'; key: string; known: Known };

/**
 * The steps that bring Home Assistant to what is wanted. `present`: the entry ids Home Assistant lists;
 * `children`: the id of every child the bridge reads, undefined while some are not known yet (nothing is
 * removed then: a child not listed yet is not a child removed).
 */
export function reconcile(
  wanted: readonly Wanted[],
  known: Readonly<Record<string, Known>>,
  present: ReadonlySet<string>,
  children: readonly string[] | undefined,
): Step[] {
  const steps: Step[] = [];
  for (const want of wanted) {
    const status = statusOf(want, known[want.key], present);
    const kept = known[want.key];
    if (status === 'would make') steps.push(kept === undefined ? { do: 'make', want } : { do: 'remake', want, known: kept });
    else if (status === 'removed by the family' && !kept?.gone) steps.push({ do: 'gone', key: want.key });
  }
  if (children === undefined) return steps;
  for (const [key, kept] of Object.entries(known)) {
    const child = childOfKey(key);
    if (child !== undefined && !children.includes(child)) steps.push({ do: 'remove', key, known: kept });
  }
  return steps;
}

/** How `check` and the diagnostics tell an entry: to be made (or made again), made, kept, deleted by the family. */
export function statusOf(want: Wanted, known: Known | undefined, present: ReadonlySet<string>): EntryStatus {
  if (known === undefined) return 'would make';
  if (known.gone || (known.entry !== null && !present.has(known.entry))) return 'removed by the family';
  // One the family made under another name at the calendar feed's address: Home Assistant does not say which, so it stays theirs.
  if (known.by === 'family' && known.entry === null) return 'kept';
  // Any other is the bridge's, whoever made it: a calendar follows the calendar feed's address and key, the MCP entry the server's.
  return want.url !== undefined && known.url !== keptUrl(want) ? 'would make' : 'made';
}
