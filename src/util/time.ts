// Dates as a Polish family and Home Assistant see them: calendar days in Europe/Warsaw and ISO 8601
// timestamps with the Warsaw offset.

export const TIME_ZONE = 'Europe/Warsaw';

const partsFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

interface WallTime {
  date: string; // YYYY-MM-DD
  time: string; // HH:MM:SS
  offsetMinutes: number;
}

export function wallTime(ms: number): WallTime {
  const parts: Record<string, string> = {};
  for (const p of partsFormat.formatToParts(new Date(ms))) parts[p.type] = p.value;
  const date = `${parts.year}-${parts.month}-${parts.day}`;
  const time = `${parts.hour}:${parts.minute}:${parts.second}`;
  const asUtc = Date.parse(`${date}T${time}Z`);
  const offsetMinutes = Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
  return { date, time, offsetMinutes };
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
