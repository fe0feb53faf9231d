// The contract from feature to screen, checked by the typecheck (`npm run typecheck`, and `npm test`'s checks),
// never run: renaming an attribute where the timetable renders it must fail to compile where a screen reads it.
// The timetable renders `TimetableDay` (features/timetable/day.ts), its two entities publish that very type, and
// each way the screens read it (the board's `Received`, `ItemOf` and `part`, the dashboard's `reads`, the
// briefing's `BriefedDay`) refuses the same type with `lessons` renamed, or with the day's `hours.to` renamed:
// every `@ts-expect-error` below fails the typecheck when its line compiles. These were a vitest file that ran
// the compiler on src with the feature's text edited (24 s of CPU in a full run; this, a few hundredths of a
// second of the typecheck).
import type { AttributesOf, ItemOf, Received } from '../../src/features/kit/contract.js';
import type { EntityDef } from '../../src/features/kit/entities.js';
import type { BriefedDay } from '../../src/features/briefing/rules.js';
import { part } from '../../src/features/screens/shown.js';
import { reads } from '../../src/features/screens/templates.js';
import type { SlotOut, TimetableDay, timetableOf } from '../../src/features/timetable/day.js';
import type { timetableToday, timetableTomorrow } from '../../src/features/timetable/entities.js';

/** True when A and B are one type (each assignable to the other). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

// What the feature renders is what both entities publish: a rename in the feature is a rename the screens receive.
export const rendered: Same<ReturnType<typeof timetableOf>['attributes'], TimetableDay> = true;
// (Today's with its differences from the standing plan beside.)
export const today: Same<Omit<AttributesOf<typeof timetableToday>, 'standing_differences'>, TimetableDay> = true;
export const tomorrow: Same<AttributesOf<typeof timetableTomorrow>, TimetableDay> = true;

/** The timetable's day with `lessons` renamed, as a feature that renamed it would publish it. */
type LessonsRenamed = Omit<TimetableDay, 'lessons'> & { periods: SlotOut[] };
/** The day with its hours' `to` renamed (a nested attribute). */
type HoursToRenamed = Omit<TimetableDay, 'hours'> & { hours: { from: string; until: string } | null };

declare const published: EntityDef<'timetable_today', TimetableDay>;
declare const lessonsRenamed: EntityDef<'timetable_today', LessonsRenamed>;

// The board: a slot's type, the list of slots and the day's end, each as features/timetable/board.ts reads them.
export type Slot = ItemOf<typeof published, 'lessons'>;
// @ts-expect-error the board's slot type names `lessons`, which a renamed timetable no longer publishes
export type RenamedSlot = ItemOf<typeof lessonsRenamed, 'lessons'>;

export function boardReads(
  day: Received<typeof published>,
  renamed: Received<typeof lessonsRenamed>,
  hoursRenamed: Received<EntityDef<'timetable_today', HoursToRenamed>>,
): unknown[] {
  return [
    day.attributes?.lessons,
    // @ts-expect-error the board's list of slots is gone from a timetable that renamed `lessons`
    renamed.attributes?.lessons,
    part(day.attributes?.hours)?.to,
    // @ts-expect-error the day's end the board shows is gone when `hours.to` is renamed
    part(hoursRenamed.attributes?.hours)?.to,
  ];
}

// The dashboard's templates name the attributes they read (features/timetable/dashboard.ts).
export const dashboard = reads(published, 'hours', 'lessons', 'kindergarten');
// @ts-expect-error a template reading `lessons` of a timetable that renamed it does not compile
export const dashboardRenamed = reads(lessonsRenamed, 'hours', 'lessons', 'kindergarten');

// The briefing takes the day as the timetable renders it (features/briefing/briefing.ts, briefingAt).
export function briefed(day: TimetableDay, hoursRenamed: HoursToRenamed): BriefedDay[] {
  const renamed: BriefedDay = {
    // @ts-expect-error the briefing says when the day ends (`hours.to`): a day without it is refused
    hours: hoursRenamed.hours,
    date: '2026-11-18',
    lessons: hoursRenamed.lessons,
  };
  return [{ ...day, date: '2026-11-18' }, renamed];
}
