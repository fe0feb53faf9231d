// The timetable feature's view and the states its declarations (entities.ts) make of it: the Schedule computed
// once, rendered as the plan changes of today and the next school day, whether each is a school day and the next
// lesson (the day's lessons and the lesson in progress in day.ts).
import type { StandingOut } from './standing.js';
import type { Language } from '../../config/language.js';
import type { PublishedAs } from '../kit/entities.js';
import { withAttributes } from '../kit/render.js';
import { changeWords, joined, nextLessonFacts } from './day.js';
import { TIMETABLE_WORDS } from '../../i18n/lesson-words.js';
import { heldSlots, type Schedule, type ScheduledLesson, type SchoolDay } from '../../rules/schedule.js';
import type { NextLesson } from '../../rules/schooldays.js';
import type { PlanChange } from '../../rules/plan-changes.js';

/**
 * What the timetable's entities show: the Schedule computed once per pass (or at a lesson's start or end), in the
 * family's language; `changesKnown`: the year's plan changes were read (false: the plan change counts are unknown).
 */
export interface TimetableView {
  schedule: Schedule;
  language: Language;
  changesKnown: boolean;
  /** This and next week against the standing plan (standing.ts); null while the plan is not read, none for a kindergarten. */
  standing?: StandingOut[] | null;
}

/**
 * The attributes of plan_changes_today / plan_changes_tomorrow: the day and its changes. A change's own `date` only
 * for a lesson moved to another day (the day it goes to); `words`: the change as its slot's `note` says it (`note`
 * is the school's own).
 */
export type PlanChanges = { date: string | null; changes: (Omit<PlanChange, 'date'> & { date?: string; words: string | null })[] };

/** The attributes of school_day_today / school_day_tomorrow. */
export type SchoolDayFacts = { date: string; lessons: number | null; free_day: string | null };

/** The attributes of next_lesson (day.ts nextLessonFacts). */
export type NextLessonFacts = ReturnType<typeof nextLessonFacts>;

/**
 * A day's plan changes, each in the words of its slot's note; no day (the next school day unknown) is unknown.
 * Without the year's changes (Calendars/Substitutions refused or never answered, a kindergarten's plan) the count
 * is unknown too, never 0: the changes the timetable itself shows are listed, but a room change or a lesson moved in is not.
 */
export function planChangesOf(day: SchoolDay | null, changesKnown: boolean, language: Language): PublishedAs<PlanChanges> {
  if (day === null) return { state: null, attributes: { date: null, changes: [] } };
  // A change's own date goes without saying, except for a lesson moved to another day: where it goes.
  const changes = day.changes.map((c) => {
    const { date, ...rest } = { ...c, words: changeWords(c, day.date, TIMETABLE_WORDS[language]) };
    return date === day.date ? rest : { date, ...rest };
  });
  return changesKnown ? withAttributes(changes.length, { date: day.date, changes }) : { state: null, attributes: { date: day.date, changes } };
}

/** ON with lessons of the timetable (an extra class alone makes no school day), OFF without, unknown when the timetable does not cover the day. */
export function schoolDayOf(day: SchoolDay): PublishedAs<SchoolDayFacts, 'ON' | 'OFF'> {
  const hasLessons = day.lessons?.some((l) => l.takesPlace && !l.extra);
  return {
    state: hasLessons === undefined ? null : hasLessons ? 'ON' : 'OFF',
    attributes: { date: day.date, lessons: heldSlots(day), free_day: day.freeDay ? (day.freeDay.name ?? day.freeDay.scope) : null },
  };
}

/** The slot's subjects as the state; a split class's groups joined with ' / '. `days`: the published days it may be of. */
export function nextLessonOf(next: NextLesson<ScheduledLesson> | null, days: ReadonlyArray<SchoolDay | null>): PublishedAs<NextLessonFacts> {
  if (next === null) return { state: null, attributes: {} };
  const day = days.find((d) => d?.date === next.date);
  return { state: joined(next.lessons.map((l) => l.subject)), attributes: nextLessonFacts(next, day) };
}
