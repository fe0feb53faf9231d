// Warsaw wall-clock time computed from the EU summer time rule must agree with the time zone database
// (node's ICU) at every hour around every clock change, and must not need ICU's time zone data for
// today's dates (a DateTimeFormat for a zone keeps about 6 MB of that data mapped in the bridge).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isoWarsaw, wallTime, warsawInstant } from '../../../src/util/time.js';
import * as Shared from '../../../src/util/time.js';

const HOUR = 3_600_000;
const reference = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Warsaw',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** The wall clock as the tz database has it: "YYYY-MM-DD HH:MM:SS". */
function fromDatabase(ms: number): string {
  const p: Record<string, string> = {};
  for (const part of reference.formatToParts(new Date(ms))) p[part.type] = part.value;
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

function computed(ms: number): string {
  const { date, time } = wallTime(ms);
  return `${date} ${time}`;
}

describe('Warsaw wall-clock time', () => {
  it('agrees with the time zone database every hour around each clock change from 1996 to 2040', () => {
    for (let year = 1996; year <= 2040; year++) {
      for (const month of [2, 9]) {
        const start = Date.UTC(year, month, 24);
        for (let ms = start; ms < start + 9 * 24 * HOUR; ms += HOUR / 2) expect(computed(ms), new Date(ms).toISOString()).toBe(fromDatabase(ms));
      }
    }
  });

  it('agrees with the time zone database every 5 hours through 2024 to 2028, and before the EU rule', () => {
    for (let ms = Date.UTC(2024, 0, 1); ms < Date.UTC(2029, 0, 1); ms += 5 * HOUR + 1_234) expect(computed(ms)).toBe(fromDatabase(ms));
    for (const ms of [Date.UTC(1980, 6, 1), Date.UTC(1995, 8, 24, 0, 30), Date.UTC(1995, 8, 24, 1, 30), Date.UTC(1995, 9, 29, 12)]) {
      expect(computed(ms)).toBe(fromDatabase(ms));
    }
  });

  it('moves the clocks at 01:00 UTC on the last Sundays of March and October', () => {
    expect(isoWarsaw(Date.UTC(2026, 2, 29, 0, 59, 59))).toBe('2026-03-29T01:59:59+01:00');
    expect(isoWarsaw(Date.UTC(2026, 2, 29, 1))).toBe('2026-03-29T03:00:00+02:00');
    expect(isoWarsaw(Date.UTC(2026, 9, 25, 0, 59, 59, 999))).toBe('2026-10-25T02:59:59+02:00');
    expect(isoWarsaw(Date.UTC(2026, 9, 25, 1))).toBe('2026-10-25T02:00:00+01:00');
    expect(warsawInstant('2026-11-20', '07:55')).toBe(Date.UTC(2026, 10, 20, 6, 55));
    expect(warsawInstant('2026-06-01', '07:55:30')).toBe(Date.UTC(2026, 5, 1, 5, 55, 30));
  });
});

describe('Warsaw time for current dates', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('never builds an ICU time zone formatter', async () => {
    const made = vi.spyOn(Intl, 'DateTimeFormat');
    // A copy of the module of its own (a query makes it another module), loaded under the spy: the
    // worker's shared copy, which other files use, is not reset.
    const fresh = '../../../src/util/time.ts?fresh';
    const time = (await import(/* @vite-ignore */ fresh)) as typeof Shared;
    expect(time.isoWarsaw).not.toBe(Shared.isoWarsaw);
    expect(time.isoWarsaw(Date.UTC(2026, 10, 22, 12))).toBe('2026-11-22T13:00:00+01:00');
    expect(time.warsawDate(Date.UTC(2026, 5, 30, 22, 30))).toBe('2026-07-01');
    expect(made).not.toHaveBeenCalled();
  });
});
