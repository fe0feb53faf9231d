// What the poller hands to the bridge for one entity: its state (null is published as "None") and
// optional attributes.

export interface EntityState {
  state: string | null;
  attributes?: Record<string, unknown>;
}

/** A new item for an event entity: the event type plus what the automation needs. */
export interface EventPayload {
  event_type: string;
  [key: string]: unknown;
}
