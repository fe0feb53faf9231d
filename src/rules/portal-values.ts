// How the rules read the portal's raw values: its dates and timestamps, its times of day, its texts typed over
// several lines, and its lists by id.
import { isoAt, isoWarsaw } from '../util/time.js';

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

/** A lookup by id of any list with string Ids. */
export function byId<T extends { Id: string }>(items: readonly T[] | undefined): Map<string, T> {
  return new Map((items ?? []).map((item) => [item.Id, item]));
}
