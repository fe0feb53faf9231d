// Extra classes (zajęcia dodatkowe, DZD; live-notes 42-46): not in the timetable, listed apart, each merged into
// its day as a lesson of its own (`extra`), in start-time order: a lesson number only where it starts at one of
// the timetable's lesson hours, never a change of a regular lesson, a cancelled one (a status starting with CANCEL)
// a cancelled lesson, and one whose start and title the day already holds left out.
import type { OtherActivity } from '../portal/schemas/timetable.js';
import { dayOf, hhmm } from './portal-values.js';
import { fold } from './order.js';
import type { DayLesson } from './timetable.js';

/** "Zieliński Tomasz" (surname first, as the list gives it) as the timetable names a teacher: "Tomasz Zieliński". */
function teacherOf(name: string | undefined): string | null {
  const [surname, ...rest] = (name ?? '').trim().split(/\s+/);
  return surname ? [...rest, surname].join(' ') : null;
}

/** The extra classes as lessons; `bells` (lesson number -> hours, timetable.ts's bellTimes) numbers those that start at a lesson's hour. */
export function extraLessons(items: readonly OtherActivity[] | undefined, bells: ReadonlyMap<number, { from: string }>): DayLesson[] {
  const numberAt = new Map([...bells].map(([no, hours]) => [hours.from, no]));
  return (items ?? []).flatMap((a): DayLesson[] => {
    const [date, from] = [dayOf(a.date), hhmm(a.startTime)];
    if (date === undefined || from === undefined) return [];
    const place = { date, lessonNo: numberAt.get(from) ?? null, from, to: hhmm(a.endTime) ?? null };
    const side = { subject: a.title?.trim() || null, teacher: teacherOf(a.teacherName), room: a.classroom?.symbol ?? a.classroom?.name ?? null };
    const cancelled = /^cancel/i.test(a.status ?? '');
    return [{ ...place, ...side, cancelled, substitution: false, note: null, org: null, moved: null, block: null, extra: true }];
  });
}

/** A day's lessons with its extra classes, each before the first lesson that starts later. */
export function withExtra<L extends DayLesson>(lessons: readonly L[], extra: readonly L[]): L[] {
  const out = [...lessons];
  for (const e of extra) {
    if (out.some((l) => l.from === e.from && fold(l.subject ?? '') === fold(e.subject ?? ''))) continue;
    const later = out.findIndex((l) => l.from !== null && e.from !== null && l.from > e.from);
    out.splice(later === -1 ? out.length : later, 0, e);
  }
  return out;
}
