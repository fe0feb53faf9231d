// What the web server reads: a sink of the bus that keeps, per child, what was last published (the WebData
// of src/outputs/web/types.ts): the states the board and the MCP server read, and the calendar feeds, which only
// the web server serves. The pages, the calendar feeds and the MCP server's tools answer from this snapshot only,
// so none of them costs a portal request.
import type { Sink } from '../../bus/bus.js';
import type { ChildDevice } from '../../features/kit/entities.js';
import type { EntityState } from '../../engine/state.js';
import type { Language } from '../../config/language.js';
import type { CalendarFeedContent, CalendarFeedName } from '../../rules/calendar-feeds.js';
import type { ChildView, CalendarFeedSource, WebData } from './types.js';
import { CalendarFeedTexts, type KeptCalendarFeed } from './calendar-feeds.js';
import { declaresAgenda, offeredCalendarFeeds } from '../../features/calendar-feeds/calendar-feeds.js';

export interface WebSnapshotOptions {
  language: Language;
  /** True while the bridge is connected to the broker. */
  healthy: () => boolean;
  now: () => number;
}

/** A kept calendar feed with its content's JSON, to tell a new content from the same one published again. */
type KeptCalendarFeeds = { [K in CalendarFeedName]?: KeptCalendarFeed<K> & { json: string } };

interface ChildSnapshot extends ChildView {
  states: Map<string, EntityState>;
  /** What the calendar feeds hold, which no page shows: their changes move no changedAt and tell no listener. */
  calendarFeedContents: KeptCalendarFeeds;
}

export class WebSnapshot implements Sink, WebData {
  readonly language: Language;
  /** True while the bridge is connected to the broker. */
  readonly healthy: () => boolean;
  readonly now: () => number;
  private readonly snapshots = new Map<string, ChildSnapshot>();
  private readonly listeners = new Set<() => void>();
  private readonly texts = new CalendarFeedTexts();

  constructor(private readonly options: WebSnapshotOptions) {
    this.language = options.language;
    this.healthy = options.healthy;
    this.now = options.now;
  }

  // --- Sink: keep what was published ---

  device(child: ChildDevice): void {
    const kept = this.child(child.id);
    const model = child.model ?? null;
    const offered = offeredCalendarFeeds(declaresAgenda(child.entities));
    if (kept.name !== child.name || kept.model !== model || kept.calendarFeeds?.join() !== offered.join()) {
      kept.name = child.name;
      kept.model = model;
      kept.calendarFeeds = offered;
      this.changed(kept);
    }
  }

  removed(childId: string): void {
    if (this.snapshots.delete(childId)) this.notify();
  }

  availability(childId: string, online: boolean): void {
    const kept = this.child(childId);
    if (kept.online !== online) {
      kept.online = online;
      this.changed(kept);
    }
  }

  state(childId: string, key: string, state: EntityState): void {
    const kept = this.child(childId);
    const before = kept.states.get(key);
    // As on MQTT: attributes left out stay as they were.
    const next: EntityState = { state: state.state, attributes: state.attributes ?? before?.attributes };
    if (!before || before.state !== next.state || JSON.stringify(before.attributes) !== JSON.stringify(next.attributes)) {
      kept.states.set(key, next);
      this.changed(kept);
    }
  }

  /** Kept with the time it last changed (the calendar feed's Last-Modified), which the same content published again keeps. */
  calendarFeed<K extends CalendarFeedName>(childId: string, name: K, content: CalendarFeedContent<K>): void {
    // Seen through its one name K: TypeScript cannot tell that writing KeptCalendarFeeds[K] needs only a KeptCalendarFeed<K>.
    const calendarFeeds = this.child(childId).calendarFeedContents as { [N in K]?: KeptCalendarFeed<K> & { json: string } };
    const json = JSON.stringify(content);
    if (calendarFeeds[name]?.json !== json) calendarFeeds[name] = { content, changedAt: this.options.now(), json };
  }

  // --- WebData: read from the snapshot ---

  children(): readonly ChildView[] {
    // What the calendar feeds hold stays behind: no page shows it.
    return [...this.snapshots.values()].map(({ calendarFeedContents: _, ...view }) => view);
  }

  onChange(listener: () => void): () => void {
    // A wrapper of its own, so that the same function subscribed twice is also unsubscribed twice.
    const entry = (): void => listener();
    this.listeners.add(entry);
    return () => this.listeners.delete(entry);
  }

  /**
   * Every account runs the calendar feeds, so a known child has each its device declares: null until they were
   * published (at a start, those the last run served), then what was published; undefined for an unknown child or
   * a calendar feed it does not have (a kindergarten child's agenda).
   */
  calendarFeedSource(child: string, name: CalendarFeedName, language: Language = this.language): CalendarFeedSource | null | undefined {
    const kept = this.snapshots.get(child);
    if (kept === undefined || kept.calendarFeeds?.includes(name) === false) return undefined;
    return this.texts.source(kept.calendarFeedContents[name], name, language);
  }

  /** A child's calendar feed as last published (undefined before then or for an unknown child). */
  keptCalendarFeed<K extends CalendarFeedName>(child: string, name: K): KeptCalendarFeed<K> | undefined {
    return this.snapshots.get(child)?.calendarFeedContents[name];
  }

  private child(id: string): ChildSnapshot {
    let kept = this.snapshots.get(id);
    if (!kept) {
      kept = { id, name: null, model: null, online: false, states: new Map(), changedAt: 0, calendarFeedContents: {} };
      this.snapshots.set(id, kept);
    }
    return kept;
  }

  /** changedAt covers everything a page shows of the child: its states, name, model and availability. */
  private changed(kept: ChildSnapshot): void {
    kept.changedAt = this.options.now();
    this.notify();
  }

  private notify(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // A page's listener must never break publishing to MQTT.
      }
    }
  }
}
