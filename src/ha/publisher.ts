// Where an account's states go: the MQTT bridge, the web server's memory in front of it, or a recorder
// in tests. The account runner publishes through it and never knows which one it has.
import type { ChildDevice } from './discovery.js';
import type { EntityState, EventPayload } from '../feature-kit/state.js';

/** What an account publishes to (the MQTT bridge, or a recorder in tests). */
export interface Publisher {
  setChild(child: ChildDevice): void;
  removeChild(childId: string): void;
  setAvailability(childId: string, online: boolean): void;
  publishState(childId: string, key: string, state: EntityState): void;
  publishEvent(childId: string, kind: string, payload: EventPayload): void;
}
