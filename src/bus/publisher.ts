// Where an account's states, events and calendar feeds go: the MQTT bridge, the web server's memory in
// front of it, or a recorder in tests. The account runner publishes through it and never knows which.
import type { ChildDevice } from '../features/kit/entities.js';
import type { EntityState, EventPayload } from '../engine/state.js';
import type { FeedContent, FeedName } from '../rules/calendar-feeds.js';

/** What an account publishes to (the MQTT bridge, or a recorder in tests). */
export interface Publisher {
  setChild(child: ChildDevice): void;
  removeChild(childId: string): void;
  setAvailability(childId: string, online: boolean): void;
  publishState(childId: string, key: string, state: EntityState): void;
  /**
   * An event: the promise says whether it was taken (the broker acknowledged it; false when it refused it
   * or it could not be sent, as at a stop). A publisher without a broker returns nothing: taken. `id`: the
   * event's in its memory, by which the session knows one it held before a restart.
   */
  publishEvent(childId: string, kind: string, payload: EventPayload, id?: string): Promise<boolean> | void;
  /** The event memories on disk no longer hold these taken events. */
  eventsSettled?(ids: readonly string[]): void;
  /** A child's event memory as saved, told on for a bridge that takes the base topic over later (a handover). */
  tellMemory?(childId: string, memory: unknown): void;
  /** What the bridge that held the base topic before this one (another installation) told of a child's event memory. */
  toldMemory?(childId: string): unknown;
  /**
   * Whether the broker accepted everything handed to it so far (states and events): waits for its
   * acknowledgements while connected, false at once while it is away. Without it everything counts as taken.
   */
  delivered?(): Promise<boolean>;
  /**
   * A calendar feed's content as the last poll made it (interface 6.5). Web-only: too big for an
   * entity's attributes, so the MQTT bridge drops it and the web server's memory keeps it.
   */
  publishFeed<K extends FeedName>(childId: string, name: K, content: FeedContent<K>): void;
}
