// The event gate: published once, its part (the rule is memory.ts's, at the top of this folder): an item is
// remembered as fired only in the write of the child's memory that puts its event in the outbox, and no
// event goes before that write is on disk; a write that fails fires nothing and puts the memory back as it
// was, so that the items fire at a later pass. What goes out then is the outbox's to deliver (outbox.ts).
//
// Of the new-item candidates a pass found, only those the child's seen memory does not hold yet fire; for a
// tracked kind also the edits and removals of records already known (`<kind>_changed`, `<kind>_removed`).
// A flood of one event type fires once, with its count and first items (flood.ts), the same on a running
// bridge and at the first read after a start: a backlog that came while the bridge was stopped is told. Only
// what came while the bridge was away longer than the horizon (a restored backup, a new school year, a first
// install) is old news, remembered without events, with one log line saying how many of which kind.
// A new school year is one event (rollover.ts): which kinds it resets the runner hands over, from the
// features' declarations; the gate names no feature. An event stays in the outbox until it was taken (with
// the MQTT session, session.ts, the memory is the session's, which writes each packet into it). Each memory
// saved is told on (the MQTT output's told records), as is the memory loaded at a start, and a bridge that
// takes the base topic over from another installation starts from what that one told (handover.ts: that one
// alone): nothing it announced is announced again, nothing since is lost.
import { randomUUID } from 'node:crypto';
import { READ_STEP, SeenStore, type KnownItems, type Taken } from './memory.js';
import type { Tracking } from './tracked.js';
import { FLOOD_LIMIT, floodPayload } from './flood.js';
import { EventOutbox, type OutboxEntry } from './outbox.js';
import { Rollover, type RolloverKinds } from './rollover.js';
import type { Logger } from '../util/log.js';
import { errorText } from '../util/text.js';
import { DAY, HOUR } from '../util/duration.js';

/** A candidate for an event (rules/news.ts NewsItem): its id in the memory and the fields its event carries. */
type Candidate = { id: string; payload: Record<string, unknown>; quiet?: true };

/** An event as the gate sends it: its event type and the fields an automation reads (the bus's EventPayload). */
export type GateEvent = { event_type: string; child: string; child_name: string } & Record<string, unknown>;

/** One kind's candidates of a pass, and for a tracked kind what its records are compared by. */
export type EventBatch = [kind: string, items: Candidate[], tracking?: Tracking];

/** The day of a pass and the school year the child's identity shows: what a rollover is told by (rollover.ts). */
export interface YearView {
  /** Today in Warsaw (YYYY-MM-DD). */
  today: string;
  /** The identity's BeginSchoolYear. */
  begin: string | undefined;
}

/**
 * The flood rule's horizon: a flood of what came while the bridge was away longer than this (stopped, or its host
 * unreachable) is old news, remembered, not fired; anything shorter, a restart, a day's outage, is told.
 */
export const LONG_OUTAGE_MS = DAY;

/** Whose events a gate fires: every event names its child by both (interface 17.2). */
export interface EventChild {
  id: string;
  /** The first name, as the board says it. */
  name: string;
}

export interface EventGateOptions {
  dataDir: string;
  log: Logger;
  /** The child as it stands at a pass: written into each event's payload, where it waits in the outbox as it goes. */
  child: () => EventChild;
  /** Sends an event: the promise says whether it was taken (nothing: taken at once). `id`: its id in the memory. */
  fire: (kind: string, payload: GateEvent, id: string) => Promise<boolean> | void;
  /** A child's memory as the MQTT session keeps it (its events' packets are written into it); none: the gate's own. */
  memory?: (childId: string) => SeenStore | undefined;
  /** Told the memory as saved; and what the base topic's holder before this bridge told of a child's, if another installation. */
  tell?: (memory: unknown) => void;
  told?: (childId: string) => unknown;
  /** Told whether data_dir could be written (undefined: it could; else the error). */
  onStorage: (error: unknown) => void;
  /**
   * The kinds a new school year resets, and the event that tells it, as the features declare them
   * (features/index.ts ROLLOVER_KINDS); none: no pass is told apart as a new year's.
   */
  rollover?: RolloverKinds;
}

export class EventGate {
  private seen: SeenStore | undefined;
  private readonly outbox: EventOutbox;

  constructor(private readonly options: EventGateOptions) {
    this.outbox = new EventOutbox(
      (entry) => options.fire(entry.kind, entry.payload as GateEvent, entry.id),
      (entries) => {
        // Gone already when the session's PUBCOMP took them out (nothing to write then).
        this.seen?.accepted(entries);
        void this.save();
      },
    );
  }

  /** Loads the memory of a child id (again when the id changes), and sends what its outbox holds: events the broker never accepted. */
  async load(childId: string): Promise<void> {
    const before = this.seen;
    const seen = this.options.memory?.(childId) ?? new SeenStore(this.options.dataDir, childId);
    this.seen = seen;
    // Each write of it told on, whoever asked for it (a PUBCOMP's too), while it is this child's.
    seen.onSaved = () => this.seen === seen && this.options.tell?.(seen.told);
    await seen.load(
      (error) => this.options.log.warn({ err: error.message }, 'event memory unreadable; it starts afresh (items already there fire no event)'),
      (why) =>
        this.options.log.warn({ why }, `event memory ${why}; its last good copy is used: what came since it was saved fires once, nothing older`),
    );
    if (seen.adopt(this.options.told?.(childId))) {
      this.options.log.info('event memory: taken over from what the bridge that held the base topic before told (its news is not announced again)');
      await this.save();
    }
    // Told as it stands, whether or not a save comes: what the broker holds of this child is this bridge's own.
    this.options.tell?.(seen.told);
    if (before && before !== seen) await this.moved(before);
    if (seen.waiting().length > 0)
      this.options.log.info(
        { events: this.seen.waiting().length },
        'events not taken before the last stop: sent now (those the MQTT session took, by it, once)',
      );
    this.outbox.send(this.seen.waiting());
  }

  /** Writes the memory (and tells it on): at a stop, and after an event was taken (it leaves the outbox); false when it could not. */
  async save(): Promise<boolean> {
    try {
      await this.written();
      return true;
    } catch (error) {
      this.options.log.warn({ err: errorText(error) }, 'cannot write the event memory in data_dir');
      return false;
    }
  }

  /**
   * Events still in the old id's memory go out under the new one (those on their way keep their packet): the
   * new memory written with them first, then the old one without them.
   */
  private async moved(before: SeenStore): Promise<void> {
    const waiting = before.waiting();
    if (waiting.length === 0) return;
    this.seen?.post(waiting);
    if (!(await this.save())) return;
    before.accepted(waiting);
    await before.save().catch((error: unknown) => this.options.log.warn({ err: errorText(error) }, 'cannot write the event memory in data_dir'));
  }

  /** Writes the memory if it changed; told on once written (seen.onSaved), before any event of it goes. */
  private async written(): Promise<boolean> {
    return (await this.seen?.save()) === true;
  }

  /** What the memory holds of a kind: the ids it told and those it remembered as already true; undefined before its first read. */
  known(kind: string): KnownItems | undefined {
    return this.seen?.known(kind);
  }

  /** Events handed on and not taken yet, and those waiting to be sent again. */
  get unsent(): number {
    return this.seen?.waiting().length ?? 0;
  }

  /**
   * Fires what the batches hold that is news. `time`: now, and the last good pass of its hosts before it
   * (undefined: none this run); without it the bridge is never taken to have been away. `year`: the day and the
   * school year shown, by which a rollover's bulk is counted into the school_year event instead of told.
   */
  async pass(batches: readonly EventBatch[], time?: { now: number; lastGood: number | undefined }, year?: YearView): Promise<void> {
    const seen = this.seen;
    if (!seen) return;
    const away = time === undefined ? undefined : awayFor(time, seen.lastRead);
    const quietFloods = away?.long === true;
    if (time !== undefined) seen.readAt(time.now);
    if (batches.length === 0) return this.outbox.send(seen.waiting());
    const undo = seen.checkpoint();
    const entries: OutboxEntry[] = [];
    const remembered: Remembered = { first: {}, old: {}, floods: [] };
    const child = this.options.child();
    // The events of one event type: each payload on its own, or a flood's one event; each names its child, so
    // that one automation serves a family. The outbox keeps the payload as published: a resend is the same bytes.
    const post = (kind: string, type: string, items: readonly { payload: Record<string, unknown> }[]): void => {
      const payloads = items.map((item) => item.payload);
      if (payloads.length > FLOOD_LIMIT) remembered.floods.push({ event: type, count: payloads.length });
      const events = payloads.length > FLOOD_LIMIT ? [floodPayload(payloads)] : payloads;
      const named = { event_type: type, child: child.id, child_name: child.name };
      entries.push(...events.map((payload) => ({ kind, id: randomUUID(), payload: { ...named, ...payload } })));
    };
    const kinds = this.options.rollover;
    const rollover = year === undefined || kinds === undefined ? undefined : new Rollover(seen.year, year.today, year.begin, kinds);
    // The school year's own event comes last, so that it counts what the pass's lists brought.
    const summary = kinds?.summary;
    const ordered = [...batches].sort((a, b) => Number(a[0] === summary) - Number(b[0] === summary));
    for (const [kind, items, tracking] of ordered) {
      const payloads = items.map((item) => item.payload);
      rollover?.held(kind, payloads);
      const count = counting(remembered, seen.knows(kind));
      // The kind is the event entity's event type for a new item; an edit or removal adds its suffix.
      const fresh = count(seen.take(kind, items, quietFloods), () => kind).filter((item) => rollover?.quietNew(kind, item.payload) !== true);
      post(kind, kind, kind === summary && rollover ? fresh.map((item) => ({ payload: { ...item.payload, summary: rollover.told() } })) : fresh);
      if (!tracking) continue;
      const happened = count(seen.track(kind, items, tracking, quietFloods), (h) => `${kind}_${h.change}`).filter(
        (h) => rollover?.quietChange(h.change, h.payload) !== true,
      );
      for (const change of ['changed', 'removed'] as const) {
        const changes = happened.filter((h) => h.change === change);
        post(kind, `${kind}_${change}`, changes);
      }
    }
    if (rollover) seen.year = rollover.memory;
    seen.post(entries);
    // The memory is saved, with the events in its outbox, before publishing: after a crash each is sent
    // from the outbox, once. When it cannot be saved, nothing fires and the memory goes back, so the items fire later.
    try {
      // Only a real write proves data_dir is writable again.
      if (await this.written()) this.options.onStorage(undefined);
    } catch (error) {
      undo();
      this.options.onStorage(error);
      this.options.log.error({ err: errorText(error) }, 'cannot write the event memory in data_dir; events wait');
      return;
    }
    this.tellRemembered(remembered, away?.ms);
    // The new events, and any whose send failed before (the bridge stopped while the broker was away).
    this.outbox.send(seen.waiting());
  }

  /** Once the pass's events are kept: a line for each flood told, one for the kinds read for the first time, one for what is older than the horizon. */
  private tellRemembered(remembered: Remembered, awayMs: number | undefined): void {
    const { log } = this.options;
    for (const flood of remembered.floods) log.info(flood, 'flood: told as one event with its count');
    if (Object.keys(remembered.first).length > 0)
      log.info(
        { remembered: remembered.first },
        'first read of these kinds: what they hold is remembered without events (a first start, or an event memory started afresh)',
      );
    if (Object.keys(remembered.old).length > 0)
      log.info(
        { remembered: remembered.old, away_h: Math.round((awayMs ?? 0) / HOUR) },
        'back after more than a day: what came meanwhile is remembered without events (old news)',
      );
  }
}

/** What a pass remembered without events, by event type (at a kind's first read, and as old news past the horizon), and the floods it told. */
interface Remembered {
  first: Record<string, number>;
  old: Record<string, number>;
  floods: { event: string; count: number }[];
}

/** Counts into `remembered` what a take() or track() remembered quietly, by the event type each would have had, and hands on the news. */
function counting(remembered: Remembered, known: boolean) {
  const counts = known ? remembered.old : remembered.first;
  return <I>(taken: Taken<I>, type: (item: I) => string): I[] => {
    for (const item of taken.quiet) counts[type(item)] = (counts[type(item)] ?? 0) + 1;
    return taken.news;
  };
}

/**
 * How long the bridge was away (ms), and whether longer than the horizon: since its last read of the child's lists
 * (kept READ_STEP early at most: a stop shorter than the horizon is never taken for a longer one), or since the last
 * good pass of the hosts it read now (a running bridge whose portal was down).
 */
function awayFor(time: { now: number; lastGood: number | undefined }, lastRead: number | undefined): { ms: number; long: boolean } {
  const sinceRead = lastRead === undefined ? 0 : time.now - lastRead;
  const sinceGood = time.lastGood === undefined ? 0 : time.now - time.lastGood;
  return { ms: Math.max(sinceRead, sinceGood), long: Math.max(sinceRead - READ_STEP, sinceGood) > LONG_OUTAGE_MS };
}
