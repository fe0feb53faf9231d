// A kindergarten's plan (live-notes 34) read as a timetable: every day of the fortnight the kindergarten plan covers is
// known (a day without blocks is a day without lessons), and each block is a lesson without a number, its
// activity's name in place of a subject, its room's name and its teachers; `Block` carries what a school's
// lesson has not (every teacher, the portal's word for the block's kind).
import type { TimetableDays, TimetableLesson } from '../portal/schemas/timetable.js';
import type { KindergartenEntry } from '../portal/schemas/kindergarten.js';
import type { NamedRef } from '../portal/schemas/fields.js';
import { oneLine } from '../util/text.js';
import { addDays } from '../util/time.js';
import { dayOf, hhmm } from './portal-values.js';
import { textCompare } from './order.js';

/** What a block has beside a lesson's fields. */
export interface BlockFacts {
  teachers: string[];
  /** `planned`, or the portal's own word (only `planned` has been seen). */
  kind: string;
}

export interface BlockNames {
  activity(id: string | undefined): string | null;
  room(id: string | undefined): string | null;
  /** A teacher by the identifier of their account. */
  teacher(lid: string): string | null;
}

/** The blocks of the kindergarten plan from `from` to `to` (both included) as the days of a timetable, in time order. */
export function kindergartenDays(entries: readonly KindergartenEntry[], names: BlockNames, from: string, to: string): TimetableDays {
  const days: TimetableDays = {};
  for (let d = from; d <= to; d = addDays(d, 1)) days[d] = [];
  const sorted = [...entries].sort((a, b) => textCompare(a.date ?? '', b.date ?? '') || textCompare(a.startTime ?? '', b.startTime ?? ''));
  for (const e of sorted) {
    const date = dayOf(e.date);
    const slots = date === undefined ? undefined : days[date];
    if (slots === undefined) continue;
    const teachers = e.teachers.map((lid) => names.teacher(lid)).filter((t): t is string => t !== null);
    // As the school's Timetables lists a lesson once read (portal/schemas/timetable.ts), with the block beside.
    const lesson: TimetableLesson & { Block: BlockFacts } = {
      HourFrom: hhmm(e.startTime),
      HourTo: hhmm(e.endTime),
      Subject: named({ id: e.activityTypeIdentifier, name: names.activity(e.activityTypeIdentifier) }),
      Classroom: named({ name: names.room(e.classroomIdentifier) }),
      Teacher: named({ lastName: teachers.length === 0 ? null : teachers.join(', ') }),
      Block: { teachers, kind: e.type?.trim() || 'planned' },
    };
    slots.push([lesson]);
  }
  return days;
}

/** A named reference as the schema reads one: its blank parts left out, undefined when nothing is left. */
function named(parts: Record<string, string | null | undefined>): NamedRef | undefined {
  const ref = Object.fromEntries(Object.entries(parts).flatMap(([k, v]) => (v?.trim() ? [[k, oneLine(v).trim()]] : [])));
  return Object.keys(ref).length > 0 ? ref : undefined;
}

/** The block facts a timetable lesson carries, when it is a kindergarten's block. */
export function blockOf(lesson: TimetableLesson): BlockFacts | undefined {
  const block = (lesson as { Block?: unknown }).Block;
  if (block === null || typeof block !== 'object') return undefined;
  const { teachers, kind } = block as Partial<BlockFacts>;
  return Array.isArray(teachers) && typeof kind === 'string' ? { teachers, kind } : undefined;
}
