// Attendance for the current semester: unexcused and excused absences, lateness and the attendance
// percentage, and one `absence` event per absence or lateness.
//
// The school defines its own attendance types and may add ids (spec 2.6), so nothing here knows an id:
// - an absence is a type whose IsPresenceKind is false;
// - it is excused when the type's name says so: 'uspr.' (or 'usprawiedliwiona') starting a word, so
//   that 'nieuspr.' / 'nieusprawiedliwiona' is not mistaken for excused;
// - a lateness is a type whose name, folded to ASCII, has a word starting 'spozn' (Spóźnienie,
//   spóźn., Spoznienie) or the English 'late'. The name is the only thing a school cannot renumber,
//   and unlike the Short code it is what the register shows the parent.
import type { Attendance, AttendanceType, Justification } from '../portal/schemas/attendance.js';
import type { Lesson } from '../portal/schemas/lookups.js';
import { byId, dayOf, portalTime } from './portal-values.js';
import { fold, idCompare, plCompare } from './order.js';
import type { NewsItem } from './news.js';
import type { Names } from './names.js';
import { recordSemester, semesterOf, type Semester } from './semester.js';

/** What a type of mark is: an absence (excused or not), a lateness, or neither. */
export type TypeClass = ReturnType<typeof classifyType>;

export function classifyType(type: Pick<AttendanceType, 'Name' | 'IsPresenceKind'>) {
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

/** The share of `part` in `whole`, in percent to one decimal. */
const percentOf = (part: number, whole: number): number => Math.round((part / whole) * 1000) / 10;

/** A record of a known type, classified, with its day and semester. */
type Mark = ReturnType<typeof marks>[number];

/** The records with known types, classified (once per type), newest first. */
function marks(input: AttendanceInput) {
  const types = new Map(input.types.map((t) => [t.Id, { type: t, kind: classifyType(t) }]));
  const out = input.attendances.flatMap((record) => {
    // A record of a type we do not know cannot be told from a presence; leave it out.
    const known = record.Type === undefined ? undefined : types.get(record.Type);
    if (known === undefined) return [];
    const date = dayOf(record.Date) ?? null;
    return [{ record, ...known, date, semester: recordSemester(record.Semester, date ?? undefined, input.endFirstSemester) }];
  });
  return out.sort((a, b) => {
    if (a.date !== b.date) return (a.date ?? '') < (b.date ?? '') ? 1 : -1;
    return (b.record.LessonNo ?? 0) - (a.record.LessonNo ?? 0) || idCompare(b.record.Id, a.record.Id);
  });
}

/** An absence's fields, as its event carries them. */
type AbsenceFacts = {
  date: string | null;
  lesson_no: number | null;
  subject: string | null;
  teacher: string | null;
  type: string | null;
  kind: 'late' | 'excused' | 'unexcused';
};

/** What an `absence` event carries: the mark's id and its fields (a late arrival is one too, of kind `late`). */
export type AbsencePayload = { id: Attendance['Id'] } & AbsenceFacts;

function describe(mark: Mark, input: AttendanceInput, lessons: Map<string, Lesson>): AbsenceFacts {
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

/** A justification's status as a stable key: the portal's `accept` (spec 3) or a rejection is decided; any other waits. */
export type JustificationStatus = 'accepted' | 'rejected' | 'pending';

export function justificationStatus(raw: string | undefined): JustificationStatus {
  const status = fold(raw?.trim());
  return /^(accept|przyj|zaakcept)/.test(status) ? 'accepted' : /^(reject|odrzuc|nieuzn)/.test(status) ? 'rejected' : 'pending';
}

/** A short summary of the parents' justifications of the semester, newest first. */
function justificationSummary(input: AttendanceInput) {
  const list = (input.justifications ?? [])
    .filter((j) => {
      const day = dayOf(j.dateFrom) ?? dayOf(j.postDate);
      return day === undefined || semesterOf(day, input.endFirstSemester) === input.semester;
    })
    .sort((a, b) => ((a.postDate ?? '') < (b.postDate ?? '') ? 1 : -1));
  const byStatus: Partial<Record<JustificationStatus, number>> = {};
  for (const j of list) {
    const status = justificationStatus(j.justificationStatus);
    byStatus[status] = (byStatus[status] ?? 0) + 1;
  }
  return {
    count: list.length,
    byStatus,
    /** The newest five. */
    latest: list.slice(0, 5).map((j) => ({
      posted: portalTime(j.postDate) ?? null,
      from: dayOf(j.dateFrom) ?? null,
      to: dayOf(j.dateTo) ?? null,
      status: justificationStatus(j.justificationStatus),
      absences: j.justifiedAbsences ?? null,
    })),
  };
}

/**
 * What a `justification` event carries: the school's decision on an excuse the parent sent (never `pending`), the
 * days it covers as the parent gave them, the absence marks it covers (of the lessons it names, else of its days),
 * how many absences the portal counts it for, and when it was posted.
 */
export type JustificationPayload = ReturnType<typeof decisionsOf>[number]['payload'];

/** Every pass's results from one pass over the records: the semester, the absence events and the decided justifications. */
export function attendanceOf(input: AttendanceInput) {
  const all = marks(input);
  const lessons = byId(input.lessons);
  return {
    semester: currentSemester(all, lessons, input),
    events: eventsOf(all, lessons, input),
    decisions: decisionsOf(all, lessons, input),
  };
}

/** One candidate per decision (its key names the status), so that an excuse fires when the school decides, once per decision. */
function decisionsOf(all: readonly Mark[], lessons: Map<string, Lesson>, input: AttendanceInput) {
  return (input.justifications ?? []).flatMap((j) => {
    const status = justificationStatus(j.justificationStatus);
    if (status === 'pending') return [];
    const [from, to] = [dayOf(j.dateFrom) ?? null, dayOf(j.dateTo) ?? dayOf(j.dateFrom) ?? null];
    const named = (j.lessons ?? []).map((l) => `${dayOf(l.date)}/${l.number}`);
    const covers = (m: Mark) =>
      named.length > 0 ? named.includes(`${m.date}/${m.record.LessonNo}`) : m.date !== null && m.date >= (from ?? '~') && m.date <= (to ?? '');
    const absences = all.filter((m) => m.kind.absence && covers(m)).reverse();
    const covered = absences.map((m) => describe(m, input, lessons)).map(({ date, lesson_no, subject }) => ({ date, lesson_no, subject }));
    const payload = { id: j.id, status, from, to, absences: covered, justified: j.justifiedAbsences ?? null, posted: portalTime(j.postDate) ?? null };
    return [{ id: `justification:${j.id}:${status}`, payload }];
  });
}

/** The current semester's attendance as a parent reads it. */
export type SemesterAttendance = ReturnType<typeof currentSemester>;

function currentSemester(all: readonly Mark[], lessons: Map<string, Lesson>, input: AttendanceInput) {
  const current = all.filter((m) => m.semester === input.semester);
  const absent = current.filter((m) => m.kind.absence);
  const unexcused = absent.filter((m) => !m.kind.excused);
  return {
    semester: input.semester,
    /** The unexcused absences, newest first. */
    unexcused: unexcused.map((m) => describe(m, input, lessons)).map(({ date, lesson_no, subject }) => ({ date, lessonNo: lesson_no, subject })),
    excused: absent.length - unexcused.length,
    late: current.filter((m) => m.kind.late).length,
    absences: absent.length,
    /** Every mark of the semester, presences included. */
    marks: current.length,
    /** Present marks of all marks, to one decimal; null without marks. */
    attendancePercent: current.length === 0 ? null : percentOf(current.length - absent.length, current.length),
    justifications: justificationSummary(input),
    /** Each subject's marks of the semester, the lowest share present first. */
    bySubject: bySubject(current, lessons, input),
  };
}

/**
 * The marks counted per subject (through Lessons, spec 2.6; a mark of an unknown lesson under null), lowest share present
 * first: `present` counts a lateness (and a release) as present.
 */
function bySubject(marks: readonly Mark[], lessons: Map<string, Lesson>, input: AttendanceInput) {
  const out = new Map<string | null, { subject: string | null; lessons: number; present: number; absent: number; late: number; excused: number }>();
  for (const m of marks) {
    const subject = input.names.subject(m.record.Lesson === undefined ? undefined : lessons.get(m.record.Lesson)?.Subject);
    const row = out.get(subject) ?? { subject, lessons: 0, present: 0, absent: 0, late: 0, excused: 0 };
    row.lessons++;
    if (m.kind.absence) row.absent++;
    else row.present++;
    if (m.kind.late) row.late++;
    if (m.kind.excused) row.excused++;
    out.set(subject, row);
  }
  return [...out.values()]
    .map((row) => ({ ...row, percent: percentOf(row.present, row.lessons) }))
    .sort((a, b) => a.percent - b.percent || plCompare(a.subject ?? '', b.subject ?? ''));
}

function eventsOf(all: readonly Mark[], lessons: Map<string, Lesson>, input: AttendanceInput): NewsItem<AbsencePayload>[] {
  return all
    .filter((m) => m.kind.absence || m.kind.late)
    .map((m) => ({
      id: `absence:${m.record.Id}`,
      payload: { id: m.record.Id, ...describe(m, input, lessons) },
    }));
}
