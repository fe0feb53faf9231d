// Changes to the class timetable: from the timetable (IsCanceled, IsSubstitutionClass and the Org* fields)
// and from Calendars/Substitutions, merged so that one lesson (date and lesson number) counts once.
// Tells a day's changes and the changes that are news.
import type { Substitution, TimetableDays } from '../portal/schemas/timetable.js';
import { dayOf } from './portal-values.js';
import { dayOfWeek } from '../util/time.js';
import { textCompare } from './order.js';
import type { NewsItem } from './news.js';
import type { Names } from './names.js';
import type { Bell } from '../portal/schemas/identity.js';
import { allLessons, bellTimes, type DayLesson, type LessonSide } from './timetable.js';

export type ChangeKind = 'cancelled' | 'substitution' | 'room_change' | 'shifted';

export type PlanChange = {
  date: string;
  lesson_no: number | null;
  /** 'HH:MM-HH:MM'. */
  hours: string | null;
  kind: ChangeKind;
  /** What takes place now (for a cancellation: what was cancelled). */
  subject: string | null;
  teacher: string | null;
  room: string | null;
  original_date: string | null;
  original_lesson_no: number | null;
  original_hours: string | null;
  original_subject: string | null;
  original_teacher: string | null;
  original_room: string | null;
  note: string | null;
};

/** What a `plan_change` event carries: the whole change (its day and slot, its kind, what takes place, what was planned, the note). */
export type PlanChangePayload = PlanChange;

/** With what decided the kind; not published. */
interface Found extends PlanChange {
  /** A substitution flagged by the portal with no difference we can see. */
  generic: boolean;
}

/** The subject and teacher ids of what takes place and of what was planned, which tell a substitution. */
type Ids = { subject?: string; teacher?: string; orgSubject?: string; orgTeacher?: string };

const differs = (a: string | undefined, b: string | undefined): boolean => a !== undefined && b !== undefined && a !== b;
const span = (from: string | null | undefined, to: string | null | undefined): string | null => (from && to ? `${from}-${to}` : (from ?? null));

function kindOf(f: { shifted: boolean; ids: Ids; room: string | null; orgRoom: string | null }): { kind: ChangeKind; generic: boolean } {
  if (f.shifted) return { kind: 'shifted', generic: false };
  if (differs(f.ids.subject, f.ids.orgSubject) || differs(f.ids.teacher, f.ids.orgTeacher)) {
    return { kind: 'substitution', generic: false };
  }
  // A substitute lesson often has no room at all; only two different known rooms make a room change.
  if (f.room !== null && f.orgRoom !== null && f.room !== f.orgRoom) return { kind: 'room_change', generic: false };
  return { kind: 'substitution', generic: true };
}

/**
 * The slot a lesson leaves (live-notes 11: IsCanceled with New*): `shifted`, where it goes on the
 * current side, this slot as the original. Keyed by where it goes, so the lesson as it arrives there
 * (when that week is fetched) is the same change.
 */
function movedAway(l: DayLesson, to: NonNullable<DayLesson['moved']>, bell: ReturnType<typeof bellTimes>): Found {
  const target = to.lessonNo === null ? undefined : bell.get(to.lessonNo);
  return {
    date: to.date ?? l.date,
    lesson_no: to.lessonNo,
    hours: span(to.from, to.to) ?? (target ? span(target.from, target.to) : null),
    kind: 'shifted',
    generic: false,
    subject: to.subject ?? l.subject,
    teacher: to.teacher ?? l.teacher,
    room: to.room,
    original_date: l.date,
    original_lesson_no: l.lessonNo,
    original_hours: span(l.from, l.to),
    original_subject: l.subject,
    original_teacher: l.teacher,
    original_room: l.room,
    note: l.note,
  };
}

function fromLesson(l: DayLesson, bell: ReturnType<typeof bellTimes>): Found {
  if (l.moved) return movedAway(l, l.moved, bell);
  const org = l.org;
  const ids = { subject: l.subjectId, teacher: l.teacherId, orgSubject: org?.subjectId, orgTeacher: org?.teacherId };
  const shifted =
    org !== null && ((org.date !== null && org.date !== l.date) || (org.lessonNo !== null && l.lessonNo !== null && org.lessonNo !== l.lessonNo));
  const { kind, generic } = l.cancelled
    ? { kind: 'cancelled' as const, generic: false }
    : kindOf({ shifted, ids, room: l.room, orgRoom: org?.room ?? null });
  const own = kind === 'cancelled';
  const sameSlot = (org?.lessonNo ?? l.lessonNo) === l.lessonNo && (org?.date ?? l.date) === l.date;
  return {
    date: l.date,
    lesson_no: l.lessonNo,
    hours: span(l.from, l.to),
    kind,
    generic,
    subject: l.subject,
    teacher: l.teacher,
    room: l.room,
    original_date: org?.date ?? l.date,
    original_lesson_no: org?.lessonNo ?? l.lessonNo,
    original_hours: span(org?.from, org?.to) ?? (sameSlot ? span(l.from, l.to) : null),
    original_subject: org?.subject ?? (own ? l.subject : null),
    original_teacher: org?.teacher ?? (own ? l.teacher : null),
    original_room: org?.room ?? (own ? l.room : null),
    note: l.note,
  };
}

function fromSubstitution(s: Substitution, names: Names, bell: ReturnType<typeof bellTimes>): Found | undefined {
  const orgDate = dayOf(s.OrgDate);
  const newDate = dayOf(s.Date);
  // A cancellation has only the Org* side.
  const cancelled =
    s.IsCancelled === true || (newDate === undefined && s.LessonNo === undefined && s.Subject === undefined && s.Teacher === undefined);
  const date = cancelled ? orgDate : (newDate ?? orgDate);
  if (date === undefined) return undefined;
  const no = cancelled ? (s.OrgLessonNo ?? null) : (s.LessonNo ?? s.OrgLessonNo ?? null);
  const hoursOf = (n: number | null | undefined): string | null => {
    const b = n === null || n === undefined ? undefined : bell.get(n);
    return b ? span(b.from, b.to) : null;
  };
  const subjectId = cancelled ? s.OrgSubject : (s.Subject ?? s.OrgSubject);
  const teacherId = cancelled ? s.OrgTeacher : (s.Teacher ?? s.OrgTeacher);
  const ids = { subject: subjectId, teacher: teacherId, orgSubject: s.OrgSubject, orgTeacher: s.OrgTeacher };
  const room = (cancelled ? s.OrgClassroomSymbol : s.ClassroomSymbol)?.trim() ?? null;
  const orgRoom = s.OrgClassroomSymbol?.trim() ?? null;
  const shifted =
    s.IsShifted === true ||
    (newDate !== undefined && orgDate !== undefined && newDate !== orgDate) ||
    (s.LessonNo !== undefined && s.OrgLessonNo !== undefined && s.LessonNo !== s.OrgLessonNo);
  const { kind, generic } = cancelled ? { kind: 'cancelled' as const, generic: false } : kindOf({ shifted, ids, room, orgRoom });
  return {
    date,
    lesson_no: no,
    hours: (!cancelled && s.HourFrom ? span(s.HourFrom.slice(0, 5), s.HourTo?.slice(0, 5)) : null) ?? hoursOf(no),
    kind,
    generic,
    subject: names.subject(subjectId),
    teacher: names.teacher(teacherId),
    room,
    original_date: orgDate ?? null,
    original_lesson_no: s.OrgLessonNo ?? null,
    original_hours: hoursOf(s.OrgLessonNo),
    original_subject: names.subject(s.OrgSubject),
    original_teacher: names.teacher(s.OrgTeacher),
    original_room: orgRoom,
    note: null,
  };
}

const SIDE = ['subject', 'teacher', 'room', 'hours'] as const;
const ORIGINAL = ['original_date', 'original_lesson_no', 'original_hours', 'original_subject', 'original_teacher', 'original_room', 'note'] as const;

/** `main` with its gaps filled from `other` (the current side only from a report that is not a cancellation, whose subject and room are the cancelled lesson's). */
function filled(main: Found, other: Found): Found {
  const out: Found = { ...main };
  const fill = <K extends keyof PlanChange>(key: K): void => {
    if (out[key] === null) out[key] = other[key];
  };
  if (other.kind !== 'cancelled' || main.kind === 'cancelled') SIDE.forEach(fill);
  ORIGINAL.forEach(fill);
  return out;
}

/** Two lessons of one slot in the timetable (a split class): the one that still takes place wins over a cancellation, a specific kind over a generic substitution. */
function merge(a: Found, b: Found): Found {
  const bWins = (a.kind === 'cancelled' && b.kind !== 'cancelled') || (a.generic && !b.generic && b.kind !== 'cancelled');
  return bWins ? filled(b, a) : filled(a, b);
}

/** The year's list oldest first (by Id), so that a lesson's later entry is read after its earlier one. */
const byId = (a: Substitution, b: Substitution): number => Number(a.Id ?? 0) - Number(b.Id ?? 0);

export interface PlanChangeInput {
  /** The merged Timetables of the weeks fetched. */
  days?: TimetableDays;
  substitutions?: readonly Substitution[];
  names: Names;
  /** The school's bells (LessonsRange, live-notes 56), for a change in a week not fetched; else the timetable's. */
  bells?: readonly Bell[];
  /** Whether the standing plan splits a slot of a day into groups (standing.ts splitSlots); unknown when not given. */
  split?: (date: string, no: number | null) => boolean;
}

/**
 * Whether a list entry's lesson can be the child's: false where the timetable holds the slot it changes with lessons, none
 * of them the entry's teacher's in its subject (as planned, or substituted): a split class's other group (a timetable of
 * the child's own group lists no other). A day not read is judged so only in a slot the standing plan splits into groups
 * (`split`), by the same weekday's slot in the weeks read, or where they tell nothing, left for its week's read, which
 * tells it. Where nothing tells (an empty slot, no teacher named, no standing plan), it can.
 */
function ownLessonsOf(days: TimetableDays, lessons: readonly DayLesson[], split: PlanChangeInput['split']): (s: Substitution) => boolean {
  // The lessons of each slot held, and of each weekday's slot, by teacher and subject (as planned, and as held).
  type Side = Pick<LessonSide, 'teacherId' | 'subjectId'>;
  const taught = new Map<string, Side[]>();
  const add = (key: string, sides: readonly Side[]): void => {
    const slot = taught.get(key);
    if (slot === undefined) taught.set(key, [...sides]);
    else slot.push(...sides);
  };
  for (const l of lessons) {
    const sides = l.org === null ? [l] : [l, l.org];
    add(`${l.date}|${l.lessonNo}`, sides);
    add(`day ${dayOfWeek(l.date)}|${l.lessonNo}`, sides);
  }
  const teaches = (slot: readonly Side[], s: Substitution): boolean =>
    slot.some((t) => t.teacherId === s.OrgTeacher && (s.OrgSubject === undefined || t.subjectId === undefined || t.subjectId === s.OrgSubject));
  const tells = (slot: readonly Side[] | undefined): slot is readonly Side[] => slot !== undefined && slot.some((t) => t.teacherId !== undefined);
  return (s) => {
    const date = dayOf(s.OrgDate);
    if (date === undefined || s.OrgTeacher === undefined) return true;
    const no = s.OrgLessonNo ?? null;
    if (days[date] !== undefined) {
      const slot = taught.get(`${date}|${no}`);
      return !tells(slot) || teaches(slot, s);
    }
    const groups = split?.(date, no);
    if (groups === false) return true;
    const weekly = taught.get(`day ${dayOfWeek(date)}|${no}`);
    return tells(weekly) ? teaches(weekly, s) : groups !== true;
  };
}

/**
 * Every change known, by date and lesson. The timetable tells how a day it holds stands, so for a slot it reports
 * changed (or a lesson of which it moves away) the year's list only fills gaps; of a lesson the timetable does not report, the list's later entry is the
 * school's later word (a substitution cancelled after all is a cancellation), the earlier fills its gaps.
 */
export function planChanges(input: PlanChangeInput): PlanChange[] {
  const days = input.days ?? {};
  const found = new Map<string, Found>();
  const fromTimetable = new Set<string>();
  const left = new Set<string>();
  const keyOf = (f: Found, i: number): string => (f.lesson_no === null ? `${f.date}|?${i}` : `${f.date}|${f.lesson_no}`);
  const bell = input.bells?.length ? new Map(input.bells.map((b) => [b.no, b])) : bellTimes(days);
  const lessons = allLessons(days, input.names);
  const own = ownLessonsOf(days, lessons, input.split);
  lessons
    .filter((l) => l.cancelled || l.substitution || l.moved !== null)
    .forEach((l, i) => {
      const f = fromLesson(l, bell);
      const key = keyOf(f, i);
      const known = found.get(key);
      found.set(key, known ? merge(known, f) : f);
      fromTimetable.add(key);
      // The slot a lesson leaves is told by the timetable too, through the move (changesOn): no list entry stands there,
      // whether the timetable holds that day (the lesson moved away) or only the day it moved to (one moved in).
      if (l.moved !== null) left.add(`${l.date}|${l.lessonNo}`);
      const from = l.org;
      if (from !== null && from.date !== null && (from.date !== l.date || from.lessonNo !== l.lessonNo)) left.add(`${from.date}|${from.lessonNo}`);
    });
  [...(input.substitutions ?? [])].sort(byId).forEach((s, i) => {
    const f = own(s) ? fromSubstitution(s, input.names, bell) : undefined;
    if (f === undefined) return;
    const key = keyOf(f, -1 - i);
    const known = found.get(key);
    if (known === undefined && left.has(key)) return;
    found.set(key, known === undefined ? f : fromTimetable.has(key) ? filled(known, f) : filled(f, known));
  });
  return [...found.values()]
    .map(({ generic: _generic, ...change }) => change)
    .sort((a, b) => textCompare(a.date, b.date) || (a.lesson_no ?? 99) - (b.lesson_no ?? 99));
}

/** A lesson moved from `date` to another day: on `date` it occupies its original slot. */
export function leaves(c: PlanChange, date: string): boolean {
  return c.kind === 'shifted' && c.original_date === date && c.date !== date;
}

/** The slot a change occupies on `date`, its number and hours: a lesson moved away sits in the slot it left. */
function slotOfChange(c: PlanChange, date: string): { no: number | null; hours: string | null } {
  return leaves(c, date) ? { no: c.original_lesson_no, hours: c.original_hours } : { no: c.lesson_no, hours: c.hours };
}

/** The lesson number a change occupies on `date` (slotOfChange). */
export function slotOn(c: PlanChange, date: string): number | null {
  return slotOfChange(c, date).no;
}

/**
 * The changes that touch one day. A lesson moved to another day also shows on the day it leaves, in
 * its old slot, still saying where it goes (date, lesson_no, hours) and where it was (original_*); it
 * replaces a bare cancellation of that slot, which is the same event seen from there, and stands beside
 * any other change of the slot (a lesson moved in where it left).
 */
export function changesOn(changes: readonly PlanChange[], date: string): PlanChange[] {
  const own = changes.filter((c) => c.date === date);
  for (const c of changes) {
    if (!leaves(c, date)) continue;
    const at = own.findIndex((o) => o.kind === 'cancelled' && o.lesson_no !== null && o.lesson_no === c.original_lesson_no);
    if (at < 0) own.push({ ...c });
    else own[at] = { ...c, note: own[at]!.note ?? c.note };
  }
  return own.sort((a, b) => (slotOn(a, date) ?? 99) - (slotOn(b, date) ?? 99));
}

/** One `plan_change` event per change from today on; past changes are not news. */
export function planChangeEvents(changes: readonly PlanChange[], today: string): NewsItem<PlanChangePayload>[] {
  return changes
    .filter((c) => c.date >= today || (c.original_date !== null && c.original_date >= today))
    .map((c) => ({
      id: `plan:${c.date}:${c.lesson_no ?? '-'}:${c.kind}`,
      payload: { ...c },
    }));
}
