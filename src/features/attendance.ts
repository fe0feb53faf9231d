// The attendance feature, normal tier: attendance -> absences_unexcused and absence events. The marks every poll; types and
// lessons daily (lessons again when a mark names one they do not know); justifications hourly.
import { attendanceTypesResponse, attendancesResponse, justificationsResponse } from '../portal/schemas/attendance.js';
import { lessonsResponse } from '../portal/schemas/lookups.js';
import { attendanceEntities, type AttendanceInput } from '../school/attendance.js';
import { semesterOf } from '../school/semester.js';
import { CADENCE } from '../poller/resources.js';
import { lookupList, names } from '../poller/lookups.js';
import { eventEntity, sensor } from '../ha/entities.js';
import { feature } from './feature.js';
import type { Source, SourceContext, SourceResult } from '../poller/source.js';

export const attendance = feature({
  name: 'attendance',
  tier: 'normal',
  entities: [
    sensor('absences_unexcused', { en: 'Unexcused absences', pl: 'Nieusprawiedliwione nieobecności' }, { icon: 'mdi:account-off', stateClass: 'measurement' }),
    eventEntity('absence', { en: 'Absence', pl: 'Nieobecność' }, 'mdi:account-off'),
  ],
  create: () => new AttendanceSource(),
});

export class AttendanceSource implements Source {
  async poll(ctx: SourceContext): Promise<SourceResult> {
    const [marks, justifications] = await Promise.all([
      ctx.cache.get({ endpoint: 'Attendances', schema: attendancesResponse, maxAgeMs: CADENCE.everyPoll }).then((r) => r?.Attendances),
      ctx.cache
        .get({ endpoint: 'Justifications', schema: justificationsResponse, maxAgeMs: CADENCE.rare, staleOnError: true })
        .then((r) => r?.data),
    ]);
    if (marks === undefined) return { states: { absences_unexcused: { state: null, attributes: {} } } };
    const [types, lessons] = await Promise.all([
      lookupList(ctx, 'Attendances/Types', attendanceTypesResponse, (r) => r.Types, marks.map((m) => m.Type)),
      lookupList(ctx, 'Lessons', lessonsResponse, (r) => r.Lessons, marks.map((m) => m.Lesson)),
    ]);
    const input: AttendanceInput = {
      attendances: marks,
      types: types ?? [],
      lessons,
      justifications,
      names: ctx.lookups.names ?? (await names(ctx)),
      semester: semesterOf(ctx.today, ctx.identity.semester1End),
      endFirstSemester: ctx.identity.semester1End,
    };
    const { absencesUnexcused, absenceEvents } = attendanceEntities(input);
    return { states: { absences_unexcused: absencesUnexcused }, events: { absence: absenceEvents } };
  }
}
