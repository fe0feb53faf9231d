// This and next week against the standing weekly plan (interface 18.2): what the timetable reads for it (the plan's
// entries, and the lessons they name), the differences computed once per pass (rules/standing-timetable.ts) with each one
// in the family's words, and the lines every screen tells them by: timetable_today's `standing_differences`, the board,
// the dashboard (which prints `words`) and Assist's get_day say one difference alike.
import type { Language } from '../../config/language.js';
import { want, type Copies, type Want } from '../../engine/resource.js';
import { LESSONS, lookup } from '../../engine/resources/lookups.js';
import { TIMETABLE_WORDS } from '../../i18n/lesson-words.js';
import type { Names } from '../../rules/names.js';
import type { SchoolDay } from '../../rules/schedule.js';
import { standingDifferences, standingTimetable, type StandingDifference, type StandingDropped } from '../../rules/standing-timetable.js';
import type { TimetableEntry } from '../../portal/schemas/timetable.js';
import { dayOfWeek } from '../../util/time.js';
import type { Logger } from '../../util/log.js';
import { TIMETABLE_ENTRIES } from './resources.js';

/** A difference as published (timetable_today's `standing_differences`): its facts, and `words`, what every screen prints. */
export type StandingOut = StandingDifference & { words: string };

/** The standing plan, and the lessons its entries name that the Lessons lookup lacks. */
export function standingWants(copies: Copies): Want[] {
  const entries = copies.peek(TIMETABLE_ENTRIES)?.TimetableEntries ?? [];
  return [
    want(TIMETABLE_ENTRIES),
    lookup(
      copies,
      LESSONS,
      entries.map((e) => e.Lesson),
    ),
  ];
}

/** The difference in the family's words: "sala 214 zamiast 105", "brak lekcji: Matematyka (jest w stałym planie)". */
export function standingWords(d: StandingDifference, language: Language): string {
  const w = TIMETABLE_WORDS[language].standing;
  const [was, now] = [d.was ?? '', d.now ?? ''];
  switch (d.kind) {
    case 'missing':
      return w.missing(was);
    case 'added':
      return w.added(now);
    case 'subject':
      return w.subject(was, now);
    case 'teacher':
      return w.teacher(was, now);
    case 'room':
      return w.room(was, now);
    case 'no_lessons':
      return w.noLessons(was, d.now);
  }
}

/** The plan's entries whose leftovers were told: a copy read is told once, not at every pass. */
const toldDropped = new WeakSet<readonly TimetableEntry[]>();

/** One log line for what the plan left out (entries naming no lesson, on a day never taught, repeated), once per copy read. */
function tellDropped(entries: readonly TimetableEntry[], dropped: StandingDropped, log: Logger): void {
  if (toldDropped.has(entries) || dropped.noLesson + dropped.notTaught + dropped.repeated === 0) return;
  toldDropped.add(entries);
  log.info({ ...dropped, entries: entries.length }, 'standing plan: entries naming no lesson, on a day never taught or repeated left out');
}

/** The weekdays the school teaches: Monday to Friday, and a weekend day the days read hold a lesson on. */
function taughtDays(days: readonly SchoolDay[]): (weekday: number) => boolean {
  const weekend = new Set(days.filter((d) => d.lessons?.some((l) => !l.extra)).map((d) => dayOfWeek(d.date)));
  return (weekday) => (weekday >= 1 && weekday <= 5) || weekend.has(weekday);
}

/** How `days` (this and next week) differ from the standing plan; null while the plan is not read. */
export function standingOf(copies: Copies, days: readonly SchoolDay[], names: Names, language: Language, log: Logger): StandingOut[] | null {
  const entries = copies.peek(TIMETABLE_ENTRIES)?.TimetableEntries;
  if (entries === undefined) return null;
  const lessons = new Map((copies.peek(LESSONS)?.Lessons ?? []).map((l) => [String(l.Id), { Subject: l.Subject, Teacher: l.Teacher }]));
  const plan = standingTimetable(entries, lessons, names, taughtDays(days));
  tellDropped(entries, plan.dropped, log);
  return standingDifferences(days, plan.slots).map((d) => ({ ...d, words: standingWords(d, language) }));
}

/** A difference's line under its day's heading: "3. sala 214 zamiast 105" (a whole day: its words alone). */
export function standingLine(d: { no: number | null; words: string }): string {
  return d.no === null ? d.words : `${d.no}. ${d.words}`;
}

/**
 * Whether the standing plan splits a slot of a day into groups: entries of two lessons or more valid that day at that
 * weekday and number; undefined while the plan is not read.
 */
export function splitSlots(copies: Copies): ((date: string, no: number | null) => boolean) | undefined {
  const entries = copies.peek(TIMETABLE_ENTRIES)?.TimetableEntries;
  if (entries === undefined) return undefined;
  const bySlot = new Map<string, TimetableEntry[]>();
  for (const e of entries) {
    // An entry naming no lesson is no group's (the plan leaves it out too).
    if (e.Lesson === undefined) continue;
    const key = `${e.DayOfTheWeek}|${e.LessonNo}`;
    const slot = bySlot.get(key);
    if (slot === undefined) bySlot.set(key, [e]);
    else slot.push(e);
  }
  return (date, no) => {
    const valid = (bySlot.get(`${dayOfWeek(date)}|${no}`) ?? []).filter(
      (e) => (e.DateFrom ?? '').slice(0, 10) <= date && (e.DateTo === undefined || date <= e.DateTo.slice(0, 10)),
    );
    return new Set(valid.map((e) => e.Lesson)).size > 1;
  };
}
