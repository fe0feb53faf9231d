// The attendance feature, normal tier: attendance -> absences_unexcused and absence events. The marks every poll; types and
// lessons daily (lessons again when a mark names one they do not know); justifications hourly.
import { attendanceTypesResponse, attendancesResponse, justificationsResponse } from '../portal/schemas/attendance.js';
import { lessonsResponse } from '../portal/schemas/lookups.js';
import { attendanceOf, type AbsencePayload, type AttendanceInput, type SemesterAttendance } from '../school/attendance.js';
import { semesterOf } from '../school/semester.js';
import type { MissedMark } from '../school/realizations.js';
import { always, CORE, RARE, type PlanRow } from '../feature-kit/plan.js';
import { fetchAll, type FetchPlan } from '../feature-kit/fetch-plan.js';
import { lookupList, names } from '../feature-kit/lookups.js';
import { eventEntity, sensor } from '../feature-kit/entities.js';
import { withAttributes } from '../feature-kit/render.js';
import { feature } from './feature.js';
import { shape, type Events, type Published, type Tracked, type TrackedPayload } from '../feature-kit/contract.js';
import { readMark } from '../feature-kit/reads.js';
import type { Source, SourceContext, SourceResult } from '../feature-kit/source.js';

/** What features naming attendance as an input read: every absence (excused or not, lates left out), newest first. */
export interface AttendanceOutput {
  absences: MissedMark[];
  /** The Lesson.Id of every mark (presence too): the lessons the child attends, of a split class its own group's. */
  lessons: string[];
}

declare module '../feature-kit/source.js' {
  interface FeatureOutputs {
    attendance: AttendanceOutput;
  }
}

/** The attributes of absences_unexcused: the semester's counts and justifications, and each unexcused absence. */
export type AttendanceFacts = {
  semester: SemesterAttendance['semester'];
  excused: number;
  late: number;
  absences: number;
  marks: number;
  attendance_percent: number | null;
  justifications: { count: number; by_status: Record<string, number>; latest: SemesterAttendance['justifications']['latest'] };
  unexcused: { date: string | null; lesson_no: number | null; subject: string | null }[];
};

export const absencesUnexcused = sensor('absences_unexcused', { en: 'Unexcused absences', pl: 'Nieusprawiedliwione nieobecności', uk: 'Пропуски без поважної причини' }, { icon: 'mdi:account-off', stateClass: 'measurement', attributes: shape<AttendanceFacts>() });

/** What an edit of an absence changes: one excused later is a change of its type and kind; one turned into a presence is gone. */
const ABSENCE_COMPARED = ['date', 'lesson_no', 'subject', 'type', 'kind'] as const;
export const absenceEvent = eventEntity('absence', { en: 'Absence', pl: 'Nieobecność', uk: 'Відсутність' }, 'mdi:account-off', {
  tracked: true,
  payload: shape<TrackedPayload<AbsencePayload, (typeof ABSENCE_COMPARED)[number]>>(),
});

/** Attendance's rows of the fetch plan: the marks as teachers enter them, the parents' justifications a few times a day. */
export const ATTENDANCE_ROWS = {
  marks: { resource: 'Attendances', fresh: CORE, refresh: 'read' },
  justifications: { resource: 'Justifications', fresh: always(RARE), refresh: 'keep' },
} satisfies Record<string, PlanRow>;

export const attendance = feature({
  plan: Object.values(ATTENDANCE_ROWS),
  name: 'attendance',
  tier: 'normal',
  entities: [
    absencesUnexcused,
    absenceEvent,
  ],
  create: () => new AttendanceSource(),
});

/** What every poll reads: the marks, and the parents' justifications (their last good copy on a failure). */
const ATTENDANCE_PLAN = {
  marks: { endpoint: 'Attendances', schema: attendancesResponse, row: ATTENDANCE_ROWS.marks },
  justifications: { endpoint: 'Justifications', schema: justificationsResponse, row: ATTENDANCE_ROWS.justifications, staleOnError: true },
} satisfies FetchPlan;

/** Nothing known of the absences: absences_unexcused is unknown (None), its attributes cleared. */
const UNKNOWN: SourceResult = { states: { absences_unexcused: { state: null, attributes: {} } } };

class AttendanceSource implements Source {
  async poll(ctx: SourceContext): Promise<SourceResult> {
    const answers = await fetchAll(ctx.cache, ATTENDANCE_PLAN);
    const marks = answers.marks?.Attendances;
    if (marks === undefined) return UNKNOWN;
    // The two lookups are asked at once; each is read by its own name once both have answered.
    const typesAsked = lookupList(ctx, 'Attendances/Types', attendanceTypesResponse, (r) => r.Types, marks.map((m) => m.Type));
    const lessonsAsked = lookupList(ctx, 'Lessons', lessonsResponse, (r) => r.Lessons, marks.map((m) => m.Lesson));
    await Promise.all([typesAsked, lessonsAsked]);
    const types = await typesAsked;
    // Without the types (refused, never read) no mark can be told from a presence: the absences are
    // unknown, not 0, and the features reading them keep what they last had.
    if (marks.length > 0 && (types === undefined || types.length === 0)) return UNKNOWN;
    const input: AttendanceInput = {
      attendances: marks,
      types: types ?? [],
      lessons: await lessonsAsked,
      justifications: answers.justifications?.data,
      names: ctx.lookups.names ?? (await names(ctx)),
      semester: semesterOf(ctx.today, ctx.identity.semester1End),
      endFirstSemester: ctx.identity.semester1End,
    };
    const { semester, events } = attendanceOf(input);
    const output: AttendanceOutput = {
      absences: events
        .map((e) => e.payload)
        .filter((p) => p.kind !== 'late')
        .map((p) => ({ date: p.date, lessonNo: p.lesson_no, subject: p.subject })),
      lessons: [...new Set(marks.map((m) => m.Lesson).filter((id) => id !== undefined))],
    };
    // An absence is told from a presence by its type: without the types, no mark can be missing.
    const tracked = {
      absence: {
        fields: ABSENCE_COMPARED,
        reads: { 'absence:': types !== undefined && types.length > 0 ? readMark(answers.marks) : undefined },
      },
    } satisfies Tracked<typeof absenceEvent>;
    return { states: { absences_unexcused: renderAbsencesUnexcused(semester) }, events: { absence: events } satisfies Events<typeof absenceEvent>, tracked, output };
  }
}

/** absences_unexcused: unexcused absences this semester; the rest as attributes. */
export function renderAbsencesUnexcused(a: SemesterAttendance): Published<typeof absencesUnexcused> {
  return withAttributes(a.unexcused.length, {
    semester: a.semester,
    excused: a.excused,
    late: a.late,
    absences: a.absences,
    marks: a.marks,
    attendance_percent: a.attendancePercent,
    justifications: { count: a.justifications.count, by_status: a.justifications.byStatus, latest: a.justifications.latest },
    unexcused: a.unexcused.map((u) => ({ date: u.date, lesson_no: u.lessonNo, subject: u.subject })),
  });
}
