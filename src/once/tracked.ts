// The memory of what the records of a tracked kind (grade, test, homework, absence) last said, so that an
// edit or a removal of one already known is news too: `<kind>_changed` with the previous values, and
// `<kind>_removed` once two distinct successful reads have gone without it (a hiccup is not a removal).
import * as z from 'zod';

/** What a kind's pass tells about its records beside the candidates (see SourceResult.tracked). */
export interface Tracking<F extends string = string> {
  /**
   * The payload fields an edit changes: compared, kept, and their old values sent as `previous` (F: the
   * names the event entity declares there, see Tracked in features/kit/contract.ts).
   */
  fields: readonly F[];
  /**
   * Per id prefix (`grade:`, `agenda:`, `descriptive:p`...; the longest that fits an id counts), the
   * read that listed those records: the same mark for the same answer (a cached copy read again is not
   * a second read); a prefix missing, or undefined, was not read this time and none of its records
   * can be missing.
   */
  reads: Readonly<Record<string, string | undefined>>;
  /** Ids the read still lists that are no longer news (a test whose day has passed): forgotten quietly. */
  listed?: Iterable<string>;
}

/** One record as remembered: its compared fields, and the read that first went without it. */
const recordSchema = z.object({ v: z.record(z.string(), z.unknown()), miss: z.string().optional() });
export const trackedSchema = z.record(z.string(), z.record(z.string(), recordSchema));
type Remembered = z.output<typeof recordSchema>;

/** An edit or a removal to announce: its event type's suffix and the payload beside the type. */
export interface Happening {
  change: 'changed' | 'removed';
  payload: Record<string, unknown>;
}

const known = (value: unknown): boolean => value !== null && value !== undefined;
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

function pick(payload: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.filter((f) => known(payload[f])).map((f) => [f, payload[f]]));
}

/** The mark of the read an id's list came from: its longest prefix among `reads`. */
function readOf(id: string, reads: Tracking['reads']): string | undefined {
  let best: string | undefined;
  for (const prefix of Object.keys(reads)) {
    if (id.startsWith(prefix) && (best === undefined || prefix.length > best.length)) best = prefix;
  }
  return best === undefined ? undefined : reads[best];
}

/**
 * Compares a kind's records of this read with the remembered ones and updates the memory (in place).
 * A field that became unknown (null) is no edit: a lookup failing for a moment must not announce one,
 * and the old value is kept. A field that gains a value where the record was remembered without one
 * (null: a comment written later) is an edit, `previous` null; the unknowns of a kind's first read
 * (`priming`) are not remembered, so that a lookup failing then announces nothing when it comes back.
 * A new id is only remembered (the seen memory decides whether it is news).
 */
export function compareRecords(
  memory: Record<string, Remembered>,
  items: readonly { id: string; payload: Record<string, unknown> }[],
  tracking: Tracking,
  priming = false,
): Happening[] {
  const out: Happening[] = [];
  const present = new Set<string>();
  for (const { id, payload } of items) {
    present.add(id);
    const now = pick(payload, tracking.fields);
    const unknown = priming ? {} : Object.fromEntries(tracking.fields.filter((f) => payload[f] === null).map((f) => [f, null]));
    const old = memory[id];
    const previous: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(now)) {
      if (old !== undefined && field in old.v && !same(old.v[field], value)) previous[field] = old.v[field];
    }
    if (Object.keys(previous).length > 0) out.push({ change: 'changed', payload: { ...payload, previous } });
    memory[id] = { v: { ...unknown, ...old?.v, ...now } };
  }
  const listed = new Set(tracking.listed ?? []);
  for (const [id, old] of Object.entries(memory)) {
    if (present.has(id)) continue;
    if (listed.has(id)) {
      delete memory[id];
      continue;
    }
    const read = readOf(id, tracking.reads);
    if (read === undefined || old.miss === read) continue;
    if (old.miss === undefined) {
      memory[id] = { ...old, miss: read };
      continue;
    }
    delete memory[id];
    out.push({ change: 'removed', payload: pick(old.v, Object.keys(old.v)) });
  }
  return out;
}
