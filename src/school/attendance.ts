// Attendance for the current semester: unexcused and excused absences, lateness and the attendance
// percentage (`absences_unexcused`), and one `absence` event per absence or lateness.
//
// The school defines its own attendance types and may add ids (spec 2.6), so nothing here knows an id:
// - an absence is a type whose IsPresenceKind is false;
// - it is excused when the type's name says so: 'uspr.' (or 'usprawiedliwiona') starting a word, so
//   that 'nieuspr.' / 'nieusprawiedliwiona' is not mistaken for excused;
// - a lateness is a type whose name, folded to ASCII, has a word starting 'spozn' (Spóźnienie,
//   spóźn., Spoznienie) or the English 'late'. The name is the only thing a school cannot renumber,
//   and unlike the Short code it is what the register shows the parent.
import type { EntityState } from '../ha/state.js';
import type { Attendance, AttendanceType, Justification } from '../portal/schemas/attendance.js';
import type { Lesson } from '../portal/schemas/lookups.js';
import { capAttributes } from '../ha/attributes.js';
import { byId, dayOf, fold, idCompare, type ItemEvent } from './common.js';
import type { Names } from './names.js';
import { recordSemester, semesterOf, type Semester } from './semester.js';

export interface TypeClass {
  absence: boolean;
  excused: boolean;
  late: boolean;
}

export function classifyType(type: Pick<AttendanceType, 'Name' | 'IsPresenceKind'>): TypeClass {
  const name = fold(type.Name);
  const absence = type.IsPresenceKind === false;
  return {
    absence,
    excused: absence && /(^|[^a-z])uspr/.test(name),
    late: /(^|[^a-z])(spozn|late\b|lateness)/.test(name),
  };
}

export interface AttendanceInput {
  attendances: readonly Attendance[];
  types: readonly AttendanceType[];
  /** The Lessons lookup: the only way from a record to its subject and teacher. */
  lessons?: readonly Lesson[];
  justifications?: readonly Justification[];
  names: Names;
  semester: Semester;
  endFirstSemester?: string;
}

interface Mark {
  record: Attendance;
  type: AttendanceType;
  kind: TypeClass;
  date: string | null;
  semester: Semester | undefined;
}

/** The records with known types, classified (once per type), newest first. */
function marks(input: AttendanceInput): Mark[] {
  const types = new Map(input.types.map((t) => [t.Id, { type: t, kind: classifyType(t) }]));
  const out: Mark[] = [];
  for (const record of input.attendances) {
    // A record of a type we do not know cannot be told from a presence; leave it out.
    const known = record.Type === undefined ? undefined : types.get(record.Type);
    if (known === undefined) continue;
    const date = dayOf(record.Date) ?? null;
    out.push({
      record,
      type: known.type,
      kind: known.kind,
      date,
      semester: recordSemester(record.Semester, date ?? undefined, input.endFirstSemester),
    });
  }
  return out.sort((a, b) => {
    if (a.date !== b.date) return (a.date ?? '') < (b.date ?? '') ? 1 : -1;
    return (b.record.LessonNo ?? 0) - (a.record.LessonNo ?? 0) || idCompare(b.record.Id, a.record.Id);
  });
}

function describe(mark: Mark, input: AttendanceInput, lessons: Map<string, Lesson>): Record<string, unknown> {
  const lesson = mark.record.Lesson === undefined ? undefined : lessons.get(mark.record.Lesson);
  return {
    date: mark.date,
    lesson_no: mark.record.LessonNo ?? null,
    subject: input.names.subject(lesson?.Subject),
    teacher: input.names.teacher(lesson?.Teacher),
    type: mark.type.Name?.trim() ?? null,
    kind: mark.kind.late && !mark.kind.absence ? 'late' : mark.kind.excused ? 'excused' : 'unexcused',
  };
}

/** A short summary of the parents' justifications of the semester, newest first. */
function justificationSummary(input: AttendanceInput): Record<string, unknown> {
  const list = (input.justifications ?? [])
    .filter((j) => {
      const day = dayOf(j.dateFrom) ?? dayOf(j.postDate);
      return day === undefined || semesterOf(day, input.endFirstSemester) === input.semester;
    })
    .sort((a, b) => ((a.postDate ?? '') < (b.postDate ?? '') ? 1 : -1));
  const byStatus: Record<string, number> = {};
  for (const j of list) {
    const status = j.justificationStatus?.trim() ?? 'unknown';
    byStatus[status] = (byStatus[status] ?? 0) + 1;
  }
  return {
    count: list.length,
    by_status: byStatus,
    latest: list.slice(0, 5).map((j) => ({
      posted: j.postDate ?? null,
      from: dayOf(j.dateFrom) ?? null,
      to: dayOf(j.dateTo) ?? null,
      status: j.justificationStatus ?? null,
      absences: j.justifiedAbsences ?? null,
    })),
  };
}

/** Both of a poll's results from one pass over the records. */
export function attendanceEntities(input: AttendanceInput): { absencesUnexcused: EntityState; absenceEvents: ItemEvent[] } {
  const all = marks(input);
  const lessons = byId(input.lessons);
  return { absencesUnexcused: unexcusedState(all, lessons, input), absenceEvents: eventsOf(all, lessons, input) };
}

/** absences_unexcused: unexcused absences this semester; the rest as attributes. */
export function absencesUnexcused(input: AttendanceInput): EntityState {
  return unexcusedState(marks(input), byId(input.lessons), input);
}

/** One `absence` event per absence or lateness (any semester); a later change of type fires nothing. */
export function absenceEvents(input: AttendanceInput): ItemEvent[] {
  return eventsOf(marks(input), byId(input.lessons), input);
}

function unexcusedState(all: readonly Mark[], lessons: Map<string, Lesson>, input: AttendanceInput): EntityState {
  const current = all.filter((m) => m.semester === input.semester);
  const absent = current.filter((m) => m.kind.absence);
  const unexcused = absent.filter((m) => !m.kind.excused);
  const percent = current.length === 0 ? null : Math.round(((current.length - absent.length) / current.length) * 1000) / 10;
  return {
    state: String(unexcused.length),
    attributes: capAttributes({
      semester: input.semester,
      excused: absent.length - unexcused.length,
      late: current.filter((m) => m.kind.late).length,
      absences: absent.length,
      marks: current.length,
      attendance_percent: percent,
      justifications: justificationSummary(input),
      unexcused: unexcused.map((m) => {
        const d = describe(m, input, lessons);
        return { date: d.date, lesson_no: d.lesson_no, subject: d.subject };
      }),
    }),
  };
}

function eventsOf(all: readonly Mark[], lessons: Map<string, Lesson>, input: AttendanceInput): ItemEvent[] {
  return all
    .filter((m) => m.kind.absence || m.kind.late)
    .map((m) => ({
      id: `absence:${m.record.Id}`,
      payload: { event_type: 'absence', id: m.record.Id, ...describe(m, input, lessons) },
    }));
}
