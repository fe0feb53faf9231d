// The agenda feature, normal tier: the agenda (tests, quizzes, meetings, trips) and real homework ->
// upcoming_tests, homework_due and homework events. Reads the timetable's output: "due" means the
// next school day, and the timetable tells which subject a homework's teacher teaches.
import {
  homeWorkCategoriesResponse,
  homeWorksResponse,
  homeworkAssignmentsResponse,
  parentTeacherConferencesResponse,
  schoolTripsResponse,
} from '../portal/schemas/agenda.js';
import { lessonsResponse } from '../portal/schemas/lookups.js';
import { agendaEvents, agendaItems, upcomingTests } from '../school/agenda.js';
import { homeworkDue, homeworkEvents, homeworkItems, nextWeekday } from '../school/homework.js';
import { CADENCE } from '../poller/resources.js';
import { lookupList, names } from '../poller/lookups.js';
import { signalled } from '../poller/calendar.js';
import { eventEntity, sensor } from '../ha/entities.js';
import { feature } from './feature.js';
import type { TimetableOutput } from './timetable.js';
import type { Source, SourceContext, SourceResult } from '../poller/source.js';

export const agenda = feature({
  name: 'agenda',
  tier: 'normal',
  inputs: ['timetable'],
  entities: [
    sensor('homework_due', { en: 'Homework due', pl: 'Zadania domowe do oddania' }, { icon: 'mdi:notebook-edit', stateClass: 'measurement' }),
    sensor('upcoming_tests', { en: 'Upcoming tests', pl: 'Najbliższe sprawdziany' }, { icon: 'mdi:file-document-edit', stateClass: 'measurement' }),
    eventEntity('homework', { en: 'Homework', pl: 'Zadanie domowe' }, 'mdi:notebook-edit'),
  ],
  create: () => new AgendaSource(),
});

export class AgendaSource implements Source {
  async poll(ctx: SourceContext): Promise<SourceResult> {
    const rare = { maxAgeMs: CADENCE.rare, staleOnError: true };
    // The class calendar tells when an entry is added or removed; an edit (a test moved) within the hour.
    const [homeWorksAge, conferencesAge] = await Promise.all([
      signalled(ctx, 'HomeWorks', { usual: CADENCE.everyPoll, unchanged: CADENCE.hourly }),
      signalled(ctx, 'ParentTeacherConferences', { usual: CADENCE.rare, unchanged: CADENCE.daily }),
    ]);
    const [homeWorks, assignments, conferences, trips] = await Promise.all([
      ctx.cache.get({ endpoint: 'HomeWorks', schema: homeWorksResponse, ...homeWorksAge }).then((r) => r?.HomeWorks),
      ctx.cache
        .get({ endpoint: 'HomeWorkAssignments', schema: homeworkAssignmentsResponse, maxAgeMs: CADENCE.everyPoll })
        .then((r) => r?.HomeWorkAssignments),
      ctx.cache
        .get({ endpoint: 'ParentTeacherConferences', schema: parentTeacherConferencesResponse, staleOnError: true, ...conferencesAge })
        .then((r) => r?.ParentTeacherConferences),
      ctx.cache.get({ endpoint: 'SchoolTrips', schema: schoolTripsResponse, ...rare }).then((r) => r?.Data),
    ]);
    const [categories, lessons] = await Promise.all([
      lookupList(ctx, 'HomeWorks/Categories', homeWorkCategoriesResponse, (r) => r.Categories, (homeWorks ?? []).map((h) => h.Category)),
      lookupList(ctx, 'Lessons', lessonsResponse, (r) => r.Lessons, (assignments ?? []).map((a) => a.Lesson)),
    ]);
    const nameLookup = await names(ctx, {
      subjects: (homeWorks ?? []).map((h) => h.Subject),
      users: [...(homeWorks ?? []).map((h) => h.CreatedBy), ...(assignments ?? []).map((a) => a.Teacher)],
    });
    const timetable = ctx.inputs.timetable as TimetableOutput | undefined;
    const agenda = agendaItems({ homeWorks, homeWorkCategories: categories, conferences, trips, names: nameLookup });
    const downloads = ctx.downloads;
    if (downloads) {
      // Files of homework not yet past due; they arrive in the background (see BackgroundFiles).
      for (const a of assignments ?? []) {
        if (a.DueDate !== undefined && a.DueDate.slice(0, 10) < ctx.today) continue;
        for (const f of a.HomeworkAssigmentFiles) {
          downloads.files.request(`homework:${f.Id}`, ctx.now, () => downloads.downloader.homeworkFile(f.Id, f.Name));
        }
      }
    }
    const homework = homeworkItems({
      assignments: assignments ?? [],
      lessons,
      timetable: timetable?.days,
      names: nameLookup,
      studentId: ctx.identity.userId,
      savedFiles: downloads ? (id) => downloads.files.pathOf(`homework:${id}`) : undefined,
    });
    // Without a timetable the next school day is unknown; the next weekday is the best guess.
    const next = timetable?.nextSchoolDay ?? nextWeekday(ctx.today);
    return {
      states: { upcoming_tests: upcomingTests(agenda, ctx.today), homework_due: homeworkDue(homework, ctx.today, next) },
      events: { homework: [...agendaEvents(agenda, ctx.today), ...homeworkEvents(homework, ctx.today)] },
    };
  }
}
