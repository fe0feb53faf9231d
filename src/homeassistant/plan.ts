// What the bridge keeps in Home Assistant for each child (interface 15.4): a Remote Calendar entry per
// calendar feed and a Local To-do list for the homework, and what to do about each, from what is wanted,
// what the bridge remembers making and the entries Home Assistant lists now. Pure: the keeper acts on it,
// `check` tells it.
import { FEED_NAMES } from '../rules/calendar-feeds.js';
import { HOMEASSISTANT_TEXT, type EntryStatus, type ListKind } from '../i18n/homeassistant-text.js';
import type { Language } from '../config/language.js';
import type { Known } from './memory.js';

export const REMOTE_CALENDAR = 'remote_calendar';
export const LOCAL_TODO = 'local_todo';

/** One entry the bridge wants for a child; `url` for a calendar (its feed with its key). */
export interface Wanted {
  key: string;
  child: string;
  kind: ListKind;
  domain: typeof REMOTE_CALENDAR | typeof LOCAL_TODO;
  title: string;
  url?: string;
}

/**
 * The entries of one child's calendars and homework list, named in the family's language ("Zofia – lekcje").
 * `schoolwork: false` for a child whose device declares no homework nor agenda (a kindergarten child):
 * no homework list and no agenda calendar, which would stay empty.
 */
export function wantedEntries(
  children: readonly { id: string; name: string; schoolwork?: boolean }[],
  language: Language,
  feedUrl: ((child: string, feed: (typeof FEED_NAMES)[number]) => string) | undefined,
): Wanted[] {
  const words = HOMEASSISTANT_TEXT[language].lists;
  return children.flatMap(({ id, name, schoolwork = true }) => [
    ...(feedUrl === undefined
      ? []
      : FEED_NAMES.filter((feed) => schoolwork || feed !== 'agenda').map(
          (feed): Wanted => ({
            key: `${id}/${feed}`,
            child: id,
            kind: feed,
            domain: REMOTE_CALENDAR,
            title: `${name} – ${words[feed]}`,
            url: feedUrl(id, feed),
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
    if (!children.includes(key.slice(0, key.lastIndexOf('/')))) steps.push({ do: 'remove', key, known: kept });
  }
  return steps;
}

/** How `check` and the diagnostics tell an entry: to be made (or made again), made, kept, deleted by the family. */
export function statusOf(want: Wanted, known: Known | undefined, present: ReadonlySet<string>): EntryStatus {
  if (known === undefined) return 'would make';
  if (known.gone || (known.entry !== null && !present.has(known.entry))) return 'removed by the family';
  // One the family made under another name at the feed's address: Home Assistant does not say which, so it stays theirs.
  if (known.by === 'family' && known.entry === null) return 'kept';
  // Any other is the bridge's, whoever made it: a calendar follows the feed's address and key.
  return want.url !== undefined && known.url !== want.url ? 'would make' : 'made';
}
