// The lessons-held feature: Realizations (the whole year's lessons held with their topics)
// -> next_test (with its revision list), lesson_topics and catch_up. Reads the agenda's tests, the
// attendance's absences and the timetable (a test's hour), so it computes after them.
import {
  catchUp,
  lessonsHeld,
  missedLessons,
  nextTest,
  testHour,
  recentLessons,
  RECENT_DAYS,
  type LessonHeld,
  type MissedLesson,
  type NextTest,
} from '../../rules/realizations.js';
import { want, type Copies } from '../../engine/resource.js';
import { ATTENDANCES, HOMEWORKS } from '../../engine/resources/school.js';
import { REALIZATIONS } from './resources.js';
import { LESSONS, lookup, nameLookups, namesOf } from '../../engine/resources/lookups.js';
import { sensor } from '../kit/entities.js';
import { stateText, withAttributes } from '../kit/render.js';
import { cut } from '../../rules/notices.js';
import { addDays, isoAt, wallTime } from '../../util/time.js';
import { feature } from '../feature.js';
import { ifKnown, markdown } from '../screens/cards.js';
import { keyed } from '../screens/templates.js';
import { shape, statesOf, type PublishedAs } from '../kit/contract.js';
import type { SourceContext, SourceResult } from '../../engine/source.js';
import { lessonsHeldAsk, type LessonsHeldAsk } from './ask.js';
// Also brings attendance's declaration of its output into every program that compiles this file (the board's browser check too).
import type { AttendanceOutput } from '../attendance/attendance.js';

/** A lesson held (or missed) as published: its day, number, subject and topic (cut for a list). */
export type HeldFacts = { date: string; no: number | null; subject: string | null; topic: string | null };

/** The attributes of next_test: what the test is and the topics to revise. */
export type NextTestFacts = { subject: string | null; kind: string | null; description: string | null; topics: HeldFacts[] };

/**
 * What the lessons held show, computed once per pass: the last 14 days' lessons (null while Realizations is unknown),
 * the next test with its hour once the agenda is known, and the lessons missed once the absences are (each undefined
 * before: what was published stays; the lessons missed null when the portal refuses the account its attendance).
 */
export interface LessonsHeldView {
  recent: readonly LessonHeld[] | null;
  next?: { test: NextTest | null; hour: string | null };
  missed?: readonly MissedLesson[] | null;
}

// Named ...Entity where a school rule (nextTest, catchUp) has the key's name.
export const nextTestEntity = sensor(
  'next_test',
  { en: 'Next test', pl: 'Następny sprawdzian', uk: 'Наступна контрольна' },
  {
    icon: 'mdi:file-document-edit',
    deviceClass: 'timestamp',
    attributes: shape<NextTestFacts>(),
    module: [HOMEWORKS],
    state: ({ next }: LessonsHeldView) => next && renderNextTest(next.test, next.hour),
  },
);
export const lessonTopics = sensor(
  'lesson_topics',
  { en: 'Lesson topic', pl: 'Temat lekcji', uk: 'Тема уроку' },
  {
    icon: 'mdi:book-open-page-variant',
    attributes: shape<{ lessons: HeldFacts[] }>(),
    module: [REALIZATIONS],
    state: ({ recent }: LessonsHeldView) => (recent === null ? { state: null, attributes: {} } : renderLessonTopics(recent)),
  },
);
export const catchUpEntity = sensor(
  'catch_up',
  { en: 'Lessons to catch up', pl: 'Lekcje do nadrobienia', uk: 'Уроки, які треба надолужити' },
  // Missed lessons are the absences (the lessons held give their topics): with the attendance refused there are none
  // to tell, unknown as every entity of a refused list until it leaves the device (features/kit/modules.ts).
  {
    icon: 'mdi:book-clock',
    stateClass: 'measurement',
    attributes: shape<{ lessons: HeldFacts[] }>(),
    module: [ATTENDANCES],
    state: ({ missed }: LessonsHeldView) => (missed === null ? { state: null, attributes: {} } : missed && renderCatchUp(missed)),
  },
);

const LESSONS_HELD_ENTITIES = [nextTestEntity, lessonTopics, catchUpEntity];

export const lessonsHeldFeature = feature({
  name: 'lessons_held',
  reads: ({ copies, today }) => [want(REALIZATIONS), lookup(copies, LESSONS, recentLessonIds(copies, today)), ...nameLookups(copies)],
  inputs: ['agenda', 'attendance', 'timetable'],
  entities: LESSONS_HELD_ENTITIES,
  ask: lessonsHeldAsk,
  dashboard: {
    // What to revise before the next test, the lessons missed lately with their topics, the latest topics.
    child: [
      {
        section: 'lessons',
        block: (e, t) =>
          e.preschool
            ? undefined
            : ifKnown(e, [nextTestEntity, catchUpEntity, lessonTopics], () =>
                markdown(e, t, 'features/lessons-held/lessons', {
                  ...keyed(nextTestEntity, 'subject', 'topics'),
                  ...keyed(catchUpEntity, 'lessons'),
                  ...keyed(lessonTopics, 'lessons'),
                }),
              ),
      },
    ],
  },
  create: () => ({ compute }),
});

/** A topic in a list is cut here: teachers paste whole lesson outlines, and the list must stay readable. */
const TOPIC_MAX_IN_ATTRIBUTES = 300;

/**
 * Only the last 14 days' lessons make Lessons be read again when unknown: an old lesson gone from the
 * list (a past substitution) would otherwise have it read every 10 minutes all year.
 */
function recentLessonIds(copies: Copies, today: string): (string | undefined)[] {
  const since = addDays(today, 1 - RECENT_DAYS);
  return (copies.peek(REALIZATIONS)?.Realizations ?? []).filter((r) => r.Date >= since).map((r) => r.Lesson);
}

async function compute(ctx: SourceContext): Promise<SourceResult> {
  const realizations = ctx.cache.get(REALIZATIONS)?.Realizations;
  const agenda = ctx.inputs.agenda;
  const timetable = ctx.inputs.timetable;
  const attendance: AttendanceOutput | undefined = ctx.inputs.attendance;
  if (realizations === undefined) {
    // The portal refuses the child's account the lessons held (a kindergarten): Assist leaves them out, not unknown.
    const ask: LessonsHeldAsk = {
      recent: null,
      held: null,
      missed: null,
      revise: null,
      absent: ctx.cache.refused(REALIZATIONS),
      attendanceAbsent: false,
    };
    return { states: statesOf(LESSONS_HELD_ENTITIES, { recent: null }), ask };
  }
  const lookupNames = namesOf(ctx.cache);
  const held = lessonsHeld({ realizations, lessons: ctx.cache.get(LESSONS)?.Lessons, names: lookupNames });
  const { date, time } = wallTime(ctx.now);
  const view: LessonsHeldView = { recent: recentLessons(held, ctx.today) };
  const ask: LessonsHeldAsk = { recent: view.recent, held, missed: null, revise: null, absent: false, attendanceAbsent: false };
  if (agenda !== undefined) {
    // Each test ahead with its own revision list, as next_test gives the first one's.
    ask.revise = agenda.tests
      .flatMap((t) => nextTest([t], held, { date, time: time.slice(0, 5) }) ?? [])
      .map((n) => ({ test: n.test, topics: n.topics }));
    const next = nextTest(agenda.tests, held, { date, time: time.slice(0, 5) });
    const hour = next && testHour(next.test, timetable?.days, (l) => lookupNames.subject(l.Subject?.id, l.Subject) ?? l.Subject?.name ?? null);
    view.next = { test: next, hour: hour ?? null };
  }
  if (attendance !== undefined) {
    // Assist asks of any date of the year; catch_up tells the last 14 days.
    ask.missed = missedLessons(attendance.absences, held);
    view.missed = catchUp(attendance.absences, held, ctx.today);
  } else if (ctx.cache.refused(ATTENDANCES)) {
    view.missed = null;
    ask.attendanceAbsent = true;
  }
  return { states: statesOf(LESSONS_HELD_ENTITIES, view), ask };
}

/** A topic for a list: one line, at most 300 characters with an ellipsis. */
const topicForList = (topic: string | null): string | null => (topic === null ? null : cut(topic, TOPIC_MAX_IN_ATTRIBUTES));

const heldFields = (l: LessonHeld): HeldFacts => ({ date: l.date, no: l.no, subject: l.subject, topic: topicForList(l.topic) });

/** next_test: when the next test or quiz starts; what it is and the topics to revise beside it. */
export function renderNextTest(next: NextTest | null, hour: string | null = next?.test.time ?? null): PublishedAs<NextTestFacts> {
  if (next === null) return withAttributes(null, { subject: null, kind: null, description: null, topics: [] });
  const { test, topics } = next;
  return withAttributes(isoAt(test.date, hour ?? '00:00'), {
    subject: test.subject,
    kind: test.category,
    description: topicForList(test.content),
    topics: topics.map(heldFields),
  });
}

/** lesson_topics: the topic of the most recent lesson held; the last 14 days of lessons beside it. */
export function renderLessonTopics(recent: readonly LessonHeld[]): PublishedAs<{ lessons: HeldFacts[] }> {
  return withAttributes(stateText(recent[0]?.topic), { lessons: recent.map(heldFields) });
}

/** catch_up: how many lessons the child missed in the last 14 days, each with what was taught. */
export function renderCatchUp(missed: readonly MissedLesson[]): PublishedAs<{ lessons: HeldFacts[] }> {
  return withAttributes(missed.length, { lessons: missed.map((m) => ({ ...m, topic: topicForList(m.topic) })) });
}
