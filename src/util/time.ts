// Dates as a Polish family and Home Assistant see them: calendar days in Europe/Warsaw and ISO 8601
// timestamps with the Warsaw offset.

export const TIME_ZONE = 'Europe/Warsaw';

interface WallTime {
  date: string; // YYYY-MM-DD
  time: string; // HH:MM:SS
  offsetMinutes: number;
}

export function wallTime(ms: number): WallTime {
  const whole = Math.floor(ms / 1000) * 1000;
  const offsetMinutes = warsawOffsetMinutes(whole);
  // The wall clock is the instant moved by the offset, read as if it were UTC.
  const iso = new Date(whole + offsetMinutes * 60_000).toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 19), offsetMinutes };
}

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
  const year = new Date(ms).getUTCFullYear();
  return ms >= lastSundayOneUtc(year, 2) && ms < lastSundayOneUtc(year, 9) ? 120 : 60;
}

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
  let guess = naive - wallTime(naive).offsetMinutes * 60_000;
  guess = naive - wallTime(guess).offsetMinutes * 60_000;
  return guess;
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
