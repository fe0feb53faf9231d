// The timetable feature's states, rendered from the Schedule it computed once: the plan changes of
// today and the next school day, whether each is a school day, when lessons start and end, the next
// lesson, at_school, and the day's lessons and the lesson in progress (day.ts).
import { FALLBACK_LANGUAGE, type Language } from '../../config/language.js';
import { onOff, withAttributes } from '../kit/render.js';
import { changeWords, currentLessonOf, joined, nextLessonFacts, timetableOf } from './day.js';
import { TIMETABLE_WORDS } from '../../i18n/lesson-words.js';
import { heldSlots, type Schedule, type ScheduledLesson, type SchoolDay } from '../../rules/schedule.js';
import type { NextLesson } from '../../rules/schooldays.js';
import type { TimetableStates } from './entities.js';

/**
 * A day's plan changes, each in the words of its slot's note; no day (the next school day unknown) is unknown.
 * Without the year's changes (Calendars/Substitutions refused or never answered, a kindergarten's plan) the count
 * is unknown too, never 0: the changes the timetable itself shows are listed, but a room change or a lesson moved in is not.
 */
function planChangesOf(day: SchoolDay | null, changesKnown: boolean, language: Language): TimetableStates['plan_changes_today'] {
  if (day === null) return { state: null, attributes: { date: null, changes: [] } };
  // A change's own date goes without saying, except for a lesson moved to another day: where it goes.
  const changes = day.changes.map((c) => {
    const { date, ...rest } = { ...c, words: changeWords(c, day.date, TIMETABLE_WORDS[language]) };
    return date === day.date ? rest : { date, ...rest };
  });
  return changesKnown ? withAttributes(changes.length, { date: day.date, changes }) : { state: null, attributes: { date: day.date, changes } };
}

/** ON with lessons of the plan (an extra class alone makes no school day), OFF without, unknown when the timetable does not cover the day. */
function schoolDayOf(day: SchoolDay): TimetableStates['school_day_today'] {
  const plan = day.lessons?.some((l) => l.takesPlace && !l.extra);
  return {
    state: plan === undefined ? null : plan ? 'ON' : 'OFF',
    attributes: { date: day.date, lessons: heldSlots(day), free_day: day.freeDay ? (day.freeDay.name ?? day.freeDay.scope) : null },
  };
}

/** The slot's subjects as the state; a split class's groups joined with ' / '. */
function nextLessonOf(next: NextLesson<ScheduledLesson> | null): TimetableStates['next_lesson'] {
  if (next === null) return { state: null, attributes: {} };
  return { state: joined(next.lessons.map((l) => l.subject)), attributes: nextLessonFacts(next) };
}

/**
 * The timetable's states. "tomorrow" is the next school day, except for school_day_tomorrow, which
 * is the calendar day after today (alarm automations). `changesKnown`: the year's plan changes were read
 * (false: the plan change counts are unknown).
 */
export function renderTimetable(s: Schedule, language: Language = FALLBACK_LANGUAGE, changesKnown = true): TimetableStates {
  return {
    plan_changes_today: planChangesOf(s.today, changesKnown, language),
    plan_changes_tomorrow: planChangesOf(s.next, changesKnown, language),
    school_day_today: schoolDayOf(s.today),
    school_day_tomorrow: schoolDayOf(s.tomorrow),
    lessons_start_today: { state: s.today.start },
    lessons_end_today: { state: s.today.end },
    lessons_start_tomorrow: { state: s.next?.start ?? null },
    lessons_end_tomorrow: { state: s.next?.end ?? null },
    next_lesson: nextLessonOf(s.nextLesson),
    timetable_today: timetableOf(s.today, language),
    timetable_tomorrow: timetableOf(s.next, language),
    current_lesson: currentLessonOf(s.current, language, s.today),
    // ON between the first lesson's start and the last lesson's end today. Without today's plan (refused,
    // or not covering the day) whether the child is at school is unknown, never OFF.
    at_school: s.today.lessons === undefined ? { state: null } : onOff(s.atSchool),
  };
}
