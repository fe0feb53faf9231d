// Small shared pieces of the school logic: the new-item candidate handed to the poller, and tidy-ups
// of the portal's dates and texts.
import { isoAt, isoWarsaw } from '../util/time.js';

// The candidate for an event that the seen memory takes (store/seen.ts), re-exported for the school modules.
export type { NewsItem } from '../store/seen.js';

/** The YYYY-MM-DD day of a portal date or timestamp ('2026-01-10 12:00:00', '2026-01-10T...'). */
export function dayOf(value: string | undefined): string | undefined {
  return /^\s*(\d{4}-\d{2}-\d{2})/.exec(value ?? '')?.[1];
}

/**
 * A portal timestamp as published (interface section 3): the portal's Warsaw wall time
 * ('2026-01-10 12:00:00', also with a T) as ISO 8601 with the Warsaw offset ('2026-01-10T12:00:00+01:00');
 * one with its own offset moved to Warsaw's; a plain date stays a date. Anything else is unknown.
 */
export function portalTime(value: string | null | undefined): string | undefined {
  const text = value?.trim() ?? '';
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return text;
  const wall = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2})?)(?:\.\d+)?$/.exec(text);
  if (wall) return Number.isFinite(Date.parse(`${wall[1]}T${wall[2]}Z`)) ? isoAt(wall[1]!, wall[2]!) : undefined;
  const ms = /^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:?\d{2})$/.test(text) ? Date.parse(text) : NaN;
  return Number.isFinite(ms) ? isoWarsaw(ms) : undefined;
}

/** HH:MM from 'H:MM', 'HH:MM' or 'HH:MM:SS'; undefined for anything else. */
export function hhmm(value: string | undefined): string | undefined {
  const m = /^\s*(\d{1,2}):(\d{2})/.exec(value ?? '');
  return m ? `${m[1]!.padStart(2, '0')}:${m[2]}` : undefined;
}

/** A sortable key of a portal timestamp: the space and the T forms compare alike. */
export function timeKey(value: string | undefined): string {
  return (value ?? '').trim().replace('T', ' ');
}

/** Line breaks and indentation collapsed to single spaces (text grades, notes). */
export function collapse(value: string | undefined): string | undefined {
  const out = value?.replace(/\s+/g, ' ').trim();
  return out === '' ? undefined : out;
}

/** Rounds half up to two decimals without the binary surprises of 1.005 * 100. */
export function round2(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}

// The sort orders live in order.ts (no ICU collation); re-exported for the school modules.
export { idCompare, plCompare, textCompare } from './order.js';

/** Lower case without Polish diacritics, for matching words in names the schools type themselves. */
export function fold(value: string | undefined): string {
  return (value ?? '').toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').replace(/ł/g, 'l');
}

/** Whether two subject names are the same subject, as schools type them (case and diacritics aside); unknown is none. */
export const sameSubject = (a: string | null, b: string | null): boolean => a !== null && b !== null && fold(a) === fold(b);

/** A lookup by id of any list with string Ids. */
export function byId<T extends { Id: string }>(items: readonly T[] | undefined): Map<string, T> {
  return new Map((items ?? []).map((item) => [item.Id, item]));
}
