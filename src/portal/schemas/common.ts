// Building blocks for reading gateway resources leniently: unknown fields pass through, ids are
// normalised to strings (spec 2.1.3: the same id comes as 12 or "12"), and references are {Id, Url}.
import * as z from 'zod';

/**
 * The Codes by which the gateway says that the school does not run a module (live-notes 8 and 9). Only
 * these known ones are quiet: any other Code stays an unexpected answer a family can report.
 */
export const DISABLED_CODE = 'Disabled';
export const SWITCHED_OFF_CODES: readonly string[] = [DISABLED_CODE, 'LuckyNumberIsNotActive'];

/**
 * An id as the gateway gives it: an integer, a numeric string, or one of the known string forms
 * (LID-..., t123). Normalised to a trimmed string so that 12 and "12" compare equal.
 */
export const id = z.union([z.number(), z.string()]).transform((v) => String(v).trim());

/** An id that must be a usable number; records with anything else are skipped by the readers. */
export const numericId = z.union([z.number().int(), z.string().regex(/^\s*\d+\s*$/)]).transform((v) => String(v).trim());

/** A reference {Id, Url}; a bare id is accepted too. */
export const ref = z.union([z.looseObject({ Id: id }).transform((r) => r.Id), id]);

export const optionalRef = ref.nullish().transform((v) => v ?? undefined);

/**
 * Reads a list leniently: items that do not fit the schema are dropped (and counted) instead of
 * failing the whole resource, because one odd record must not blank a child's whole grade list.
 */
export function lenientList<T extends z.ZodType>(item: T) {
  return z.array(z.unknown()).transform((items) => fitting(item, items));
}

/** The items that fit `item`, in order; the others are dropped. */
export function fitting<T extends z.ZodType>(item: T, items: readonly unknown[]): z.output<T>[] {
  return items.flatMap((raw) => {
    const parsed = item.safeParse(raw);
    return parsed.success ? [parsed.data] : [];
  });
}

/** Normalises an id from anywhere (number, string, {Id}) for comparisons. */
export function normId(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (value && typeof value === 'object' && 'Id' in value) return normId((value as { Id: unknown }).Id);
  return undefined;
}
