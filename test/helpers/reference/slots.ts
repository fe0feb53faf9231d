// The reference's day by its slots, with their bells and what changed in them; what a difference from the standing
// plan says by name; and the records a pass's events tell of: from the portal's records and the spec alone (spec 2.3,
// 2.4, 2.7, 2.8; interface 19.1), as school.ts, whose day and plan it reads.
import type { Records } from './portal.js';
import { addDays, hourOf, mondayOf } from './dates.js';
import { agendaOf, idOf, lessonsOn, namesOf, planOn, rows, type AgendaEntry, type DifferenceKind } from './school.js';
import { gradesOf, type Grade } from './marks.js';

type Row = Record<string, unknown>;

/** One slot of a day: the lessons of one number (several for a split class: spec 2.7). */
export interface Slot {
  date: string;
  no: number;
  /** Its bells (HourFrom, HourTo) as HH:MM. */
  from: string | null;
  to: string | null;
  /** Its lessons that do not take place (cancelled, moved away, a free day of the class) by subject, and its
   * substitutions (the lesson's own subject, then the one it replaces). */
  cancelled: string[];
  /** Its lessons that take place, by subject. */
  held: string[];
  substitutions: { subject: string | null; original: string | null }[];
}

/** This week and the next, Monday to Sunday (the weeks the board and the feeds tell). */
export const fortnightOf = (records: Records): string[] => Array.from({ length: 14 }, (_, i) => addDays(mondayOf(records.today), i));

/** The slots of a day read, in the day's order; empty for a day not read. */
export function slotsOn(records: Records, date: string): Slot[] {
  const names = namesOf(records);
  // lessonsOn reads the day's slots in order, lesson by lesson: the same lessons as the raw ones, place for place.
  const raw = (records.days[date] ?? []).flat() as Row[];
  const lessons = (lessonsOn(records, date) ?? []).map((l, i) => ({ ...l, row: raw[i] as Row, off: l.cancelled || l.movedTo !== null }));
  return [...new Set(lessons.map((l) => l.no))].map((no) => {
    const slot = lessons.filter((l) => l.no === no);
    const held = slot.filter((l) => !l.off);
    const subjectsOf = (of: typeof slot) => of.map((l) => names.subject(l.subject)).filter((s) => s !== null);
    return {
      date,
      no,
      from: hourOf(slot[0]?.row.HourFrom),
      to: hourOf(slot[0]?.row.HourTo),
      cancelled: subjectsOf(slot.filter((l) => l.off)),
      held: subjectsOf(held),
      substitutions: held
        .filter((l) => l.row.IsSubstitutionClass === true)
        .map((l) => ({ subject: names.subject(l.subject), original: names.subject(l.row.OrgSubject) })),
    };
  });
}

/** A difference from the standing plan as the records let it be told: its kind, and the plan's and the day's names. */
export interface Telling {
  kind: DifferenceKind;
  was: string;
  now: string;
}

/** A room's names (spec 2.3: Classrooms' Symbol and Name). */
function roomNames(records: Records, id: string | null): string[] {
  const room = rows(records, 'Classrooms', 'Classrooms').find((c) => idOf(c.Id) === id);
  return [room?.Symbol, room?.Name].filter((n): n is string => typeof n === 'string' && n.trim() !== '').map((n) => n.trim());
}

/**
 * What a slot's differences from the standing plan may say: a lesson missing by the subject of an entry of the slot,
 * an added one by its own subject, and a lesson that takes place against its own entry (the entry of its lesson: a
 * split class's other group is none of it) by the entry's and the lesson's subject, teacher or room.
 */
export function tellingsOf(records: Records, date: string, no: number): Telling[] {
  const names = namesOf(records);
  const planned = planOn(records, date).filter((e) => e.no === no);
  const held = (lessonsOn(records, date) ?? []).filter((l) => l.no === no && !l.cancelled);
  const entryNames = (lesson: string | null) => {
    const of = names.lesson(lesson);
    return { subject: names.subject(of?.subject) ?? '', teacher: names.teacher(of?.teacher) ?? '' };
  };
  const out: Telling[] = [
    ...planned.map((e) => ({ kind: 'missing' as const, was: entryNames(e.lesson).subject, now: '' })),
    ...held.map((l) => ({ kind: 'added' as const, was: '', now: names.subject(l.subject) ?? '' })),
  ];
  for (const l of held) {
    const own = planned.find((e) => e.lesson !== null && e.lesson === l.lesson);
    if (own === undefined) continue;
    const was = entryNames(own.lesson);
    out.push({ kind: 'subject', was: was.subject, now: names.subject(l.subject) ?? '' });
    out.push({ kind: 'teacher', was: was.teacher, now: names.teacher(l.teacher) ?? '' });
    for (const from of roomNames(records, own.room)) for (const to of roomNames(records, l.room)) out.push({ kind: 'room', was: from, now: to });
  }
  return out;
}

/** The grade a grade event tells (by the Id its `id` names). */
export const gradeOf = (records: Records, id: string): Grade | undefined => gradesOf(records).find((g) => `grade:${g.id}` === id);

/** The agenda entries an event of the agenda may tell: of its day, subject and content (HomeWorks has no other key it tells). */
export const agendaTold = (records: Records, date: string, subject: unknown, content: unknown): AgendaEntry[] =>
  agendaOf(records).filter((e) => e.date === date && e.subject === (subject ?? null) && e.content === (content ?? ''));

/** An announcement as SchoolNotices has it (spec 2.8): its id, subject, text, and its days (created, starting). */
export interface Announcement {
  id: string;
  subject: string;
  content: string;
  days: string[];
}

/** The announcement of this Id, if SchoolNotices holds one. */
export function announcementOf(records: Records, id: string): Announcement | undefined {
  const row = rows(records, 'SchoolNotices', 'SchoolNotices').find((n) => idOf(n.Id) === id);
  if (row === undefined) return undefined;
  const text = (v: unknown): string => (typeof v === 'string' ? v : '');
  const days = [row.CreationDate, row.StartDate].filter((d): d is string => typeof d === 'string').map((d) => d.slice(0, 10));
  return { id, subject: text(row.Subject), content: text(row.Content), days };
}
