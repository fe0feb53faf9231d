// What a day with the change feed costs, against its floor (shared/design/performance.md, the ninth round): news
// within 5 minutes from 07:00 to 21:00 and messages within 3 minutes by day cost the change feed's reads, the unread
// counter's, the messaging sessions, and a read and an acknowledgement per change. Every other request is
// named here with the planner's why (runner/coordinator.ts, ReadHook), and why it is still made.
import { CHANGES } from '../engine/resources/change-feed.js';
import { UNREAD } from '../engine/resources/messaging.js';
import { RESOURCES } from '../features/resources.js';
import { covers } from '../engine/change-feed/child.js';
import type { ReadCount } from './simulate.js';

/** Why a request beyond the floor is made, in a word: the running day's line sums the shares by it. */
export type Kind = 'start' | 'safety' | 'unnamed' | 'sessions' | 'other';

/** A share of the day: what, per child per day, and (beyond the floor) why it is still made and its kind. */
export interface Share {
  what: string;
  perDay: number;
  why?: string;
  kind?: Kind;
}

export interface Breakdown {
  floor: Share[];
  beyond: Share[];
  /** Every request of the run, per child per day. */
  total: number;
}

/** The run as the breakdown takes it: its reads, its requests as the bridge named them, all its requests (login steps included). */
export interface CountedRun {
  reads: readonly ReadCount[];
  requests: Readonly<Record<string, number>>;
  total: number;
}

const SESSION = /^GET messages:\/(bootstrap|wiadomosci3)$/;
const ACKNOWLEDGEMENT = /^DELETE PushChanges\//;

/**
 * The run's requests per child per day: the floor's shares, then each beyond it by resource and why (the night's
 * move left out of the why: it says when, not why). A read costs the requests its resource's endpoints were asked
 * in the run, shared among its reads (who the child is: four; a counter a dead session made ask twice: its retry).
 */
export function beyondFloor(run: CountedRun, days: number): Breakdown {
  const requests = (pattern: RegExp) => Object.entries(run.requests).reduce((a, [key, n]) => (pattern.test(key) ? a + n : a), 0);
  const readsOf = new Map<string, number>();
  for (const r of run.reads) readsOf.set(r.resource, (readsOf.get(r.resource) ?? 0) + r.n);
  /** The requests `reads` of one resource cost. */
  const cost = (reads: readonly ReadCount[]) =>
    reads.reduce((a, r) => a + (r.n * requestsOf(r.resource, run.requests)) / (readsOf.get(r.resource) ?? r.n), 0);
  const after = run.reads.filter((r) => !r.start);
  const changeFeed = after.filter((r) => r.resource === CHANGES.name);
  const counter = after.filter((r) => r.resource === UNREAD.name);
  const perChange = after.filter((r) => r.why === 'signal' && r.resource !== CHANGES.name && r.resource !== UNREAD.name);
  const floor: Share[] = [
    { what: 'the change feed (PushChanges)', perDay: cost(changeFeed) / days },
    { what: 'the unread counter', perDay: cost(counter) / days },
    { what: 'messaging sessions', perDay: requests(SESSION) / days },
    { what: 'a read per change (the change feed named it, or a new message moved the counter)', perDay: cost(perChange) / days },
    { what: 'an acknowledgement per pass with changes', perDay: requests(ACKNOWLEDGEMENT) / days },
  ];
  const counted = new Set([...changeFeed, ...counter, ...perChange]);
  const byWhy = new Map<string, { share: Share; reads: ReadCount[] }>();
  for (const r of after.filter((read) => !counted.has(read))) {
    const why = r.why.replace(/; night: at .*$/, '');
    const key = `${r.resource}\u0000${why}`;
    const entry = byWhy.get(key) ?? { share: { what: `${r.resource}: ${why}`, perDay: 0, ...reason(why, named(r.resource)) }, reads: [] };
    entry.reads.push(r);
    byWhy.set(key, entry);
  }
  const reasons = [...byWhy.values()].map(({ share, reads }) => ({ ...share, perDay: cost(reads) / days }));
  const start = run.reads.filter((r) => r.start);
  const others = run.total - cost(run.reads) - requests(SESSION) - requests(ACKNOWLEDGEMENT);
  const beyond: Share[] = [
    {
      what: "the start's first pass: every copy once",
      perDay: cost(start) / days,
      why: 'what a family sees at once after a start (the bench starts on its first day)',
      kind: 'start',
    },
    ...reasons.sort((a, b) => rank(a.why) - rank(b.why) || b.perDay - a.perDay || a.what.localeCompare(b.what)),
    {
      what: 'logins, token refreshes, the change feed registration',
      perDay: others / days,
      why: "the portal's sessions: requests no copy's read makes",
      kind: 'sessions',
    },
  ];
  return { floor, beyond, total: run.total / days };
}

/** Whether the change feed names the resource (its lists, the change feed's child.ts: covers). */
function named(resource: string): boolean {
  return RESOURCES.some((res) => res.name === resource && covers(res));
}

/** The requests the run made to a resource's endpoints, as the bridge names a request (`GET Users/<id>`, `GET messages:/api/...`). */
function requestsOf(resource: string, requests: Readonly<Record<string, number>>): number {
  const paths = new Set(RESOURCES.find((res) => res.name === resource)?.endpoints.map((e) => e.replace(/<[a-z]+>/g, '<id>')) ?? []);
  return Object.entries(requests).reduce((a, [key, n]) => (paths.has(key.replace(/^[A-Z]+ (messages:)?/, '')) ? a + n : a), 0);
}

/** Why a read beyond the floor is still made, by the planner's why, in the order the breakdown lists them. */
const REASONS: readonly { when: (why: string, named: boolean) => boolean; why: string; kind: Kind }[] = [
  {
    when: (why) => why.startsWith('age: feed safety'),
    why: 'safety read: the change feed is a signal, not the truth (live-notes 32); a change it lost comes within the safety age',
    kind: 'safety',
  },
  {
    when: (why, named) => why.startsWith('age: ') && !named,
    why: 'the change feed does not name it (live-notes 31): read at its own age',
    kind: 'unnamed',
  },
  {
    when: (why) => why.startsWith('age: change feed lookup'),
    why: 'a renamed teacher, subject or category keeps its id, and the change feed names no lookup',
    kind: 'other',
  },
  {
    when: (why) => why.startsWith('age: '),
    why: 'the change feed names it, but its own age is longer than the safety age: its own look',
    kind: 'other',
  },
  { when: (why) => why === 'new day', why: "a copy of the day: who the child is, the class's lists of the day", kind: 'other' },
  { when: (why) => why === 'missing', why: 'a record named an id the lookup lacked: read before its event fires', kind: 'other' },
  { when: (why) => why === 'no copy', why: 'wanted for the first time (a new week, a list a start left for later)', kind: 'other' },
  { when: (why) => why === 'failed', why: 'its last read failed', kind: 'other' },
];

/** Why a read is still made, and its kind (the planner's why itself, of kind other, where no reason knows it). */
function reason(why: string, named: boolean): { why: string; kind: Kind } {
  const known = REASONS.find((r) => r.when(why, named));
  return known ? { why: known.why, kind: known.kind } : { why, kind: 'other' };
}

/** Where a reason stands in the breakdown (one the list does not know last). */
function rank(why: string | undefined): number {
  const at = REASONS.findIndex((r) => r.why === why);
  return at === -1 ? REASONS.length : at;
}
