// The lucky number: which day it is for, whether it is the child's, and when it is worth asking again.
import { addDays, warsawDate, warsawInstant } from '../../util/time.js';
import type { NewsItem } from '../../rules/news.js';
import { awakeAt, SCHOOL_HOURS } from '../../engine/moments.js';
import { HOUR } from '../../util/duration.js';
import { textCompare } from '../../rules/order.js';

/** A lucky number and the day it is for. */
export type LuckyNumber = NonNullable<ReturnType<typeof readLucky>>;

/**
 * The lucky number as every screen tells it: its number, the day it is for, and whether it is the child's on that day
 * (`mine`), worked out once by the lucky feature (luckyToday); the board, the dashboard and the briefing only say it.
 */
export type LuckyShown = { number: number; day: string; mine: boolean };

/**
 * How often a school that does not run the lucky number is asked again (a user's refresh asks at once):
 * a little under a day, so the daily look lands on the fast pass at or just before the same time the
 * next day. Exactly 24 hours only worked while fast passes ran every 3 minutes round the clock; since
 * they are sparse at night and restart at 06:00, their minutes shift and the look slipped past the day.
 */
export const NOT_IN_USE_RECHECK_MS = 24 * 60 * 60_000 - 10 * 60_000;

/** A number more than this many days old is no draw of the last school week (the summer's): asked hourly, not at the fast age. */
const STALE_LUCKY_DAYS = 7;

/** The number as the portal gave it, if usable. */
export function readLucky(raw: { LuckyNumber?: unknown; LuckyNumberDay?: unknown }) {
  const number = Number(raw.LuckyNumber);
  const day = typeof raw.LuckyNumberDay === 'string' ? raw.LuckyNumberDay.slice(0, 10) : '';
  if (!Number.isInteger(number) || number <= 0 || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  return { number, day };
}

/**
 * Of the numbers the portal listed (one, or a list: live-notes 8), today's or the nearest later day's;
 * else the latest one (which luckyToday then treats as past).
 */
export function pickLucky(entries: readonly { LuckyNumber?: unknown; LuckyNumberDay?: unknown }[], today: string): LuckyNumber | undefined {
  const usable = entries
    .map(readLucky)
    .filter((l): l is LuckyNumber => l !== undefined)
    .sort((a, b) => textCompare(a.day, b.day));
  return usable.find((l) => l.day >= today) ?? usable.at(-1);
}

/**
 * The lucky number a family looks at today, and whether it is the child's. A number for a past day says
 * nothing about today; one for a later day (the portal shows the next school day's a day early, spec 2.9)
 * is shown with its day, and is the child's luck only on that day.
 */
export function luckyToday(lucky: LuckyNumber | undefined, registerNumber: string | undefined, today: string, inUse = true) {
  const current = inUse && lucky && lucky.day >= today ? lucky : undefined;
  const mine = current !== undefined && registerNumber !== undefined && String(current.number) === registerNumber;
  return {
    // False when the school does not run the lucky number at all (then there is never a number).
    inUse,
    // Today's or the next school day's number; null when only a past day's number is known.
    number: current?.number ?? null,
    day: current?.day ?? null,
    registerNumber: registerNumber ?? null,
    // The number is the child's class register number (for its day, which may be a later one).
    mine,
    // The number is the child's and its day is today: lucky_today (never a day or a weekend early).
    mineToday: mine && current.day === today,
  };
}
export type LuckyToday = ReturnType<typeof luckyToday>;

/** The number of today or the next school day and whether it is the child's, as the screens tell it; undefined without one. */
export function luckyShown(lucky: LuckyToday): LuckyShown | undefined {
  return lucky.number === null || lucky.day === null ? undefined : { number: lucky.number, day: lucky.day, mine: lucky.mine };
}

/** What a `lucky` event carries: the day, the number drawn and the child's register number. */
export type LuckyPayload = { day: string; number: LuckyToday['number']; register_number: LuckyToday['registerNumber'] };

/**
 * The `lucky` event candidate: the number of its day is the child's. Its id is the day, so the event
 * fires once per day whether the number was read that morning or published the day before, and the
 * seen memory keeps it from firing again after a restart or on the next read of the same number.
 */
export function luckyEvents(lucky: LuckyToday): NewsItem<LuckyPayload>[] {
  if (!lucky.mine || lucky.day === null) return [];
  return [{ id: `lucky:${lucky.day}`, payload: { day: lucky.day, number: lucky.number, register_number: lucky.registerNumber } }];
}

/**
 * Until when a read of the lucky number answers the question, whatever its age: asking again is
 * pointless once the next school day's number is known (until its day's night ends, 06:00); once today's is
 * known, the next one may appear early (spec 2.9), so an hourly look from the night's end to the end of a
 * school's hours (21:00) is enough (a school publishes it during the day), and none after until midnight. The
 * hours are the engine's (`engine/moments.ts`), not the lucky number's own. A school without the
 * lucky number may start it one day: once a day is often enough to notice. Undefined while only a
 * past day's number of the last week (or none) is known: then the row's own age asks again, for a draw due any
 * moment. One older than that (the summer holidays: the portal keeps the year's last) is asked hourly: no draw is near,
 * and the first one of a new year is still seen within the hour.
 */
export function luckySettledUntil(lucky: LuckyNumber | undefined, readAt: number, inUse = true): number | undefined {
  if (!inUse) return readAt + NOT_IN_USE_RECHECK_MS;
  const today = warsawDate(readAt);
  if (lucky !== undefined && lucky.day < addDays(today, -STALE_LUCKY_DAYS)) return readAt + HOUR;
  if (!lucky || lucky.day < today) return undefined;
  if (lucky.day > today) return awakeAt(warsawInstant(lucky.day, '00:00'));
  const next = Math.max(readAt + HOUR, awakeAt(warsawInstant(today, '00:00')));
  return next >= warsawInstant(today, SCHOOL_HOURS.to) ? warsawInstant(addDays(today, 1), '00:00') : next;
}
