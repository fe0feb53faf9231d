// The briefing's facts: which school day a parent hears about (today until its lessons end, then the next
// school day) and what matters on it, from what the timetable, the agenda and the lucky number already
// hold. Pure: the words are src/i18n/briefing-text.ts's, one function per language.
import { addDays, dayOfWeek } from '../util/time.js';
import type { AgendaItem } from './agenda.js';
import type { HomeworkItem } from './homework.js';
import { hoursOf, lessonChange, slotsOf, type SchoolDay } from './schedule.js';

export interface BriefingInput {
  now: number;
  /** Warsaw date of `now`. */
  today: string;
  /** The days the timetable knows (this and next week), with their lessons and changes. */
  days: readonly SchoolDay[];
  /** Tests and quizzes ahead (the agenda's kinds `test` and `quiz`). */
  tests: readonly AgendaItem[];
  homework: readonly HomeworkItem[];
  /** The lucky feature's number as last read (its day may be past). */
  lucky: { number: number; day: string } | undefined;
  registerNumber: string | undefined;
}

export type Briefing = NonNullable<ReturnType<typeof briefing>>;

/** The briefing, or null when the timetable knows no school day ahead (holidays, no timetable yet). */
export function briefing(input: BriefingInput) {
  const target = briefedDay(input);
  if (!target) return null;
  // One entry per slot, as the timetable counts them: a class split into groups (English for each half) is one
  // lesson a parent counts and packs for; different subjects of one slot are joined.
  const lessons = slotsOf(target.lessons ?? []).map((slot) => ({
    subject: [...new Set(slot.map((l) => l.subject).filter((s) => s !== null && s !== ''))].join(' / '),
    /** How it differs from the plan; null for an ordinary lesson. */
    change: slot.map(lessonChange).find((c) => c !== null) ?? null,
    /** Whether the child goes to it (a cancelled or moved-away lesson does not take place). */
    takesPlace: slot.some((l) => l.takesPlace),
  }));
  const day = target.date;
  /** How far it is: today, tomorrow, or a later day named by its weekday. */
  const when: 'today' | 'tomorrow' | 'later' = day === input.today ? 'today' : day === addDays(input.today, 1) ? 'tomorrow' : 'later';
  return {
    /** The day it is about (YYYY-MM-DD). */
    day,
    when,
    /** 1 = Monday … 7 = Sunday. */
    weekday: dayOfWeek(day),
    /** HH:MM of the day's span, as every screen says it (SchoolDay's start and end: extra classes included). */
    start: hoursOf(target)?.from ?? null,
    end: hoursOf(target)?.to ?? null,
    /** Every lesson of the day in slot order, with its change. */
    lessons: lessons.filter((l) => l.subject !== ''),
    tests: input.tests.filter((t) => t.date === day).map((t) => ({ subject: t.subject, kind: t.kind })),
    homework: input.homework.filter((h) => h.due === day && h.done !== true).map((h) => ({ subject: h.subject })),
    luckyMine:
      input.lucky !== undefined &&
      input.lucky.day === day &&
      input.registerNumber !== undefined &&
      String(input.lucky.number) === input.registerNumber,
    /** The weekdays without lessons between today and the day briefed (a holiday, a free day of the school). */
    freeBefore: input.days
      .filter((d) => d.date > input.today && d.date < day && dayOfWeek(d.date) <= 5 && d.freeDay !== undefined)
      .map((d) => ({ date: d.date, name: d.freeDay?.name ?? null })),
  };
}

/** Today while its lessons are still ahead or going on, else the first later day with a lesson taking place. */
function briefedDay(input: BriefingInput): SchoolDay | undefined {
  const takesPlace = (d: SchoolDay): boolean => (d.lessons ?? []).some((l) => l.takesPlace);
  const today = input.days.find((d) => d.date === input.today);
  if (today && takesPlace(today) && today.end !== null && Date.parse(today.end) > input.now) return today;
  return input.days.find((d) => d.date > input.today && takesPlace(d));
}
