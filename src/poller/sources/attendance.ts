// Normal tier: attendance -> absences_unexcused and absence events. The marks every poll; types and
// lessons daily (lessons again when a mark names one they do not know); justifications hourly.
import { attendanceTypesResponse, attendancesResponse, justificationsResponse } from '../../portal/schemas/attendance.js';
import { lessonsResponse } from '../../portal/schemas/lookups.js';
import { attendanceEntities, type AttendanceInput } from '../../school/attendance.js';
import { semesterOf } from '../../school/semester.js';
import { CADENCE } from '../resources.js';
import { lookupList, names } from './lookups.js';
import type { Source, SourceContext, SourceResult } from '../source.js';

export class AttendanceSource implements Source {
  readonly name = 'attendance';
  readonly tier = 'normal';
  readonly entities = ['absences_unexcused', 'absence'];

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
      names: ctx.shared.names ?? (await names(ctx)),
      semester: semesterOf(ctx.today, ctx.identity.semester1End),
      endFirstSemester: ctx.identity.semester1End,
    };
    const { absencesUnexcused, absenceEvents } = attendanceEntities(input);
    return { states: { absences_unexcused: absencesUnexcused }, events: { absence: absenceEvents } };
  }
}
