// Lenient field readers for the data resources: a field of an unexpected type becomes undefined
// instead of failing its record, because the gateway mixes numbers, numeric strings and booleans.
import * as z from 'zod';
import { fitting, id, normId } from './common.js';
import { oneLine } from '../../util/text.js';

/** Text that may come as a number; blank, null, booleans and objects read as undefined. */
export function toText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

const NUMERIC = /^[+-]?\d+(?:[.,]\d+)?$/;

/** A number, or a numeric string with a decimal point or comma ('1,5'); anything else undefined. */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string') {
    const text = value.trim();
    return NUMERIC.test(text) ? Number(text.replace(',', '.')) : undefined;
  }
  return undefined;
}

/** A boolean, also from 0/1 and 'true'/'false'; anything else undefined. */
export function toBool(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === '1' || value === 'true') return true;
  if (value === 0 || value === '0' || value === 'false') return false;
  return undefined;
}

/** Ids from a list of {Id} or bare ids (or a single one); unusable entries are dropped. */
export function toIdList(value: unknown): string[] {
  const items = Array.isArray(value) ? value : value == null ? [] : [value];
  return items.map(normId).filter((v): v is string => v !== undefined);
}

/** A field read by `read` from whatever the portal sent (or nothing): it never fails its record. */
export const lenient = <T>(read: (value: unknown) => T) => z.unknown().optional().transform(read);

export const text = lenient(toText);
export const num = lenient(toNumber);
export const bool = lenient(toBool);
/** A reference {Id, Url} or a bare id, normalised to a string id; unusable means undefined. */
export const refId = lenient(normId);
export const idList = lenient(toIdList);
/** Like idList, but a missing field stays undefined (absent is not the same as empty). */
export const optionalIdList = lenient((v) => (v === undefined ? undefined : toIdList(v)));

/** A record id that may be a string (t123, LID-...); only blank is unusable. */
export const anyId = id.refine((v) => v !== '', 'empty id');

/** The names a reference may carry inline, each by the portal's field. */
const INLINE_NAMES = { name: 'Name', short: 'Short', firstName: 'FirstName', lastName: 'LastName', symbol: 'Symbol' } as const;

/** A reference's id and the names it carries inline. */
export type NamedRef = Partial<Record<'id' | keyof typeof INLINE_NAMES, string>>;

/**
 * A reference that may carry names inline (Timetables lessons often repeat the subject's Name and the
 * teacher's FirstName/LastName next to the Id); kept as a fallback for when a lookup is missing.
 */
function toNamedRef(value: unknown): NamedRef | undefined {
  const refId = normId(value);
  if (value === null || typeof value !== 'object') return refId === undefined ? undefined : { id: refId };
  const o = value as Record<string, unknown>;
  const out: NamedRef = {};
  if (refId !== undefined) out.id = refId;
  for (const [key, field] of Object.entries(INLINE_NAMES)) {
    const v = toText(o[field]);
    if (v !== undefined) out[key as keyof NamedRef] = oneLine(v).trim();
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

export const namedRef = lenient(toNamedRef);

/** A list whose items are kept only when they are objects; anything else reads as an empty list. */
export function objectList<T extends z.ZodType>(item: T) {
  return lenient((value) => (Array.isArray(value) ? fitting(item, value) : []));
}
