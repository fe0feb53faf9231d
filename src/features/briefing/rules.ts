// The briefing's facts: what matters on the day a parent hears about (the day the screens are about, as the
// timetable feature publishes it), from what the timetable, the agenda and the lucky number already hold (each
// told by its own feature's rule). Pure: the words are src/i18n/briefing-text.ts's, one function per language.
import { addDays, dayOfWeek } from '../../util/time.js';
import type { AgendaItem } from '../../rules/agenda.js';
import type { HomeworkItem } from '../../rules/homework.js';
import type { SchoolDay } from '../../rules/schedule.js';
import type { ChangeKind } from '../../rules/plan-changes.js';
import type { Briefing } from '../../i18n/briefing-text.js';
import type { LuckyShown } from '../lucky/rules.js';
import { isNewsOn, isProposal, type TermGrade } from '../../rules/term-grades.js';

/** The day briefed as timetable_* publishes it (features/timetable/day.ts): its span and its slots, each with its change and its words. */
export interface BriefedDay {
  date: string;
  hours: { from: string; to: string } | null;
  lessons: readonly { subject: string | null; change: ChangeKind | null; note: string | null; moved_to?: object }[];
}

export interface BriefingInput {
  /** Warsaw date of now. */
  today: string;
  /** The day the screens are about (the timetable's dayShown); undefined when no school day is known ahead. */
  day: BriefedDay | undefined;
  /** The days the timetable knows (this and next week): the free days before the day briefed. */
  days: readonly SchoolDay[];
  /** Tests and quizzes ahead (the agenda's kinds `test` and `quiz`). */
  tests: readonly AgendaItem[];
  homework: readonly HomeworkItem[];
  /** The lucky feature's number as last read, and whether it is the child's on its day (its day may be past). */
  lucky: LuckyShown | undefined;
  /** The year's term grades as the grades feature listed them (termGrades), newest first; none before its first read. */
  terms: readonly TermGrade[];
}

/** The briefing, or null when no school day is known ahead (holidays, no timetable yet). */
export function briefing(input: BriefingInput): Briefing | null {
  const target = input.day;
  if (!target) return null;
  const day = target.date;
  /** How far it is: today, tomorrow, or a later day named by its weekday. */
  const when: 'today' | 'tomorrow' | 'later' = day === input.today ? 'today' : day === addDays(input.today, 1) ? 'tomorrow' : 'later';
  return {
    day,
    when,
    weekday: dayOfWeek(day),
    start: target.hours?.from ?? null,
    end: target.hours?.to ?? null,
    // A class split into groups is one lesson a parent counts and packs for; it takes place unless cancelled or moved away.
    lessons: target.lessons.flatMap(({ subject, change, note, moved_to }) =>
      subject ? [{ subject, change, note, takesPlace: change !== 'cancelled' && moved_to === undefined }] : [],
    ),
    tests: input.tests.filter((t) => t.date === day).map((t) => ({ subject: t.subject, kind: t.kind })),
    homework: input.homework.filter((h) => h.due === day && h.done !== true).map((h) => ({ subject: h.subject })),
    // The lucky feature's word on whose it is, when its number is the day briefed's.
    luckyMine: input.lucky?.mine === true && input.lucky.day === day,
    // The proposals that are news today, as the board stands them apart (isNewsOn), newest first.
    proposals: input.terms.filter((t) => isProposal(t) && isNewsOn(t.date, input.today)).map((t) => ({ subject: t.subject, grade: t.grade })),
    freeBefore: input.days
      .filter((d) => d.date > input.today && d.date < day && dayOfWeek(d.date) <= 5 && d.freeDay !== undefined)
      .map((d) => ({ date: d.date, name: d.freeDay?.name ?? null })),
  };
}
