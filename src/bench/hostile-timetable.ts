// The standing plan a hostile portal could send (interface 19.2): 28,000 TimetableEntries on one weekday and 5,000
// repeats of them, read into the plan and held against a fortnight, the differences through the one attribute cap.
// What one pass of it costs in time and heap; the pass must stay within a second.
import { makeNames } from '../rules/names.js';
import { standingDifferences, standingTimetable } from '../rules/standing-timetable.js';
import type { ScheduledLesson, SchoolDay } from '../rules/schedule.js';
import type { TimetableEntry } from '../portal/schemas/timetable.js';
import { capAttributes } from '../features/kit/render.js';
import { standingWords } from '../features/timetable/standing.js';
import { addDays } from '../util/time.js';
import type { BenchTableRow as Row } from './results.js';
import { HOSTILE_STANDING_TIMETABLE } from '../simulator/data/timetable.js';

const { entries: ENTRIES, repeats: REPEATS } = HOSTILE_STANDING_TIMETABLE;
const MONDAY = '2026-11-16';

function hostileEntries(): TimetableEntry[] {
  const entries = Array.from({ length: ENTRIES }, (_, i) => ({ Id: String(i + 1), Lesson: '1', DayOfTheWeek: 1, LessonNo: i + 1 }) as TimetableEntry);
  return [...entries, ...entries.slice(0, REPEATS).map((e) => ({ ...e, Id: `${e.Id}-again` }))];
}

/** A fortnight of read days, each with its first lesson alone held: every other slot of a Monday is a difference. */
function fortnight(): SchoolDay[] {
  return Array.from({ length: 14 }, (_, i) => {
    const date = addDays(MONDAY, i);
    const first = {
      date,
      lessonNo: 1,
      subject: 'Matematyka',
      teacher: null,
      room: null,
      takesPlace: true,
      extra: false,
      org: null,
    } as ScheduledLesson;
    return { date, lessons: [first], changes: [], freeDay: undefined, start: null, end: null };
  });
}

/** One pass's standing plan: read, held against the fortnight, the attribute capped; its time and heap growth. */
export function hostileTimetableRows(): Row[] {
  const [entries, days] = [hostileEntries(), fortnight()];
  const names = makeNames({ subjects: [{ Id: '1', Name: 'Matematyka' }] as never });
  const lessons = new Map([['1', { Subject: '1', Teacher: undefined }]]);
  const heap = process.memoryUsage().heapUsed;
  const began = performance.now();
  const plan = standingTimetable(entries, lessons, names, (weekday) => weekday <= 5);
  const differences = standingDifferences(days, plan.slots).map((d) => ({ ...d, words: standingWords(d, 'pl') }));
  capAttributes({ standing_differences: differences });
  const ms = performance.now() - began;
  const grownMB = (process.memoryUsage().heapUsed - heap) / 1024 / 1024;
  return [
    { measure: `standing plan of ${ENTRIES} entries and ${REPEATS} repeats, one pass (ms)`, value: ms.toFixed(0), target: '<= 1000', ok: ms <= 1000 },
    { measure: 'standing plan of a hostile portal, heap grown in the pass (MB)', value: grownMB.toFixed(0), target: '', ok: null },
  ];
}
