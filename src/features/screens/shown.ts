// How the features' board parts read the published states, and the dates they say in words. States are read
// leniently (an old retained state may lack a field); days are said as a family says them ("jutro",
// "czw. 19.11"), times in Warsaw's.
import type { BoardText } from '../../i18n/board-text.js';
import type { EntityState } from '../../engine/state.js';
import { addDays, dayOfWeek, wallTime } from '../../util/time.js';

/** The moment the board is drawn for, as Warsaw's calendar day and wall time (HH:MM). */
export type BoardMoment = ReturnType<typeof clockAt>;

export function clockAt(now: number) {
  const wall = wallTime(now);
  return { now, today: wall.date, time: wall.time.slice(0, 5) };
}

export const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
/** Whether an entity has a state: a list that never answered, or that the portal refuses for this child, has none (no box for it). */
export const known = (state: { state: unknown } | undefined): boolean => state !== undefined && state.state !== null && state.state !== undefined;

export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
/** A list attribute's items, each field possibly missing (an old retained state); no list is none. */
export function list<T extends object>(v: readonly T[] | undefined): Partial<T>[] {
  return Array.isArray(v) ? v.filter((x): x is T => typeof x === 'object' && x !== null) : [];
}

/** A nested attribute as its declared shape, each field possibly missing; anything but an object is none. */
export function part<T extends object>(v: T | null | undefined): Partial<T> | null {
  return typeof v === 'object' && v !== null ? v : null;
}

/**
 * A saved file's path as the web server serves it (`/files/<c>/<message id>/<name>`, or under
 * `school/` or `homework/` with the file's id), or null: only the server's own paths become links (a
 * retained state is not trusted further).
 */
function savedFilePath(value: unknown, folder: 'school' | 'homework' | null): string | null {
  const url = str(value);
  const pattern = folder === null ? /^\/files\/[^/?#]+\/\d+\/[^/?#]+$/ : new RegExp(`^/files/[^/?#]+/${folder}/\\d+/[^/?#]+$`);
  return url !== null && pattern.test(url) ? url : null;
}

/** A list's files by name, each with its path (savedFilePath) when saved, else null. */
export function savedFiles(files: readonly { name?: unknown; url?: unknown }[] | undefined, folder: 'school' | 'homework' | null) {
  return list(files).flatMap((f) => {
    const name = str(f.name);
    return name === null ? [] : [{ name, url: savedFilePath(f.url, folder) }];
  });
}

/** A text in one line, whole: the card clamps it where it must, the list opened over the card shows it all. */
export function spaced(value: string | null): string | null {
  return value === null ? null : value.replace(/\s+/g, ' ').trim();
}

/** A text in one line (spaced), cut to `max` characters with "…". */
export function cut(value: string | null, max: number): string | null {
  const one = spaced(value);
  return one === null || one.length <= max ? one : `${one.slice(0, max - 1)}…`;
}

/** A person as a card names them in passing: "J. Kowalska" for "Jolanta Kowalska" (the last word whole). */
export function initialled(name: string | null): string | null {
  const words = spaced(name)?.split(' ') ?? [];
  return words.length === 0 ? null : words.map((w, i) => (i < words.length - 1 ? `${w.charAt(0)}.` : w)).join(' ');
}

function dayMonth(date: string): string {
  return `${date.slice(8, 10)}.${date.slice(5, 7)}`;
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function weekday(date: string, text: BoardText, short = false): string {
  return (short ? text.weekdaysShort : text.weekdays)[dayOfWeek(date) - 1] ?? '';
}

/** "Dziś, środa 18.11" / "Jutro, czwartek 19.11" / "Poniedziałek 23.11". */
export function dayTitle(date: string, clock: BoardMoment, text: BoardText): string {
  const plain = `${weekday(date, text)} ${dayMonth(date)}`;
  if (date === clock.today) return `${text.today}, ${plain}`;
  if (date === addDays(clock.today, 1)) return `${text.tomorrow}, ${plain}`;
  return capital(plain);
}

/** A day as short words for a list: "jutro", "czw. 19.11". */
export function dayShort(date: string, clock: BoardMoment, text: BoardText): string {
  if (date === clock.today) return text.today.toLowerCase();
  if (date === addDays(clock.today, 1)) return text.tomorrow.toLowerCase();
  return `${weekday(date, text, true)} ${dayMonth(date)}`;
}

/** An ISO timestamp as the board says it: "09:11" today, else "17.11 09:11". */
export function when(iso: string, clock: BoardMoment): string {
  const at = wallTime(Date.parse(iso));
  const time = at.time.slice(0, 5);
  return at.date === clock.today ? time : `${dayMonth(at.date)} ${time}`;
}

export function lastUpdate(state: Pick<EntityState, 'state'> | undefined): string | null {
  const iso = str(state?.state);
  return iso !== null && Number.isFinite(Date.parse(iso)) ? iso : null;
}
