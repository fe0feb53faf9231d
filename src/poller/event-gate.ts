// The event gate: of the new-item candidates a poll found, only those the child's seen memory does not
// hold yet fire, and only after the memory saying so is on disk; for a tracked kind also the edits and
// removals of records already known (`<kind>_changed`, `<kind>_removed`). A flood of one event type
// fires once, with its count and first items (store/flood.ts), except where it is old news.
import { SeenStore, type NewItem } from '../store/seen.js';
import type { Tracking } from '../store/tracked.js';
import { FLOOD_LIMIT, floodPayload } from '../store/flood.js';
import type { EventPayload } from '../feature-kit/state.js';
import type { EventFields } from '../feature-kit/source.js';
import type { Logger } from '../util/log.js';

export type EventBatch = [kind: string, items: NewItem<EventFields>[], tracking?: Tracking];

/** A poll after this long without a good one (an outage of a day) tells a flood as old news: remembered, not fired. */
export const LONG_OUTAGE_MS = 24 * 60 * 60_000;

/** When a poll's batches pass: now, and the last good poll of its tiers before it (undefined: none this run). */
export interface PassTime {
  now: number;
  lastGood: number | undefined;
}

/** The events of one event type: each payload on its own, or a flood's one event. */
function announced(type: string, payloads: readonly EventFields[]): EventFields[] {
  if (payloads.length > FLOOD_LIMIT) return [{ event_type: type, ...floodPayload(payloads) }];
  return payloads.map((payload) => ({ event_type: type, ...payload }));
}

export interface EventGateOptions {
  dataDir: string;
  log: Logger;
  fire: (kind: string, payload: EventPayload) => void;
  /** Told whether data_dir could be written (undefined: it could; else the error). */
  onStorage: (error: unknown) => void;
}

export class EventGate {
  private seen: SeenStore | undefined;
  /** The kinds read since the memory was loaded: the first read of a kind after a start tells no flood. */
  private readonly read = new Set<string>();

  constructor(private readonly options: EventGateOptions) {}

  /** Loads the memory of a child id (again when the id changes). */
  async load(childId: string): Promise<void> {
    this.read.clear();
    this.seen = new SeenStore(this.options.dataDir, childId);
    await this.seen.load((error) =>
      this.options.log.warn({ err: error.message }, 'event memory unreadable; it starts afresh (items already there fire no event)'),
    );
  }

  async save(): Promise<void> {
    await this.seen?.save();
  }

  /** Fires what the batches hold that is news; without `time` no poll counts as after an outage. */
  async pass(batches: readonly EventBatch[], time?: PassTime): Promise<void> {
    const seen = this.seen;
    if (!seen || batches.length === 0) return;
    const undo = seen.checkpoint();
    const afterOutage = time?.lastGood !== undefined && time.now - time.lastGood > LONG_OUTAGE_MS;
    const toFire: [string, EventFields[]][] = [];
    for (const [kind, items, tracking] of batches) {
      const quietFloods = afterOutage || !this.read.has(kind);
      // The kind is the event entity's event type for a new item; an edit or removal adds its suffix.
      toFire.push([
        kind,
        announced(
          kind,
          seen.take(kind, items, quietFloods).map((item) => item.payload),
        ),
      ]);
      if (!tracking) continue;
      const happened = seen.track(kind, items, tracking, quietFloods);
      for (const change of ['changed', 'removed'] as const) {
        toFire.push([
          kind,
          announced(
            `${kind}_${change}`,
            happened.filter((h) => h.change === change).map((h) => h.payload),
          ),
        ]);
      }
    }
    // The memory is saved before publishing: after a crash an event may be missed, never repeated.
    // When it cannot be saved, nothing fires and the memory goes back, so the items fire later.
    try {
      // Only a real write proves data_dir is writable again.
      if (await seen.save()) this.options.onStorage(undefined);
    } catch (error) {
      undo();
      this.options.onStorage(error);
      this.options.log.error(
        { err: error instanceof Error ? error.message : String(error) },
        'cannot write the event memory in data_dir; events wait',
      );
      return;
    }
    for (const [kind] of batches) this.read.add(kind);
    for (const [kind, payloads] of toFire) {
      for (const payload of payloads) this.options.fire(kind, payload as EventPayload);
    }
  }
}
