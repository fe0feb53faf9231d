// The attendance feature: attendance -> absences_unexcused and absence events. The marks at `interval`; types and
// lessons daily (again when a mark names one they do not know); the justifications a few times a day.
import {
  attendanceOf,
  type AttendanceInput,
  type AbsencePayload,
  type JustificationPayload,
  type JustificationStatus,
  type SemesterAttendance,
} from '../../rules/attendance.js';
import type { Language } from '../../config/language.js';
import { JUSTIFICATION_WORDS } from '../../i18n/school-words.js';
import { semesterOf, type Semester } from '../../rules/semester.js';
import { dayByDay, recordDay, type YearSpan } from '../../rules/year-days.js';
import { yearSeries, type DaySeries } from '../../engine/series.js';
import type { MissedMark } from '../../rules/realizations.js';
import { want } from '../../engine/resource.js';
import { ATTENDANCES } from '../../engine/resources/school.js';
import { ATTENDANCE_TYPES, JUSTIFICATIONS } from './resources.js';
import { LESSONS, lookup, nameLookups, namesOf } from '../../engine/resources/lookups.js';
import { eventEntity, sensor } from '../kit/entities.js';
import { withAttributes } from '../kit/render.js';
import { feature } from '../feature.js';
import { ifKnown, markdown } from '../screens/cards.js';
import { keyed, reads } from '../screens/templates.js';
import { list, num, str } from '../screens/shown.js';
import { newestNoteEntity } from '../notes/notes.js';
import { shape, statesOf, type Events, type PublishedAs, type Tracked, type TrackedPayload, type Worded } from '../kit/contract.js';
import { readMark } from '../../engine/reads.js';
import { dayOf } from '../../rules/portal-values.js';
import type { SourceContext, SourceResult } from '../../engine/source.js';
import { attendanceAsk, type AttendanceAsk } from './ask.js';

/** What features naming attendance as an input read: every absence (excused or not, lates left out), newest first. */
export interface AttendanceOutput {
  absences: MissedMark[];
  /** The Lesson.Id of every mark (presence too): the lessons the child attends, of a split class its own group's. */
  lessons: string[];
  /** Every day with a mark of the child's (present, absent or late), oldest first: the school days the register recorded. */
  days: string[];
  /** The days of the lates (the streaks' punctual). */
  lates: string[];
}

declare module '../../engine/source.js' {
  interface FeatureOutputs {
    attendance: AttendanceOutput;
  }
}

/** A justification's status, its key and its words (`status_name`) beside. */
const statusOf = <S extends JustificationStatus>(status: S, language: Language) => ({ status, status_name: JUSTIFICATION_WORDS[language][status] });

/** The attributes of absences_unexcused: the semester's counts and justifications, and each unexcused absence. */
const attendanceFacts = (a: SemesterAttendance, language: Language) => ({
  semester: a.semester,
  excused: a.excused,
  late: a.late,
  absences: a.absences,
  marks: a.marks,
  attendance_percent: a.attendancePercent,
  justifications: {
    count: a.justifications.count,
    by_status: a.justifications.byStatus,
    latest: a.justifications.latest.map((j) => ({ ...j, ...statusOf(j.status, language) })),
  },
  unexcused: a.unexcused.map((u) => ({ date: u.date, lesson_no: u.lessonNo, subject: u.subject })),
});
export type AttendanceFacts = ReturnType<typeof attendanceFacts>;

/** Nothing known of the absences (the view null): the state unknown (None), its attributes cleared. */
const unknown = () => ({ state: null, attributes: {} });

export const absencesUnexcused = sensor(
  'absences_unexcused',
  { en: 'Unexcused absences', pl: 'Nieusprawiedliwione nieobecności', uk: 'Пропуски без поважної причини' },
  {
    icon: 'mdi:account-off',
    stateClass: 'measurement',
    attributes: shape<AttendanceFacts>(),
    module: [ATTENDANCES],
    state: ({ view, language }: Worded<SemesterAttendance | null>) => (view === null ? unknown() : renderAbsencesUnexcused(view, language)),
  },
);

/** The attributes of attendance: each subject's marks of the semester (lowest share first) and the unexcused absences' count. */
export type AttendanceShareFacts = { by_subject: SemesterAttendance['bySubject']; unexcused: number };

export const attendanceShare = sensor(
  'attendance',
  { en: 'Attendance', pl: 'Frekwencja', uk: 'Відвідуваність' },
  {
    icon: 'mdi:account-check',
    unit: '%',
    stateClass: 'measurement',
    attributes: shape<AttendanceShareFacts>(),
    module: [ATTENDANCES],
    state: ({ view }: Worded<SemesterAttendance | null>) => (view === null ? unknown() : renderAttendance(view)),
  },
);

/** What an edit of an absence changes: one excused later is a change of its type and kind; one turned into a presence is gone. */
const ABSENCE_COMPARED = ['date', 'lesson_no', 'subject', 'type', 'kind'] as const;
export const absenceEvent = eventEntity('absence', { en: 'Absence', pl: 'Nieobecność', uk: 'Відсутність' }, 'mdi:account-off', {
  tracked: true,
  payload: shape<TrackedPayload<AbsencePayload, (typeof ABSENCE_COMPARED)[number]>>(),
  module: [ATTENDANCES],
  rollover: { left: 'absences' },
});

/** An excuse the parent sent, decided by the school: once per decision, never for one already decided at the first read. */
export const justificationEvent = eventEntity(
  'justification',
  { en: 'Justification decided', pl: 'Decyzja o usprawiedliwieniu', uk: 'Рішення щодо пояснення' },
  'mdi:file-check-outline',
  { payload: shape<JustificationPayload & { status_name: string }>(), module: [JUSTIFICATIONS] },
);

const ATTENDANCE_ENTITIES = [absencesUnexcused, attendanceShare, absenceEvent, justificationEvent];

export const attendance = feature({
  name: 'attendance',
  reads: ({ copies }) => {
    const marks = copies.peek(ATTENDANCES)?.Attendances ?? [];
    return [
      want(ATTENDANCES),
      want(JUSTIFICATIONS),
      lookup(
        copies,
        ATTENDANCE_TYPES,
        marks.map((m) => m.Type),
      ),
      lookup(
        copies,
        LESSONS,
        marks.map((m) => m.Lesson),
      ),
      ...nameLookups(copies),
    ];
  },
  entities: ATTENDANCE_ENTITIES,
  ask: attendanceAsk,
  // The semester's attendance in the school's box, with each subject's, the lowest first.
  board: ({ state, text }) => {
    const share = state(attendanceShare);
    const percent = num(Number(str(share?.state) ?? NaN));
    const bySubject = list(share?.attributes?.by_subject).flatMap((s) => {
      const [subject, p] = [str(s.subject), num(s.percent)];
      return subject === null || p === null ? [] : [{ subject, percent: text.percent(p) }];
    });
    return { school: { attendance: percent === null ? null : `${text.attendance} ${text.percent(percent)}`, bySubject } };
  },
  dashboard: {
    child: [
      {
        section: 'notesAbsences',
        block: (e, t) =>
          ifKnown(e, [newestNoteEntity, absencesUnexcused], () =>
            markdown(e, t, 'features/attendance/notes-absences', {
              ...keyed(newestNoteEntity, 'text', 'category', 'date', 'teacher', 'count'),
              absences: reads(absencesUnexcused, 'unexcused'),
            }),
          ),
      },
      {
        section: 'notesAbsences',
        // Each subject's attendance this semester, the lowest share first; nothing before the semester's first mark.
        block: (e, t) => ifKnown(e, attendanceShare, () => markdown(e, t, 'features/attendance/attendance', keyed(attendanceShare, 'by_subject'))),
      },
    ],
  },
  create: (access) => ({ compute: (ctx: SourceContext) => compute(ctx, access.language) }),
});

async function compute(ctx: SourceContext, language: Language): Promise<SourceResult> {
  const unknown = (): SourceResult => ({
    states: statesOf(ATTENDANCE_ENTITIES, { view: null, language }),
    ask: { semester: null, justificationsKnown: false, absent: false } satisfies AttendanceAsk,
  });
  const read = ctx.cache.get(ATTENDANCES);
  const marks = read?.Attendances;
  // The portal refuses the child's account the attendance (a kindergarten): Assist leaves it out, not unknown.
  if (marks === undefined && ctx.cache.refused(ATTENDANCES))
    return { ...unknown(), ask: { semester: null, justificationsKnown: false, absent: true } satisfies AttendanceAsk };
  if (marks === undefined) return unknown();
  const types = ctx.cache.get(ATTENDANCE_TYPES)?.Types;
  // Without the types (refused, never read) no mark can be told from a presence: the absences are
  // unknown, not 0, and the features reading them keep what they last had.
  if (marks.length > 0 && (types === undefined || types.length === 0)) return unknown();
  const justifications = ctx.cache.get(JUSTIFICATIONS)?.data;
  // What the attendance is made of, the semester aside: today's for the sensors, each day's for the year's statistics.
  const input = {
    attendances: marks,
    types: types ?? [],
    lessons: ctx.cache.get(LESSONS)?.Lessons,
    justifications,
    names: namesOf(ctx.cache),
    endFirstSemester: ctx.identity.semester1End,
  };
  const { semester, events, decisions } = attendanceOf({ ...input, semester: semesterOf(ctx.today, ctx.identity.semester1End) });
  return {
    states: statesOf(ATTENDANCE_ENTITIES, { view: semester, language }),
    events: {
      absence: events,
      // Not read yet, the list says nothing: the decisions' first read is the one that remembers them unfired.
      ...(justifications === undefined
        ? {}
        : { justification: decisions.map((d) => ({ id: d.id, payload: { ...d.payload, ...statusOf(d.payload.status, language) } })) }),
    } satisfies Events<typeof absenceEvent | typeof justificationEvent>,
    // An absence is told from a presence by its type: without the types, no mark can be missing.
    tracked: {
      absence: {
        fields: ABSENCE_COMPARED,
        reads: { 'absence:': types !== undefined && types.length > 0 ? readMark(read) : undefined },
      },
    } satisfies Tracked<typeof absenceEvent>,
    year: yearSeries(() =>
      attendanceYear(input, { begins: ctx.identity.schoolYearBegin, endFirstSemester: ctx.identity.semester1End, today: ctx.today }, language),
    ),
    ask: { semester, justificationsKnown: justifications !== undefined, absent: false } satisfies AttendanceAsk,
    output: {
      absences: events
        .map((e) => e.payload)
        .filter((p) => p.kind !== 'late')
        .map((p) => ({ date: p.date, lessonNo: p.lesson_no, subject: p.subject })),
      lessons: [...new Set(marks.map((m) => m.Lesson).filter((id) => id !== undefined))],
      days: [...new Set(marks.map((m) => dayOf(m.Date)).filter((d) => d !== undefined))].sort(),
      lates: events.flatMap((e) => (e.payload.kind === 'late' && e.payload.date !== null ? [e.payload.date] : [])),
    } satisfies AttendanceOutput,
  };
}

/** What a family calls the attendance's figure of the year, beside the child's name ("Zofia – frekwencja"). */
const YEAR_WORDS: Record<Language, string> = { pl: 'frekwencja', en: 'attendance', uk: 'відвідуваність' };

/**
 * The attendance of the school year day by day (interface 16.3's statistics): the sensor's rule, the semester's
 * share of lessons present, on the marks dated up to each day, in that day's semester.
 */
export function attendanceYear(input: Omit<AttendanceInput, 'semester'>, span: YearSpan, language: Language): DaySeries[] {
  const dayOfMark = recordDay(span.today);
  const days: Record<string, number> = {};
  const rule = (day: string, semester: Semester) =>
    attendanceOf({ ...input, attendances: input.attendances.filter((m) => dayOfMark(m) <= day), justifications: [], semester }).semester
      .attendancePercent;
  for (const { day, figure } of dayByDay(new Set(input.attendances.map(dayOfMark)), span, rule)) if (figure !== null) days[day] = figure;
  return Object.keys(days).length === 0 ? [] : [{ key: attendanceShare.key, label: YEAR_WORDS[language], unit: '%', days }];
}

/** absences_unexcused: unexcused absences this semester; the rest as attributes. */
export function renderAbsencesUnexcused(a: SemesterAttendance, language: Language): PublishedAs<AttendanceFacts> {
  return withAttributes(a.unexcused.length, attendanceFacts(a, language));
}

/** attendance: the share of the semester's lessons the child was present at (None before a mark); by subject beside. */
export function renderAttendance(a: SemesterAttendance): PublishedAs<AttendanceShareFacts> {
  return withAttributes(a.attendancePercent, { by_subject: a.bySubject, unexcused: a.unexcused.length });
}
