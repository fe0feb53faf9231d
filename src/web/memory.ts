// What the web server reads: a Publisher that sits in front of the MQTT bridge, passes every call on
// and keeps, per child, what was last published (the WebData of src/web/types.ts): the states the
// board reads and the calendar feeds, which only the web server serves. The pages and feeds are served
// from this memory only, so none of them costs a portal request.
import type { Publisher } from '../bus/publisher.js';
import type { ChildDevice } from '../features/kit/entities.js';
import type { EntityState, EventPayload } from '../engine/state.js';
import type { Language } from '../config/language.js';
import type { FeedContent, FeedName } from '../rules/calendar-feeds.js';
import type { ChildView, FeedSource, WebData } from './types.js';
import { FeedTexts, type KeptFeed } from './calendar-feeds.js';

export interface WebMemoryOptions {
  /** Where every call goes on to (the MQTT bridge). */
  target: Publisher;
  language: Language;
  /** True while the bridge is connected to the broker. */
  healthy: () => boolean;
  now: () => number;
}

/** A kept feed with its content's JSON, to tell a new content from the same one published again. */
type KeptFeeds = { [K in FeedName]?: KeptFeed<K> & { json: string } };

interface ChildMemory extends ChildView {
  states: Map<string, EntityState>;
  /** The calendar feeds, which no page shows: their changes move no changedAt and tell no listener. */
  feeds: KeptFeeds;
}

export class WebMemory implements Publisher, WebData {
  readonly language: Language;
  /** True while the bridge is connected to the broker. */
  readonly healthy: () => boolean;
  readonly now: () => number;
  private readonly memory = new Map<string, ChildMemory>();
  private readonly listeners = new Set<() => void>();
  private readonly texts = new FeedTexts();

  constructor(private readonly options: WebMemoryOptions) {
    this.language = options.language;
    this.healthy = options.healthy;
    this.now = options.now;
  }

  // --- Publisher: remember, then pass on ---

  setChild(child: ChildDevice): void {
    const memory = this.child(child.id);
    const model = child.model ?? null;
    if (memory.name !== child.name || memory.model !== model) {
      memory.name = child.name;
      memory.model = model;
      this.changed(memory);
    }
    this.options.target.setChild(child);
  }

  removeChild(childId: string): void {
    if (this.memory.delete(childId)) this.notify();
    this.options.target.removeChild(childId);
  }

  setAvailability(childId: string, online: boolean): void {
    const memory = this.child(childId);
    if (memory.online !== online) {
      memory.online = online;
      this.changed(memory);
    }
    this.options.target.setAvailability(childId, online);
  }

  publishState(childId: string, key: string, state: EntityState): void {
    const memory = this.child(childId);
    const before = memory.states.get(key);
    // As on MQTT: attributes left out stay as they were.
    const next: EntityState = { state: state.state, attributes: state.attributes ?? before?.attributes };
    if (!before || before.state !== next.state || JSON.stringify(before.attributes) !== JSON.stringify(next.attributes)) {
      memory.states.set(key, next);
      this.changed(memory);
    }
    this.options.target.publishState(childId, key, state);
  }

  publishEvent(childId: string, kind: string, payload: EventPayload, id?: string): Promise<boolean> | void {
    return this.options.target.publishEvent(childId, kind, payload, id);
  }

  eventsSettled(ids: readonly string[]): void {
    this.options.target.eventsSettled?.(ids);
  }

  tellMemory(childId: string, memory: unknown): void {
    this.options.target.tellMemory?.(childId, memory);
  }

  toldMemory(childId: string): unknown {
    return this.options.target.toldMemory?.(childId);
  }

  delivered(): Promise<boolean> {
    return this.options.target.delivered?.() ?? Promise.resolve(true);
  }

  /** Kept with the time it last changed (the feed's Last-Modified), which the same content published again keeps. */
  publishFeed<K extends FeedName>(childId: string, name: K, content: FeedContent<K>): void {
    // Seen through its one name K: TypeScript cannot tell that writing KeptFeeds[K] needs only a KeptFeed<K>.
    const feeds = this.child(childId).feeds as { [N in K]?: KeptFeed<K> & { json: string } };
    const json = JSON.stringify(content);
    if (feeds[name]?.json !== json) feeds[name] = { content, changedAt: this.options.now(), json };
    this.options.target.publishFeed(childId, name, content);
  }

  // --- WebData: read from memory ---

  children(): readonly ChildView[] {
    // The feeds stay behind: no page shows them.
    return [...this.memory.values()].map(({ feeds: _, ...view }) => view);
  }

  onChange(listener: () => void): () => void {
    // A wrapper of its own, so that the same function subscribed twice is also unsubscribed twice.
    const entry = (): void => listener();
    this.listeners.add(entry);
    return () => this.listeners.delete(entry);
  }

  /**
   * Every account runs the feeds, so a known child has each of them: null until they were published
   * (at a start, those the last run served), then what was published; undefined for an unknown child.
   */
  feed(child: string, name: FeedName, language: Language = this.language): FeedSource | null | undefined {
    const memory = this.memory.get(child);
    if (memory === undefined) return undefined;
    return this.texts.source(memory.feeds[name], name, language);
  }

  /** A child's feed as last published (undefined before then or for an unknown child). */
  keptFeed<K extends FeedName>(child: string, name: K): KeptFeed<K> | undefined {
    return this.memory.get(child)?.feeds[name];
  }

  private child(id: string): ChildMemory {
    let memory = this.memory.get(id);
    if (!memory) {
      memory = { id, name: null, model: null, online: false, states: new Map(), changedAt: 0, feeds: {} };
      this.memory.set(id, memory);
    }
    return memory;
  }

  /** changedAt covers everything a page shows of the child: its states, name, model and availability. */
  private changed(memory: ChildMemory): void {
    memory.changedAt = this.options.now();
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
