// Normal tier: the timetable of this week (and next week only when the next school day falls in
// it), plan changes and free days -> plan changes, school days, lesson hours, next lesson and
// plan_change events. Each normal poll recomputes them for the current time (next_lesson moves on
// as the day goes), from memory when the class calendar says the lists stand.
import { substitutionsResponse, timetablesResponse, type Substitution, type TimetableDays } from '../../portal/schemas/timetable.js';
import { classFreeDayTypesResponse, classFreeDaysResponse, schoolFreeDaysResponse } from '../../portal/schemas/calendar.js';
import { mergeTimetables } from '../../school/timetable.js';
import { schedule, type ScheduleInput } from '../../school/schedule.js';
import { timetableWeeks, freeDays, type FreeDaysInput } from '../../school/schooldays.js';
import { CADENCE } from '../resources.js';
import { names } from './lookups.js';
import { signalled } from './calendar.js';
import type { Source, SourceContext, SourceResult } from '../source.js';

export class TimetableSource implements Source {
  readonly name = 'timetable';
  readonly tier = 'normal';
  readonly entities = [
    'plan_changes_today',
    'plan_changes_tomorrow',
    'school_day_today',
    'school_day_tomorrow',
    'lessons_start_today',
    'lessons_end_today',
    'lessons_start_tomorrow',
    'lessons_end_tomorrow',
    'next_lesson',
    'plan_change',
  ];

  async poll(ctx: SourceContext): Promise<SourceResult> {
    const [free, substitutions] = await Promise.all([this.freeDays(ctx), this.substitutions(ctx)]);
    // A change to the plan is a new entry under Substitutions: without one, the week stands.
    const age = await signalled(ctx, 'Substitutions', { usual: CADENCE.everyPoll, unchanged: CADENCE.rare });
    const weeks = new Map<string, TimetableDays | undefined>();
    const fetchWeek = async (monday: string): Promise<void> => {
      if (weeks.has(monday)) return;
      const answer = await ctx.cache.get({
        endpoint: 'Timetables',
        schema: timetablesResponse,
        query: { weekStart: monday },
        ...age,
        // A 403 means "not published yet", not a dead session; ask again within the hour.
        refusedForMs: CADENCE.hourly,
      });
      weeks.set(monday, answer?.Timetable);
    };
    const [thisWeek] = timetableWeeks(ctx.today);
    await fetchWeek(thisWeek as string);
    const nameLookup = ctx.shared.names ?? (await names(ctx));
    const partial = mergeTimetables(...weeks.values());
    for (const monday of timetableWeeks(ctx.today, { days: partial, names: nameLookup, free: freeDays(free) })) await fetchWeek(monday);
    const days = mergeTimetables(...weeks.values());
    const lessonIds = Object.values(days).flat(2);
    const withNames = await names(ctx, {
      subjects: lessonIds.map((l) => l.Subject?.id),
      users: lessonIds.map((l) => l.Teacher?.id),
      classrooms: lessonIds.map((l) => l.Classroom?.id),
    });
    const input: ScheduleInput = { days, substitutions, free, names: withNames, now: ctx.now };
    const result = schedule(input);
    ctx.shared.timetable = days;
    ctx.shared.nextSchoolDay = result.nextSchoolDay;
    return { states: result.states, events: { plan_change: result.events } };
  }

  /**
   * Free days change rarely: daily, or at once when the calendar lists a new one. Only the child's
   * class counts (the school-wide list has every class).
   */
  private async freeDays(ctx: SourceContext): Promise<FreeDaysInput> {
    const daily = { maxAgeMs: CADENCE.daily, staleOnError: true };
    const ages = { usual: CADENCE.daily, unchanged: CADENCE.daily };
    const [schoolAge, classAge] = await Promise.all([signalled(ctx, 'SchoolFreeDays', ages), signalled(ctx, 'ClassFreeDays', ages)]);
    const [school, klass, types] = await Promise.all([
      ctx.cache.get({ endpoint: 'SchoolFreeDays', schema: schoolFreeDaysResponse, staleOnError: true, ...schoolAge }),
      ctx.cache.get({ endpoint: 'ClassFreeDays', schema: classFreeDaysResponse, staleOnError: true, ...classAge }),
      ctx.cache.get({ endpoint: 'Calendars/ClassFreeDays/Types', schema: classFreeDayTypesResponse, ...daily }),
    ]);
    return {
      schoolFreeDays: school?.SchoolFreeDays,
      classFreeDays: klass?.ClassFreeDays,
      classFreeDayTypes: types?.Types,
      classId: ctx.identity.classId,
    };
  }

  /**
   * The whole year's change list cannot be narrowed (spec 4.4): read when the calendar lists a new
   * change, else every 3 hours (hourly without the calendar; the timetable itself shows today's changes).
   */
  private async substitutions(ctx: SourceContext): Promise<readonly Substitution[] | undefined> {
    const answer = await ctx.cache.get({
      endpoint: 'Calendars/Substitutions',
      schema: substitutionsResponse,
      staleOnError: true,
      ...(await signalled(ctx, 'Substitutions', { usual: CADENCE.hourly, unchanged: CADENCE.rare })),
    });
    return answer?.Substitutions;
  }
}
