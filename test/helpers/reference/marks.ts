// The reference's grades, lessons missed and unread messages (school.ts has the plan and the agenda): from the
// portal's records and the spec alone (spec 2.4 to 2.6, 2.10; interface 19.1).
import type { Records } from './portal.js';
import { idOf, namesOf, rows } from './school.js';

type Row = Record<string, unknown>;

/** A grade of the Grades list and what the spec makes of it. */
export interface Grade {
  id: string;
  date: string;
  subject: string | null;
  category: string | null;
  value: string;
  /** The category's weight (spec 2.3: a number or a numeric string with a decimal comma; anything else 1). */
  weight: number;
  /** It counts toward the average: an ordinary grade on the 1 to 6 scale (a 0 only where countZero), of a counting category. */
  counts: boolean;
  /** Its value in the average, when it counts. */
  points: number | null;
  semester: number;
  /** It corrects an earlier grade, or an earlier one corrects it (spec 2.4: both stay in the list). */
  corrected: boolean;
}

const TERM = ['IsSemester', 'IsSemesterProposition', 'IsFinal', 'IsFinalProposition'];

function weightOf(category: Row | undefined): number {
  const weight = category?.Weight;
  const number = typeof weight === 'string' ? Number(weight.replace(',', '.')) : weight;
  return typeof number === 'number' && Number.isFinite(number) ? number : 1;
}

/** The value of a grade on the 1 to 6 scale (spec 2.5), null for a mark that is no grade ("+", "np", "0" uncounted). */
function pointsOf(value: string, system: Row): number | null {
  const match = /^([0-6])([+-]?)$/.exec(value.trim());
  if (!match) return null;
  const [, digit = '', sign] = match;
  if (digit === '0' && (sign !== '' || system.countZero !== true)) return null;
  const size = (key: string, fallback: number) => Math.abs(Number(system[key] ?? fallback)) || fallback;
  return Number(digit) + (sign === '+' ? size('plusValue', 0.5) : sign === '-' ? -size('minusValue', 0.25) : 0);
}

export function gradesOf(records: Records): Grade[] {
  const names = namesOf(records);
  const categories = new Map(rows(records, 'Grades/Categories', 'Categories').map((c) => [idOf(c.Id), c]));
  const system = (records.lists.GradingSystem as Row | null | undefined) ?? {};
  const list = rows(records, 'Grades', 'Grades');
  const improved = new Set(list.map((g) => idOf(g.Improvement)).filter((id) => id !== null));
  return list.flatMap((g) => {
    const id = idOf(g.Id);
    if (id === null || typeof g.Grade !== 'string') return [];
    const category = categories.get(idOf(g.Category));
    const points = TERM.some((flag) => g[flag] === true) ? null : pointsOf(g.Grade, system);
    const counts = points !== null && category?.CountToTheAverage !== false;
    return [
      {
        id,
        date: String(g.Date ?? g.AddDate ?? '').slice(0, 10),
        subject: names.subject(g.Subject),
        category: (category?.Name as string | undefined) ?? null,
        value: g.Grade,
        weight: weightOf(category),
        counts,
        points: counts ? points : null,
        semester: Number(g.Semester),
        corrected: idOf(g.Improvement) !== null || improved.has(id),
      },
    ];
  });
}

/** The semester of today (Classes.EndFirstSemester: the first until that day). */
export function semesterOf(records: Records): number {
  const end = (records.lists.Classes as { Class?: Row } | null | undefined)?.Class?.EndFirstSemester;
  return typeof end === 'string' && records.today > end ? 2 : 1;
}

/**
 * Each subject's weighted average this semester over the grades that count, where the spec fixes it: a subject with a
 * correction is left out (the spec keeps both grades without saying which counts).
 */
export function averagesOf(records: Records): Map<string, number> {
  const semester = semesterOf(records);
  const bySubject = new Map<string, Grade[]>();
  for (const g of gradesOf(records).filter((g) => g.semester === semester && g.subject !== null))
    bySubject.set(g.subject as string, [...(bySubject.get(g.subject as string) ?? []), g]);
  const out = new Map<string, number>();
  for (const [subject, grades] of bySubject) {
    const counted = grades.filter((g) => g.counts && g.weight > 0);
    if (grades.some((g) => g.corrected) || counted.length === 0) continue;
    const weights = counted.reduce((sum, g) => sum + g.weight, 0);
    out.set(subject, counted.reduce((sum, g) => sum + (g.points as number) * g.weight, 0) / weights);
  }
  return out;
}

/**
 * The lessons missed this school year (an attendance mark of a kind that is no presence: spec 2.6; the year as
 * Classes gives it), each its date and number.
 */
export function missedOf(records: Records): { date: string; no: number }[] {
  const klass = (records.lists.Classes as { Class?: Row } | null | undefined)?.Class;
  const inYear = (date: string) => date >= String(klass?.BeginSchoolYear ?? '') && date <= String(klass?.EndSchoolYear ?? '9999');
  const presence = new Map(rows(records, 'Attendances/Types', 'Types').map((t) => [idOf(t.Id), t.IsPresenceKind === true]));
  return rows(records, 'Attendances', 'Attendances')
    .filter((a) => presence.get(idOf(a.Type)) === false && typeof a.Date === 'string' && inYear(a.Date))
    .map((a) => ({ date: a.Date as string, no: Number(a.LessonNo) }));
}

/** The unread messages of each mailbox (spec 2.10: a null readDate), a subjectless one included. */
export function unreadOf(records: Records): Records['messages'] {
  return records.messages.filter((m) => m.unread);
}
