// What the agenda feature publishes: its entities with the types of their attributes and payloads. The feature
// (what it reads, how it computes) is agenda.ts; its screens are board.ts and dashboard.ts.
import { agendaFields, type AgendaEntryPayload, type TestPayload, type UpcomingTests } from '../../rules/agenda.js';
import { homeworkFields, type AssignmentPayload, type HomeworkDue, type homeworkUpcoming } from '../../rules/homework.js';
import { HOMEWORKS } from '../../engine/resources/school.js';
import { CONFERENCES, HOMEWORK_ASSIGNMENTS, TRIPS } from './resources.js';
import { eventEntity, sensor } from '../kit/entities.js';
import { shape, type PublishedAs, type TrackedPayload } from '../kit/contract.js';
import { withAttributes } from '../kit/render.js';

/** An agenda entry as published: its kind, day, time, subject, category, content and teacher. */
export type AgendaFacts = ReturnType<typeof agendaFields>;

/**
 * The attributes of upcoming_tests: the tests and quizzes of the next 14 days (items, nearest first, each with its
 * `kind`: test or quiz), the trips, meetings and other entries beside.
 */
export type UpcomingTestsFacts = { items: AgendaFacts[]; other: AgendaFacts[] };

/** The attributes of homework_due: the day it is due and each assignment. */
export type HomeworkDueFacts = { date: string | null; items: ReturnType<typeof homeworkFields>[] };

/** The attributes of homework_upcoming: each assignment due from today through the next 14 days. */
export type HomeworkUpcomingFacts = { items: ReturnType<typeof homeworkUpcoming> };

/**
 * What the agenda's sensors show, computed once per pass: the tests ahead, the homework due on its day and the
 * homework of the next two weeks. A list the portal refused, or has not answered yet, is null: it counts nothing.
 */
export interface AgendaView {
  upcoming: UpcomingTests | null;
  due: HomeworkDue | null;
  homeworkUpcoming: HomeworkUpcomingFacts['items'] | null;
}

export const homeworkUpcomingEntity = sensor(
  'homework_upcoming',
  { en: 'Homework in the next two weeks', pl: 'Zadania domowe na najbliższe dwa tygodnie', uk: 'Домашні завдання на найближчі два тижні' },
  {
    icon: 'mdi:notebook-multiple',
    stateClass: 'measurement',
    attributes: shape<HomeworkUpcomingFacts>(),
    module: [HOMEWORK_ASSIGNMENTS],
    state: (view: AgendaView) => renderHomeworkUpcoming(view.homeworkUpcoming),
  },
);

// Named ...Entity: the school rules homeworkDue and upcomingTests compute what they show.
export const homeworkDueEntity = sensor(
  'homework_due',
  { en: 'Homework due', pl: 'Zadania domowe do oddania', uk: 'Домашні завдання до здачі' },
  {
    icon: 'mdi:notebook-edit',
    stateClass: 'measurement',
    attributes: shape<HomeworkDueFacts>(),
    module: [HOMEWORK_ASSIGNMENTS],
    state: (view: AgendaView) => renderHomeworkDue(view.due),
  },
);
export const upcomingTestsEntity = sensor(
  'upcoming_tests',
  { en: 'Upcoming tests', pl: 'Najbliższe sprawdziany', uk: 'Найближчі контрольні' },
  {
    icon: 'mdi:file-document-edit',
    stateClass: 'measurement',
    attributes: shape<UpcomingTestsFacts>(),
    module: [HOMEWORKS],
    state: (view: AgendaView) => renderUpcomingTests(view.upcoming),
  },
);

/**
 * upcoming_tests: how many tests and quizzes are ahead in the next 14 days, the one window every screen lists,
 * each with its `kind` (test or quiz); the other agenda entries alongside. Unknown without the agenda (null).
 */
export function renderUpcomingTests(upcoming: UpcomingTests | null): PublishedAs<UpcomingTestsFacts> {
  if (upcoming === null) return { state: null, attributes: {} };
  return withAttributes(upcoming.tests.length, { items: upcoming.tests.map(agendaFields), other: upcoming.other.map(agendaFields) });
}

/** homework_due: how many assignments are due on its day. Unknown without the assignments (null). */
export function renderHomeworkDue(due: HomeworkDue | null): PublishedAs<HomeworkDueFacts> {
  if (due === null) return { state: null, attributes: {} };
  return withAttributes(due.items.length, { date: due.date, items: due.items.map(homeworkFields) });
}

/** homework_upcoming: how many assignments are due from today through the next 14 days. Unknown without the assignments (null). */
export function renderHomeworkUpcoming(items: HomeworkUpcomingFacts['items'] | null): PublishedAs<HomeworkUpcomingFacts> {
  return items === null ? { state: null, attributes: {} } : withAttributes(items.length, { items });
}

/** What an edit of a test changes (a test moved to another day: its date). */
export const TEST_COMPARED = ['date', 'time', 'subject', 'kind', 'category', 'description'] as const;
/** What an edit of an assignment changes: its subject, topic, text and due date. */
export const HOMEWORK_COMPARED = ['subject', 'topic', 'text', 'due'] as const;
/** What an edit of a trip, a meeting or another entry changes: its days, time, subject, kind and text. */
export const AGENDA_COMPARED = ['kind', 'date', 'until', 'time', 'subject', 'category', 'description'] as const;

/** Real homework (HomeWorkAssignments), kind `homework`. */
export const homeworkEvent = eventEntity('homework', { en: 'Homework', pl: 'Zadanie domowe', uk: 'Домашнє завдання' }, 'mdi:notebook-edit', {
  tracked: true,
  payload: shape<TrackedPayload<AssignmentPayload, (typeof HOMEWORK_COMPARED)[number]>>(),
  module: [HOMEWORK_ASSIGNMENTS],
  rollover: { left: 'homework' },
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
  rollover: { left: 'tests' },
});
