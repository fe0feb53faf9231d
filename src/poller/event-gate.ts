// The event gate: of the new-item candidates a poll found, only those the child's seen memory does not
// hold yet fire, and only after the memory saying so is on disk; for a tracked kind also the edits and
// removals of records already known (`<kind>_changed`, `<kind>_removed`).
import { SeenStore, type NewItem } from '../store/seen.js';
import type { Tracking } from '../store/tracked.js';
import type { EventPayload } from '../feature-kit/state.js';
import type { EventFields } from '../feature-kit/source.js';
import type { Logger } from '../util/log.js';

export type EventBatch = [kind: string, items: NewItem<EventFields>[], tracking?: Tracking];

export interface EventGateOptions {
  dataDir: string;
  log: Logger;
  fire: (kind: string, payload: EventPayload) => void;
  /** Told whether data_dir could be written (undefined: it could; else the error). */
  onStorage: (error: unknown) => void;
}

export class EventGate {
  private seen: SeenStore | undefined;

  constructor(private readonly options: EventGateOptions) {}

  /** Loads the memory of a child id (again when the id changes). */
  async load(childId: string): Promise<void> {
    this.seen = new SeenStore(this.options.dataDir, childId);
    await this.seen.load((error) => this.options.log.warn({ err: error.message }, 'event memory unreadable; it starts afresh (items already there fire no event)'));
  }

  async save(): Promise<void> {
    await this.seen?.save();
  }

  async pass(batches: readonly EventBatch[]): Promise<void> {
    const seen = this.seen;
    if (!seen || batches.length === 0) return;
    const undo = seen.checkpoint();
    const toFire: [string, EventFields[]][] = [];
    for (const [kind, items, tracking] of batches) {
      // The kind is the event entity's event type for a new item; an edit or removal adds its suffix.
      toFire.push([kind, seen.take(kind, items).map((item) => ({ event_type: kind, ...item.payload }))]);
      if (tracking) toFire.push([kind, seen.track(kind, items, tracking).map((h) => ({ event_type: `${kind}_${h.change}`, ...h.payload }))]);
    }
    // The memory is saved before publishing: after a crash an event may be missed, never repeated.
    // When it cannot be saved, nothing fires and the memory goes back, so the items fire later.
    try {
      // Only a real write proves data_dir is writable again.
      if (await seen.save()) this.options.onStorage(undefined);
    } catch (error) {
      undo();
      this.options.onStorage(error);
      this.options.log.error({ err: error instanceof Error ? error.message : String(error) }, 'cannot write the event memory in data_dir; events wait');
      return;
    }
    for (const [kind, payloads] of toFire) {
      for (const payload of payloads) this.options.fire(kind, payload as EventPayload);
    }
  }
}
