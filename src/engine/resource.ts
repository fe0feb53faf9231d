// A portal resource declared once (src/engine/resources/): where it is read (the register's API or the
// messaging host), how (an endpoint and its schema, or a messaging call), when (its Schedule), what
// vouches for it and what the portal's change feed calls it. Features name what they read by these
// values (`cache.get(GRADES)`), so two features reading one list share one copy and one schedule.
import type * as z from 'zod';
import { capLists, LIST_ITEMS } from '../portal/list-caps.js';
import { ConnectionError, UnexpectedResponseError } from '../portal/errors.js';
import { MessagesUnavailableError } from '../portal/messaging-policy.js';
import { ANSWER_BYTES, LIST_ANSWER_BYTES, type Gateway } from '../portal/gateway.js';
import type { MessagesApi } from '../portal/messaging-api.js';
import type { Identity } from './identity.js';
import type { Schedule } from './schedule.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { DAILY, DAY } from '../util/duration.js';

/** The portal's two hosts: one failing never holds up the other's reads. */
export type Host = 'register' | 'messaging';
export const HOSTS: readonly Host[] = ['register', 'messaging'];

/** The copies as a read, a feature or a signal sees them (the cache, cache.ts, says what each means). */
export interface Copies {
  /** The copy; throws the error of its failed read while it stands. */
  get<T>(res: Resource<T>, key?: string): T | undefined;
  /** The last good copy, whatever the pass under way met. */
  peek<T>(res: Resource<T>, key?: string): T | undefined;
  /** Whether the portal refuses the resource now. */
  refused(res: Resource, key?: string): boolean;
  /** When the copy was read (undefined: never, or it is refused). */
  readAt(res: Resource, key?: string): number | undefined;
}

/** What a read is made with. */
export interface Portal {
  gateway: Gateway;
  messages: MessagesApi;
  /** The copies read so far (a read that names what another copy holds: the class tutor's name). */
  copies: Copies;
  /** The child as last read (undefined before the first identity). */
  identity: () => Identity | undefined;
  clock: Clock;
  log: Logger;
  /** Told of a list of the resource's answer cut at its most (portal/list-caps.ts); the cache logs it once a resource. */
  cut?: (resource: string, at: string, listed: number, kept: number) => void;
}

export interface Resource<T = unknown> extends Schedule {
  readonly host: Host;
  /** The requests a read makes, as the documentation names them (`Grades`, `Calendars/<id>`). */
  readonly endpoints: readonly string[];
  /** Reads the copy `key` of a keyed resource (a week, a mailbox, a message id), or the one copy. */
  read(portal: Portal, key: string | undefined): Promise<T>;
  /** The cheap signal's value now for the copy (Schedule.vouch); undefined when it has none. */
  signal?(copies: Copies, key: string | undefined): string | undefined;
  /** The copies the signal is read from (the class calendar): read for it, whoever reads this resource. */
  signalReads?(copies: Copies): readonly Want[];
  /** The list inside the answer, for an optional kind of data: while it is empty, Schedule.whileEmptyMs. */
  list?(value: T): readonly unknown[] | undefined;
  /** Until when a copy answers its question whatever its age (the lucky number once the day's is known). */
  settled?(value: T, now: number): number | undefined;
  /** On a failed read, a feature gets the last good copy instead of the error (lookups, lists beside the news). */
  readonly keepOnError?: boolean;
  /** Until when an error of a read refuses the resource (a module the school lacks); undefined, or none: it failed. */
  refusal?(error: unknown, now: number): number | undefined;
  /** The record types the portal's change feed names for it (live-notes 31). */
  readonly changeFeed?: readonly string[];
  /** Read in a round of its own, before anything else due: what it says decides what else is (the change feed). */
  readonly leads?: boolean;
  /**
   * Its copies are spans of the calendar (a week, a fortnight, by key): one no feature wants any more
   * (last week's) leaves the cache, so that a year of weeks does not pile up (ResourceCache.forget).
   */
  readonly byPeriod?: true;
  /**
   * One answer for the whole school (the lucky number): a read by one child of the school is told to its other
   * children, who take it as their own (engine/school-reads.ts).
   */
  readonly school?: true;
  /**
   * Its copies are kept in data_dir through a restart and read back by this schema (engine/kept-copies.ts): the first
   * pass after a restart tells what the last run read while it is within its age, and reads it no sooner than that
   * age says (what a start leaves for later: the standing plan, the sent box; next week's timetable).
   */
  readonly kept?: z.ZodType<T>;
}

/** One copy a feature reads: the resource, which copy of it, and what makes it due besides its age. */
export interface Want {
  readonly res: Resource;
  readonly key?: string;
  /** The ids records name that this lookup lacks (Schedule.missAgeMs): one not asked for yet reads it at once. */
  readonly missing?: readonly string[];
  /** Wanted ahead of need only (Schedule.ahead). */
  readonly ahead?: boolean;
  /**
   * Read only when a person asks for it (Assist, engine/on-demand.ts): a pass never reads it, and the cache keeps it
   * while a feature names it.
   */
  readonly onDemand?: boolean;
}

export function want(res: Resource, key?: string, more: Omit<Want, 'res' | 'key'> = {}): Want {
  return { res, ...(key === undefined ? {} : { key }), ...more };
}

/** What every declaration states: its Schedule (`name` defaults to its endpoint, `whenAsked` by host) and what of a Resource suits it. */
type Declared<T> = Omit<Schedule, 'name' | 'whenAsked'> &
  Partial<Pick<Schedule, 'name' | 'whenAsked'>> &
  Pick<Resource<T>, 'signal' | 'signalReads' | 'list' | 'settled' | 'keepOnError' | 'byPeriod' | 'school'>;

/** A resource of the register's API (the cookie gateway, or the family road's bearer API). */
export interface RegisterDeclaration<S extends z.ZodType> extends Declared<z.output<S>> {
  /** The endpoint; `<id>` (or `<lid>`) stands for the key of a keyed resource. */
  endpoint: string;
  schema: S;
  /** The query a key goes into (`weekStart`), or the query a key makes (a span's dates), instead of the path. */
  queryKey?: string | ((key: string) => Record<string, string>);
  /** POST with this JSON body instead of GET. */
  post?: unknown;
  /** It lists a school year of records (or more): its answer may be as large as LIST_ANSWER_BYTES, not ANSWER_BYTES. */
  yearOfRecords?: true;
  /** The most items of each list in its answer (list-caps.ts LIST_ITEMS unless it says fewer). */
  maxItems?: number;
  /** The most bytes of its answer, where fewer than ANSWER_BYTES: more is refused unread (gateway.ts). */
  maxBytes?: number;
  /** The change feed's names for it; `true`: its name alone. */
  changeFeed?: true | readonly string[];
  /** Its copies are kept through a restart (Resource.kept), read back by this schema of what a read gives. */
  kept?: z.ZodType<z.output<S>>;
}

export function registerResource<S extends z.ZodType>(d: RegisterDeclaration<S>): Resource<z.output<S>> {
  const { endpoint, schema, queryKey, post, changeFeed, yearOfRecords, kept, maxItems = LIST_ITEMS, maxBytes: fewer, name = endpoint, ...rest } = d;
  const maxBytes = fewer ?? (yearOfRecords ? LIST_ANSWER_BYTES : ANSWER_BYTES);
  const path = (key: string | undefined) => (key === undefined || queryKey ? endpoint : endpoint.replace(/<[a-z]+>/, encodeURIComponent(key)));
  return {
    // A refresh reads what a family hears of: a school year of records (not a lookup) and what the change feed names.
    whenAsked: changeFeed !== undefined || (yearOfRecords === true && rest.missAgeMs === undefined) ? 'read' : 'keep',
    ...rest,
    name,
    ...(changeFeed === undefined ? {} : { changeFeed: changeFeed === true ? [name] : changeFeed }),
    ...(kept === undefined ? {} : { kept }),
    host: 'register',
    endpoints: [endpoint],
    async read({ gateway, cut }, key) {
      const query = queryKey === undefined || key === undefined ? undefined : typeof queryKey === 'string' ? { [queryKey]: key } : queryKey(key);
      // Each list cut to its most before the schema reads it: a GET's in the answer's text, so that the records past
      // the cap are never made; a POST's answer as parsed.
      const lists = { max: maxItems, cut: (at: string, listed: number) => cut?.(name, at, listed, maxItems) };
      if (post === undefined) return gateway.get(path(key), schema, { query, maxBytes, lists });
      const parsed = schema.safeParse(capLists(await gateway.post(path(key), post, maxBytes), lists.max, lists.cut));
      if (!parsed.success) throw new UnexpectedResponseError(200, `${name}: unexpected shape`, { resource: name });
      return parsed.data;
    },
    refusal(error, now) {
      if (!(error instanceof UnexpectedResponseError && error.refused)) return undefined;
      // A module switched off stays so for a daily look at least (what modules.ts counts absent), even where a 403 is asked again sooner.
      const refusedFor = d.refusedForMs ?? DAY;
      return now + (error.switchedOff ? Math.max(refusedFor, DAILY) : refusedFor);
    },
  };
}

/** A resource of the messaging host (spec 4.8), read through the messaging API. */
export interface MessagingDeclaration<T> extends Declared<T> {
  /** The paths its reads ask for; the first, `/api/` aside, is its name unless `name` says otherwise. */
  endpoints: readonly string[];
  read: (api: MessagesApi, key: string | undefined, portal: Portal) => Promise<T>;
  /** A 404 is the resource's refusal for this long (a mailbox this account has not). */
  absentForMs?: number;
  changeFeed?: readonly string[];
  /** Its copies are kept through a restart (Resource.kept), read back by this schema of what a read gives. */
  kept?: z.ZodType<T>;
}

export function messagingResource<T>(d: MessagingDeclaration<T>): Resource<T> {
  const { read, absentForMs, ...rest } = d;
  return {
    whenAsked: 'read',
    name: `messaging ${d.endpoints[0]?.replace(/^\/api\//, '')}`,
    ...rest,
    host: 'messaging',
    // The host down, a dead session or a failed login is the messaging host's (runner/pass-reads.ts, readDue): the pass stops
    // reading it and it backs off as the register does, so a portal that is down is not asked every
    // fast_interval; the register's reads go on meanwhile.
    read: (portal, key) => read(portal.messages, key, portal),
    refusal(error, now) {
      // Without the module the messaging client keeps its own time of asking again (spec 5.4).
      if (error instanceof MessagesUnavailableError) return error.nextCheckAt;
      if (absentForMs !== undefined && error instanceof UnexpectedResponseError && error.status === 404) return now + absentForMs;
      return undefined;
    },
  };
}

/**
 * A failure of the host behind a resource (the network, a 5xx, a session a new login did not bring back) made
 * that resource's own, an unexpected answer, so the rest of the child's reads go on. Its cause keeps the
 * `problem` reason the host's: a host down for maintenance is not "please report it".
 */
export function ownFailure(error: Error, label: string, context: { account?: string; resource?: string }): UnexpectedResponseError {
  const status = error instanceof ConnectionError ? (error.status ?? 0) : 0;
  return new UnexpectedResponseError(status, `${label}: ${error.message}`, { ...context, cause: error });
}
