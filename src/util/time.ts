// Dates as a Polish family and Home Assistant see them: calendar days in Europe/Warsaw and ISO 8601
// timestamps with the Warsaw offset.

export const TIME_ZONE = 'Europe/Warsaw';

/** The Warsaw wall clock at an instant: its date (YYYY-MM-DD), its time (HH:MM:SS) and the offset from UTC in minutes. */
export function wallTime(ms: number) {
  const whole = Math.floor(ms / 1000) * 1000;
  const offsetMinutes = warsawOffsetMinutes(whole);
  // The wall clock is the instant moved by the offset, read as if it were UTC. Asked thousands of
  // times a pass (the planner walks the moments of the day): the day's name is built once a day,
  // the time of day by arithmetic.
  const local = whole + offsetMinutes * 60_000;
  const day = Math.floor(local / DAY_MS);
  if (day !== lastDay.day) lastDay = { day, date: new Date(day * DAY_MS).toISOString().slice(0, 10) };
  const seconds = (local - day * DAY_MS) / 1000;
  const time = `${TWO_DIGITS[Math.floor(seconds / 3600)]}:${TWO_DIGITS[Math.floor(seconds / 60) % 60]}:${TWO_DIGITS[seconds % 60]}`;
  return { date: lastDay.date, time, offsetMinutes };
}

const DAY_MS = 86_400_000;
const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));
/** The calendar day of the last wall time asked (days since 1970 and its YYYY-MM-DD). */
let lastDay = { day: Number.NaN, date: '' };

/** From 1996 Poland keeps the EU summer time rule below; earlier instants ask the time zone database. */
const EU_RULE_FROM = Date.UTC(1996, 0, 1);

/**
 * +02:00 from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of October, else
 * +01:00 (the EU summer time rule, Europe/Warsaw in the tz database since 1996). Computed, not asked of
 * Intl: a DateTimeFormat for a time zone makes node map about 6 MB of ICU data for the life of the
 * bridge (see `npm run bench`). test/unit/util/time.test.ts compares the two hour by hour.
 */
function warsawOffsetMinutes(ms: number): number {
  if (ms < EU_RULE_FROM) return tzDatabaseOffsetMinutes(ms);
  if (ms < summer.yearFrom || ms >= summer.yearTo) summer = summerOf(new Date(ms).getUTCFullYear());
  return ms >= summer.from && ms < summer.to ? 120 : 60;
}

/** A year's summer time (from, to) within the year's instants (yearFrom, yearTo), UTC. */
function summerOf(year: number) {
  return { yearFrom: Date.UTC(year, 0, 1), yearTo: Date.UTC(year + 1, 0, 1), from: lastSundayOneUtc(year, 2), to: lastSundayOneUtc(year, 9) };
}

/** The summer time of the year last asked (nearly always this one's). */
let summer: ReturnType<typeof summerOf> = { yearFrom: 0, yearTo: 0, from: 0, to: 0 };

/** 01:00 UTC on the last Sunday of a month (0 = January). */
function lastSundayOneUtc(year: number, month: number): number {
  const lastDay = new Date(Date.UTC(year, month + 1, 0, 1));
  return lastDay.getTime() - lastDay.getUTCDay() * 86_400_000;
}

let oldDatesFormat: Intl.DateTimeFormat | undefined;

/** The offset as the time zone database has it, for instants before the EU rule. */
function tzDatabaseOffsetMinutes(ms: number): number {
  oldDatesFormat ??= new Intl.DateTimeFormat('en-CA', {
    timeZone: TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const parts: Record<string, string> = {};
  for (const p of oldDatesFormat.formatToParts(new Date(ms))) parts[p.type] = p.value;
  const asUtc = Date.parse(`${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}Z`);
  return Math.round((asUtc - ms) / 60_000);
}

/** The Warsaw calendar day of an instant, as YYYY-MM-DD. */
export function warsawDate(ms: number): string {
  return wallTime(ms).date;
}

/** The Warsaw wall-clock time of an instant, as HH:MM. */
export function warsawTimeOfDay(ms: number): string {
  return wallTime(ms).time.slice(0, 5);
}

/** An instant as ISO 8601 with the Warsaw offset, e.g. 2026-11-20T07:55:00+01:00. */
export function isoWarsaw(ms: number): string {
  const { date, time, offsetMinutes } = wallTime(ms);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${date}T${time}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** The instant of a Warsaw wall-clock date and time (HH:MM or HH:MM:SS). */
export function warsawInstant(date: string, time: string): number {
  const [h = '0', m = '0', s = '0'] = time.split(':');
  const naive = Date.parse(`${date}T${pad(+h)}:${pad(+m)}:${pad(+s)}Z`);
  // Two passes settle the offset even on the days the clocks change.
  const guess = naive - warsawOffsetAt(naive) * 60_000;
  return naive - warsawOffsetAt(guess) * 60_000;
}

/** The Warsaw offset in minutes: wallTime(ms).offsetMinutes without the date and time it would spell out (an invalid instant throws as there). */
export function warsawOffsetAt(ms: number): number {
  const whole = Math.floor(ms / 1000) * 1000;
  if (Number.isNaN(whole)) throw new RangeError('Invalid time value');
  return warsawOffsetMinutes(whole);
}

/** An instant in UTC in ISO 8601's basic format, whole seconds: 2026-11-23T06:41:07.123Z -> 20261123T064107Z (no colons). */
export function basicUtc(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]|\.\d+/g, '');
}

/** ISO timestamp of a Warsaw wall-clock date and time. */
export function isoAt(date: string, time: string): string {
  return isoWarsaw(warsawInstant(date, time));
}

/** Adds whole days to a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** 1 = Monday ... 7 = Sunday, for a YYYY-MM-DD date. */
export function dayOfWeek(date: string): number {
  const d = new Date(`${date}T12:00:00Z`).getUTCDay();
  return d === 0 ? 7 : d;
}

/** The Monday of the week a date falls in. */
export function weekStart(date: string): string {
  return addDays(date, 1 - dayOfWeek(date));
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
