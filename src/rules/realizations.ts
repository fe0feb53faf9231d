// Lessons held (Realizations) as a parent reads them: the topics taught, what to revise before the
// next test (the topics of its subject since the previous test) and what the child missed.
import type { Realization } from '../portal/schemas/realizations.js';
import type { Lesson } from '../portal/schemas/lookups.js';
import { addDays } from '../util/time.js';
import { byId, collapse, hhmm } from './portal-values.js';
import { sameSubject, textCompare } from './order.js';
import type { TimetableDays } from '../portal/schemas/timetable.js';
import { agendaKind, isTest, type AgendaItem } from './agenda.js';
import type { Names } from './names.js';
import type { SemesterAttendance } from './attendance.js';

/** How far back lesson_topics and catch_up look: today and the 13 days before it. */
export const RECENT_DAYS = 14;

/** A revision list without a previous test goes back at most this many lessons of the subject. */
const REVISION_MAX_LESSONS = 20;

/**
 * A lesson held: its day, its number, its subject (null when the lesson is not in the Lessons lookup, so its
 * subject cannot be told) and its topic (null when the teacher wrote none).
 */
export type LessonHeld = ReturnType<typeof lessonsHeld>[number];

export interface HeldInput {
  realizations: readonly Realization[];
  lessons?: readonly Lesson[];
  names: Names;
}

/** Every lesson held, newest first (by date, then lesson number). */
export function lessonsHeld(input: HeldInput) {
  const lessons = byId(input.lessons);
  return input.realizations
    .map((r) => {
      const lesson = r.Lesson === undefined ? undefined : lessons.get(r.Lesson);
      return { date: r.Date, no: r.LessonNo ?? null, subject: input.names.subject(lesson?.Subject), topic: r.Topic ?? null };
    })
    .sort((a, b) => textCompare(b.date, a.date) || (b.no ?? 0) - (a.no ?? 0));
}

/** The lessons held from 13 days before today to today, newest first. */
export function recentLessons(held: readonly LessonHeld[], today: string): LessonHeld[] {
  const first = addDays(today, 1 - RECENT_DAYS);
  return held.filter((l) => l.date >= first && l.date <= today);
}

/** The next test or quiz, and the topics of its subject to revise (newest first). */
export type NextTest = NonNullable<ReturnType<typeof nextTest>>;

/**
 * The first test or quiz from now on (one today whose hour has passed is behind us), with the
 * lessons of its subject held after the previous test of that subject and before the test's day
 * (at most the last 20 when there was no previous one). A test without a subject has no topics.
 * A lesson held on the previous test's day is the test itself, so it is not listed.
 */
export function nextTest(tests: readonly AgendaItem[], held: readonly LessonHeld[], now: { date: string; time: string }) {
  const [test] = tests
    .filter((t) => isTest(t) && (t.date > now.date || (t.date === now.date && (t.time === null || t.time > now.time))))
    .sort((a, b) => textCompare(a.date, b.date) || textCompare(a.time ?? '', b.time ?? ''));
  if (test === undefined) return null;
  // The previous test: on the agenda, or a lesson of the subject whose topic names one (the agenda may
  // no longer list it; a test is written in a lesson whose topic says so).
  const before = [
    ...tests.filter((t) => isTest(t) && t.date < test.date && sameSubject(t.subject, test.subject)).map((t) => t.date),
    ...held
      .filter((l) => l.date < test.date && sameSubject(l.subject, test.subject) && isTest({ kind: agendaKind(undefined, l.topic ?? undefined) }))
      .map((l) => l.date),
  ];
  const previous = before.reduce<string | null>((latest, d) => (latest === null || d > latest ? d : latest), null);
  const taught = held.filter(
    (l) => sameSubject(l.subject, test.subject) && l.date < test.date && (previous === null || l.date > previous) && l.topic !== null,
  );
  // A topic taught over several lessons (or taught again) is one to revise: its newest lesson stands for it.
  // Kept by their topic as a parent reads it, once each: a year's lessons of a subject are hundreds, each pass.
  const seen = new Set<string | undefined>();
  const topics = taught.filter((l) => {
    const read = topicRead(l.topic);
    if (seen.has(read)) return false;
    seen.add(read);
    return true;
  });
  return { test, topics: previous === null ? topics.slice(0, REVISION_MAX_LESSONS) : topics };
}

/** A topic as a parent reads it: two are the same with the same words, spacing and case aside. */
const topicRead = (topic: string | null): string | undefined => collapse(topic ?? undefined)?.toLowerCase();

/**
 * When a test starts: the agenda's hour, else the hour of the first lesson of its subject that day
 * in the timetable (a test is written in a lesson), else none. `subjectOf` names a timetable lesson.
 */
export function testHour(
  test: AgendaItem,
  days: TimetableDays | undefined,
  subjectOf: (lesson: TimetableDays[string][number][number]) => string | null,
): string | null {
  if (test.time !== null) return test.time;
  const lesson = (days?.[test.date] ?? []).flat().find((l) => !l.IsCanceled && sameSubject(subjectOf(l), test.subject));
  return hhmm(lesson?.HourFrom) ?? null;
}

/** An absence as the attendance feature hands it on. */
export type MissedMark = SemesterAttendance['unexcused'][number];

/** A lesson the child missed, with what was taught in it (topic null when no lesson held was recorded). */
export type MissedLesson = LessonHeld;

/**
 * Every absence the attendance holds (the school year's), newest first, each with the topic of the lesson held at the
 * same date and lesson number (the realization's subject when the absence's lesson is unknown).
 */
export function missedLessons(absences: readonly MissedMark[], held: readonly LessonHeld[]): MissedLesson[] {
  const bySlot = new Map(held.map((l) => [`${l.date}/${l.no}`, l]));
  return absences
    .filter((a): a is MissedMark & { date: string } => a.date !== null)
    .map((a) => {
      const lesson = bySlot.get(`${a.date}/${a.lessonNo}`);
      return { date: a.date, no: a.lessonNo, subject: a.subject ?? lesson?.subject ?? null, topic: lesson?.topic ?? null };
    })
    .sort((a, b) => textCompare(b.date, a.date) || (b.no ?? 0) - (a.no ?? 0));
}

/** The lessons missed from 13 days before today to today (catch_up), newest first. */
export function catchUp(absences: readonly MissedMark[], held: readonly LessonHeld[], today: string): MissedLesson[] {
  return recentLessons(missedLessons(absences, held), today);
}
