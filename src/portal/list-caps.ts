// How many items a list in a portal answer may hold before it is worked on (interface 19.2). An answer's bytes are
// capped as it streams in (gateway.ts ANSWER_BYTES, LIST_ANSWER_BYTES); within them, a list of many tiny records (28,000
// standing-plan entries in 2 MB) would still make every rule behind it slow: each list is cut to its resource's most,
// the first items kept, and the cut told (once a resource: engine/cache.ts). The caps are in docs/cost-and-faults.md.

/** Any list of an answer: ten times a school year of a child's records (about 1,500 attendance marks) or a school's lookup. */
export const LIST_ITEMS = 10_000;

/** How deep in an answer lists are looked for: the root, its records, and a record's own lists (a week's day of slots). */
const DEPTH = 4;

/** Told of a list cut: where it stands in the answer (`TimetableEntries`, `Timetable.2026-11-16`) and how many it held. */
export type ListCut = (at: string, listed: number) => void;

/** The answer with every list in it (to DEPTH levels) cut to `max` items, the first kept; `cut` told of each one cut. */
export function capLists(json: unknown, max: number, cut: ListCut, at = '', depth = DEPTH): unknown {
  if (depth === 0 || json === null || typeof json !== 'object') return json;
  if (Array.isArray(json)) {
    if (json.length > max) cut(at || '(root)', json.length);
    return json.slice(0, max).map((item) => capLists(item, max, cut, at, depth - 1));
  }
  const record = json as Record<string, unknown>;
  for (const [key, value] of Object.entries(record)) record[key] = capLists(value, max, cut, at ? `${at}.${key}` : key, depth - 1);
  return record;
}
