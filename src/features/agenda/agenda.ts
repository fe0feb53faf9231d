// The agenda feature: the agenda (tests, quizzes, meetings, trips) and real homework ->
// upcoming_tests, homework_due, and one event per item by what it is: test, homework or agenda. Reads the timetable's output: "due" means
// the next school day, and the timetable tells which subject a homework's teacher teaches.
import { basename } from 'node:path';
import {
  agendaEvents,
  agendaFields,
  agendaItems,
  testEvents,
  upcomingTests,
  type AgendaEntryPayload,
  type AgendaItem,
  type TestPayload,
  type UpcomingTests,
} from '../../school/agenda.js';
import {
  homeworkDue,
  homeworkEvents,
  homeworkFields,
  homeworkItems,
  homeworkUpcoming,
  nextWeekday,
  type AssignmentPayload,
  type HomeworkDue,
  type HomeworkItem,
} from '../../school/homework.js';
import { want } from '../../feature-kit/resource.js';
import { addDays } from '../../util/time.js';
import { HOMEWORKS } from '../../resources/school.js';
import { CONFERENCES, HOMEWORK_ASSIGNMENTS, HOMEWORK_CATEGORIES, TRIPS } from './resources.js';
import { LESSONS, lookup, nameLookups, namesOf } from '../../resources/lookups.js';
import { eventEntity, sensor } from '../../feature-kit/entities.js';
import { withAttributes } from '../../feature-kit/render.js';
import { feature } from '../feature.js';
import { savedFileUrl } from '../../attachments/saved.js';
import { shape, type Events, type Published, type Tracked, type TrackedPayload } from '../../feature-kit/contract.js';
import { readMark } from '../../feature-kit/reads.js';
import type { SourceContext, SourceResult } from '../../feature-kit/source.js';

/** What features naming agenda as an input read: every test and quiz of the agenda, past ones too. */
export interface AgendaOutput {
  tests: AgendaItem[];
  /** The whole agenda (tests, meetings, trips, other entries) and the homework: the calendar feeds. */
  items: AgendaItem[];
  homework: HomeworkItem[];
}

declare module '../../feature-kit/source.js' {
  interface FeatureOutputs {
    agenda: AgendaOutput;
  }
}

/** An agenda entry as published: its kind, day, time, subject, category, content and teacher. */
export type AgendaFacts = ReturnType<typeof agendaFields>;

/**
 * The attributes of upcoming_tests: the tests and quizzes ahead (items), how many of the first of them fall in the next
 * seven days (the week the dashboard's family view lists), the trips, meetings and other entries beside.
 */
export type UpcomingTestsFacts = { items: AgendaFacts[]; next_7_days: number; other: AgendaFacts[] };

/** The attributes of homework_due: the day it is due and each assignment. */
export type HomeworkDueFacts = { date: string | null; items: ReturnType<typeof homeworkFields>[] };

/** The attributes of homework_upcoming: each assignment due from today through the next 14 days. */
export type HomeworkUpcomingFacts = { items: ReturnType<typeof homeworkUpcoming> };

export const homeworkUpcomingEntity = sensor(
  'homework_upcoming',
  { en: 'Homework in the next two weeks', pl: 'Zadania domowe na najbliższe dwa tygodnie', uk: 'Домашні завдання на найближчі два тижні' },
  { icon: 'mdi:notebook-multiple', stateClass: 'measurement', attributes: shape<HomeworkUpcomingFacts>(), module: [HOMEWORK_ASSIGNMENTS] },
);

// Named ...Entity: the school rules homeworkDue and upcomingTests compute what they show.
export const homeworkDueEntity = sensor(
  'homework_due',
  { en: 'Homework due', pl: 'Zadania domowe do oddania', uk: 'Домашні завдання до здачі' },
  { icon: 'mdi:notebook-edit', stateClass: 'measurement', attributes: shape<HomeworkDueFacts>(), module: [HOMEWORK_ASSIGNMENTS] },
);
export const upcomingTestsEntity = sensor(
  'upcoming_tests',
  { en: 'Upcoming tests', pl: 'Najbliższe sprawdziany', uk: 'Найближчі контрольні' },
  { icon: 'mdi:file-document-edit', stateClass: 'measurement', attributes: shape<UpcomingTestsFacts>(), module: [HOMEWORKS] },
);

/** What an edit of a test changes (a test moved to another day: its date). */
const TEST_COMPARED = ['date', 'time', 'subject', 'kind', 'category', 'description'] as const;
/** What an edit of an assignment changes: its subject, topic, text and due date. */
const HOMEWORK_COMPARED = ['subject', 'topic', 'text', 'due'] as const;
/** What an edit of a trip, a meeting or another entry changes: its days, time, subject, kind and text. */
const AGENDA_COMPARED = ['kind', 'date', 'until', 'time', 'subject', 'category', 'description'] as const;

/** Real homework (HomeWorkAssignments), kind `homework`. */
export const homeworkEvent = eventEntity('homework', { en: 'Homework', pl: 'Zadanie domowe', uk: 'Домашнє завдання' }, 'mdi:notebook-edit', {
  tracked: true,
  payload: shape<TrackedPayload<AssignmentPayload, (typeof HOMEWORK_COMPARED)[number]>>(),
  module: [HOMEWORK_ASSIGNMENTS],
});
/** An agenda entry that is neither a test nor homework: a trip, a meeting, another entry (interface 9.2). */
export const agendaEvent = eventEntity('agenda', { en: 'Agenda entry', pl: 'Wpis w terminarzu', uk: 'Запис у розкладі подій' }, 'mdi:calendar-star', {
  tracked: true,
  payload: shape<TrackedPayload<AgendaEntryPayload, (typeof AGENDA_COMPARED)[number]>>(),
  module: [HOMEWORKS, CONFERENCES, TRIPS],
});
export const testEvent = eventEntity('test', { en: 'New test', pl: 'Nowy sprawdzian', uk: 'Нова контрольна' }, 'mdi:file-document-edit', {
  tracked: true,
  payload: shape<TrackedPayload<TestPayload, (typeof TEST_COMPARED)[number]>>(),
  module: [HOMEWORKS],
});

export const agenda = feature({
  name: 'agenda',
  downloads: true,
  reads: ({ copies }) => {
    const homeWorks = copies.peek(HOMEWORKS)?.HomeWorks ?? [];
    const assignments = copies.peek(HOMEWORK_ASSIGNMENTS)?.HomeWorkAssignments ?? [];
    return [
      want(HOMEWORKS),
      want(HOMEWORK_ASSIGNMENTS),
      want(CONFERENCES),
      want(TRIPS),
      lookup(
        copies,
        HOMEWORK_CATEGORIES,
        homeWorks.map((h) => h.Category),
      ),
      lookup(
        copies,
        LESSONS,
        assignments.map((a) => a.Lesson),
      ),
      ...nameLookups(copies, {
        subjects: homeWorks.map((h) => h.Subject),
        users: [...homeWorks.map((h) => h.CreatedBy), ...assignments.map((a) => a.Teacher)],
      }),
    ];
  },
  inputs: ['timetable'],
  entities: [homeworkDueEntity, homeworkUpcomingEntity, upcomingTestsEntity, homeworkEvent, testEvent, agendaEvent],
  create: (access) => ({ poll: (ctx) => poll(ctx, access.childId) }),
});

/** The web server's path of a saved homework file, from where it was saved. */
function savedHomeworkFile(path: string | undefined, child: string, fileId: string): string | undefined {
  return path === undefined ? undefined : savedFileUrl(child, ['homework', fileId, basename(path)]);
}

async function poll(ctx: SourceContext, childId: () => string): Promise<SourceResult> {
  const answers = {
    homeWorks: ctx.cache.get(HOMEWORKS),
    assignments: ctx.cache.get(HOMEWORK_ASSIGNMENTS),
    conferences: ctx.cache.get(CONFERENCES),
    trips: ctx.cache.get(TRIPS),
  };
  const homeWorks = answers.homeWorks?.HomeWorks;
  const assignments = answers.assignments?.HomeWorkAssignments;
  const conferences = answers.conferences?.ParentTeacherConferences;
  const trips = answers.trips?.Data;
  const categories = ctx.cache.get(HOMEWORK_CATEGORIES)?.Categories;
  const lessons = ctx.cache.get(LESSONS)?.Lessons;
  const nameLookup = namesOf(ctx.cache);
  const timetable = ctx.inputs.timetable;
  const agenda = agendaItems({ homeWorks, homeWorkCategories: categories, conferences, trips, names: nameLookup, bells: timetable?.bells });
  const downloads = ctx.downloads;
  if (downloads) {
    // Files of homework not yet past due, each in a folder of its own (downloads/<child>/homework/<file id>/,
    // served at /files/<child>/homework/<file id>/<name>); they arrive in the background (see BackgroundFiles).
    for (const a of assignments ?? []) {
      if (a.DueDate !== undefined && a.DueDate.slice(0, 10) < ctx.today) continue;
      for (const f of a.HomeworkAssigmentFiles) {
        downloads.files.request(`homework:${f.Id}`, ctx.now, () => downloads.downloader.inFolder(['homework', f.Id]).homeworkFile(f.Id, f.Name));
      }
    }
  }
  const homework = homeworkItems({
    assignments: assignments ?? [],
    lessons,
    timetable: timetable?.days,
    names: nameLookup,
    childUserId: ctx.identity.userId,
    savedFiles: downloads ? (id) => savedHomeworkFile(downloads.files.pathOf(`homework:${id}`), childId(), id) : undefined,
  });
  // Without a timetable the next school day is unknown; the next weekday is the best guess.
  const next = timetable?.nextSchoolDay ?? nextWeekday(ctx.today);
  return {
    states: {
      // A list the portal refused, or has not answered yet, counts nothing: unknown, never 0.
      upcoming_tests: renderUpcomingTests(homeWorks === undefined ? null : upcomingTests(agenda, ctx.today), ctx.today),
      homework_due: renderHomeworkDue(assignments === undefined ? null : homeworkDue(homework, ctx.today, next)),
      homework_upcoming: renderHomeworkUpcoming(assignments === undefined ? null : homeworkUpcoming(homework, ctx.today)),
    },
    events: {
      homework: homeworkEvents(homework, ctx.today),
      test: testEvents(agenda, ctx.today),
      agenda: agendaEvents(agenda, ctx.today),
    } satisfies Events<typeof homeworkEvent | typeof testEvent | typeof agendaEvent>,
    tracked: agendaTracking(answers, agenda, homework),
    output: { tests: agenda.filter((i) => i.kind === 'test'), items: agenda, homework } satisfies AgendaOutput,
  };
}

/**
 * What the test, homework and agenda events compare (interface 8.3), and which lists were read. An
 * entry the agenda still lists but that is no longer news of its kind (its day passed, a trip became a
 * test) is forgotten quietly; only one the portal no longer lists is removed.
 */
function agendaTracking(
  answers: { homeWorks?: object; assignments?: object; conferences?: object; trips?: object },
  agenda: readonly AgendaItem[],
  homework: readonly HomeworkItem[],
): Tracked<typeof homeworkEvent | typeof testEvent | typeof agendaEvent> {
  const reads = {
    'agenda:': readMark(answers.homeWorks),
    'meeting:': readMark(answers.conferences),
    'trip:': readMark(answers.trips),
    'homework:': readMark(answers.assignments),
  };
  const listed = [...agenda.map((i) => i.key), ...homework.map((h) => h.key)];
  return {
    test: { fields: TEST_COMPARED, reads, listed },
    homework: { fields: HOMEWORK_COMPARED, reads, listed },
    agenda: { fields: AGENDA_COMPARED, reads, listed },
  };
}

/** upcoming_tests: how many tests and quizzes are ahead; the other agenda entries alongside. Unknown without the agenda (null). */
export function renderUpcomingTests(upcoming: UpcomingTests | null, today: string): Published<typeof upcomingTestsEntity> {
  if (upcoming === null) return { state: null, attributes: {} };
  return withAttributes(upcoming.tests.length, {
    items: upcoming.tests.map(agendaFields),
    // The items come nearest first, so the week's are the first of them.
    next_7_days: upcoming.tests.filter((t) => t.date <= addDays(today, 7)).length,
    other: upcoming.other.map(agendaFields),
  });
}

/** homework_due: how many assignments are due on its day. Unknown without the assignments (null). */
export function renderHomeworkDue(due: HomeworkDue | null): Published<typeof homeworkDueEntity> {
  if (due === null) return { state: null, attributes: {} };
  return withAttributes(due.items.length, { date: due.date, items: due.items.map(homeworkFields) });
}

/** homework_upcoming: how many assignments are due from today through the next 14 days. Unknown without the assignments (null). */
export function renderHomeworkUpcoming(items: HomeworkUpcomingFacts['items'] | null): Published<typeof homeworkUpcomingEntity> {
  return items === null ? { state: null, attributes: {} } : withAttributes(items.length, { items });
}
