// A flood: more new items (or edits, or removals) of one kind at once than a teacher makes by hand. It is
// news, told as one event with its count and the first items (interface 9.2), on a running bridge and at the
// first read after a start alike (interface 18.4); only what came while the bridge was away longer than the
// horizon (gate.ts: a restored backup, a long outage) is old news, remembered without events.

/** More than this at once of one kind is a flood. */
export const FLOOD_LIMIT = 20;

/** At most this many items ride in a flood's event... */
export const FLOOD_ENTRIES = 10;
/** ...and fewer when they would make its MQTT payload larger than this (Home Assistant keeps 16 KB of an entity's attributes). */
export const FLOOD_BYTES = 8 * 1024;

/** One event for a flood: how many items came, and the first of them as single events would carry them. */
export type FloodPayload<P> = { count: number; entries: P[] };

/** The flood's event payload: the count, and the first items that fit FLOOD_ENTRIES and FLOOD_BYTES. */
export function floodPayload<P>(items: readonly P[]): FloodPayload<P> {
  const entries: P[] = [];
  let bytes = JSON.stringify({ count: items.length, entries }).length;
  for (const item of items.slice(0, FLOOD_ENTRIES)) {
    const size = Buffer.byteLength(JSON.stringify(item)) + 1;
    if (bytes + size > FLOOD_BYTES) break;
    entries.push(item);
    bytes += size;
  }
  return { count: items.length, entries };
}
