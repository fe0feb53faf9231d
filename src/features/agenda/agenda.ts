// The agenda feature: the agenda (tests, quizzes, meetings, trips) and real homework ->
// upcoming_tests, homework_due, and one event per item by what it is: test, homework or agenda. Reads the timetable's output: "due" means
// the next school day, and the timetable tells which subject a homework's teacher teaches.
import { basename } from 'node:path';
import { agendaEvents, agendaItems, isTest, testEvents, upcomingTests, type AgendaItem } from '../../rules/agenda.js';
import { homeworkDue, homeworkEvents, homeworkItems, homeworkUpcoming, type HomeworkItem } from '../../rules/homework.js';
import { want } from '../../engine/resource.js';
import { HOMEWORKS } from '../../engine/resources/school.js';
import { CONFERENCES, HOMEWORK_ASSIGNMENTS, HOMEWORK_CATEGORIES, TRIPS } from './resources.js';
import { LESSONS, lookup, nameLookups, namesOf } from '../../engine/resources/lookups.js';
import { feature } from '../feature.js';
import {
  AGENDA_COMPARED,
  agendaEvent,
  HOMEWORK_COMPARED,
  homeworkDueEntity,
  homeworkEvent,
  homeworkUpcomingEntity,
  TEST_COMPARED,
  testEvent,
  upcomingTestsEntity,
  type AgendaView,
} from './entities.js';
import { agendaBoard } from './board.js';
import { agendaDashboard } from './dashboard.js';
import { agendaAsk, type AgendaAsk } from './ask.js';

export * from './entities.js';
import { savedFileUrl } from '../../portal/attachments/saved.js';
import { statesOf, type Events, type Tracked } from '../kit/contract.js';
import { readMark } from '../../engine/reads.js';
import type { SourceContext, SourceResult } from '../../engine/source.js';

/** What features naming agenda as an input read: every test and quiz of the agenda, past ones too. */
export interface AgendaOutput {
  tests: AgendaItem[];
  /** The whole agenda (tests, meetings, trips, other entries) and the homework: the calendar feeds. */
  items: AgendaItem[];
  homework: HomeworkItem[];
}

declare module '../../engine/source.js' {
  interface FeatureOutputs {
    agenda: AgendaOutput;
  }
}

const AGENDA_ENTITIES = [homeworkDueEntity, homeworkUpcomingEntity, upcomingTestsEntity, homeworkEvent, testEvent, agendaEvent];

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
  entities: AGENDA_ENTITIES,
  board: agendaBoard,
  dashboard: agendaDashboard,
  ask: agendaAsk,
  create: (access) => ({ compute: (ctx) => compute(ctx, access.childId) }),
});

/** The web server's path of a saved homework file, from where it was saved. */
function savedHomeworkFile(path: string | undefined, child: string, fileId: string): string | undefined {
  return path === undefined ? undefined : savedFileUrl(child, ['homework', fileId, basename(path)]);
}

async function compute(ctx: SourceContext, childId: () => string): Promise<SourceResult> {
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
    lessons: ctx.cache.get(LESSONS)?.Lessons,
    timetable: timetable?.days,
    names: nameLookup,
    childUserId: ctx.identity.userId,
    savedFiles: downloads ? (id) => savedHomeworkFile(downloads.files.pathOf(`homework:${id}`), childId(), id) : undefined,
  });
  // A list the portal refused, or has not answered yet, counts nothing: unknown, never 0.
  const view: AgendaView = {
    upcoming: homeWorks === undefined ? null : upcomingTests(agenda, ctx.today),
    due: assignments === undefined ? null : homeworkDue(homework, ctx.today, timetable?.nextSchoolDay ?? null),
    homeworkUpcoming: assignments === undefined ? null : homeworkUpcoming(homework, ctx.today),
  };
  return {
    states: statesOf(AGENDA_ENTITIES, view),
    events: {
      homework: homeworkEvents(homework, ctx.today),
      test: testEvents(agenda, ctx.today),
      agenda: agendaEvents(agenda, ctx.today),
    } satisfies Events<typeof homeworkEvent | typeof testEvent | typeof agendaEvent>,
    tracked: agendaTracking(answers, agenda, homework),
    output: { tests: agenda.filter(isTest), items: agenda, homework } satisfies AgendaOutput,
    ask: {
      items: homeWorks === undefined ? null : agenda,
      itemsAbsent: homeWorks === undefined && ctx.cache.refused(HOMEWORKS),
      homework: assignments === undefined ? null : homework,
      // A kindergarten's account is refused the homework: none to tell, rather than an unknown forever.
      homeworkAbsent: ctx.cache.refused(HOMEWORK_ASSIGNMENTS),
    } satisfies AgendaAsk,
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
