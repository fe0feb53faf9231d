// The days of the briefing's table test: one week of a child's timetable, written by hand as the
// timetable feature hands it over (src/rules/schedule.ts SchoolDay), and the briefing's input at a moment.
import type { AgendaItem } from '../../../src/rules/agenda.js';
import type { HomeworkItem } from '../../../src/rules/homework.js';
import type { ScheduledLesson, SchoolDay } from '../../../src/rules/schedule.js';
import type { ChangeKind } from '../../../src/rules/plan-changes.js';
import type { briefingAt } from '../../../src/features/briefing/briefing.js';
import { warsawInstant } from '../../../src/util/time.js';

const SLOTS: [string, string][] = [
  ['8:00', '8:45'],
  ['8:55', '9:40'],
  ['9:50', '10:35'],
  ['10:45', '11:30'],
  ['11:40', '12:25'],
  ['12:40', '13:25'],
];

/** A lesson in slot n (1-based); `change` as the timetable marks it. */
export function lesson(date: string, n: number, subject: string, change: ChangeKind | null = null): ScheduledLesson {
  const [from, to] = SLOTS[n - 1]!;
  const hhmm = (t: string): string => t.padStart(5, '0');
  const gone = change === 'cancelled' || change === 'shifted';
  return {
    date,
    lessonNo: n,
    from: hhmm(from),
    to: hhmm(to),
    subject,
    teacher: 'Anna Nowak',
    room: '12',
    cancelled: change === 'cancelled',
    substitution: change === 'substitution',
    note: null,
    org: null,
    moved: change === 'shifted' ? { date: '2026-11-27', lessonNo: 7, from: '13:35', to: '14:20', subject, teacher: null, room: null } : null,
    block: null,
    extra: false,
    takesPlace: !gone,
    change:
      change === null
        ? null
        : {
            // A lesson moved away: the change says where it goes and the slot it leaves, as the plan's changes do.
            ...(change === 'shifted' ? { date: '2026-11-27', lesson_no: 7 } : { date, lesson_no: n }),
            hours: `${hhmm(from)}-${hhmm(to)}`,
            kind: change,
            subject,
            teacher: null,
            room: null,
            original_date: change === 'shifted' ? date : null,
            original_lesson_no: change === 'shifted' ? n : null,
            original_hours: null,
            original_subject: null,
            original_teacher: null,
            original_room: null,
            note: null,
          },
  };
}

export function day(date: string, subjects: (string | [string, ChangeKind])[], free?: string): SchoolDay {
  const lessons = subjects.map((s, i) => (typeof s === 'string' ? lesson(date, i + 1, s) : lesson(date, i + 1, s[0], s[1])));
  const held = lessons.filter((l) => l.takesPlace);
  return {
    date,
    lessons,
    changes: lessons.flatMap((l) => (l.change ? [l.change] : [])),
    freeDay: free === undefined ? undefined : { name: free || null, scope: 'school', from: date, to: date, lessons: null },
    start: held[0] ? new Date(warsawInstant(date, held[0].from!)).toISOString() : null,
    end: held.at(-1) ? new Date(warsawInstant(date, held.at(-1)!.to!)).toISOString() : null,
  };
}

/** Monday 23 to Sunday 29 November 2026, then Monday 30. */
export const WEEK: SchoolDay[] = [
  day('2026-11-23', ['Matematyka', 'Język polski', 'Historia', 'Wychowanie fizyczne']),
  day('2026-11-24', ['Język polski', 'Matematyka', 'Biologia', 'Plastyka', 'Język angielski']),
  day('2026-11-25', [['Fizyka', 'cancelled'], 'Matematyka', ['Chemia', 'shifted'], ['Geografia', 'substitution'], 'Język polski']),
  day('2026-11-26', [], 'Dzień Edukacji'),
  day('2026-11-27', ['Religia', 'Matematyka', 'Informatyka']),
  day('2026-11-28', []),
  day('2026-11-29', []),
  day('2026-11-30', ['Matematyka', 'Język polski', 'Historia']),
];

export const TESTS: AgendaItem[] = [
  {
    key: 't1',
    kind: 'test',
    date: '2026-11-25',
    time: null,
    time_to: null,
    subject: 'Matematyka',
    category: 'Sprawdzian',
    content: 'Ułamki',
    until: null,
    teacher: null,
  },
  {
    key: 't2',
    kind: 'quiz',
    date: '2026-11-25',
    time: null,
    time_to: null,
    subject: 'Język polski',
    category: 'Kartkówka',
    content: null,
    until: null,
    teacher: null,
  },
];

export const HOMEWORK: HomeworkItem[] = [
  {
    key: 'h1',
    subject: 'Biologia',
    topic: 'Komórka',
    text: null,
    teacher: null,
    assigned: '2026-11-20',
    due: '2026-11-24',
    attachments: [],
    done: false,
  },
  {
    key: 'h2',
    subject: 'Plastyka',
    topic: 'Rysunek',
    text: null,
    teacher: null,
    assigned: '2026-11-20',
    due: '2026-11-24',
    attachments: [],
    done: true,
  },
];

/** The input at a Warsaw date and time, with the week above; `more` changes what the case needs. */
export function at(date: string, time: string, more: Partial<Parameters<typeof briefingAt>[0]> = {}): Parameters<typeof briefingAt>[0] {
  const days = more.days ?? WEEK;
  return {
    now: warsawInstant(date, time),
    // As the timetable says it: the first later day with a lesson of the plan taking place.
    nextSchoolDay: days.find((d) => d.date > date && d.lessons?.some((l) => l.takesPlace && !l.extra))?.date ?? null,
    days,
    tests: TESTS,
    homework: HOMEWORK,
    lucky: undefined,
    terms: [],
    ...more,
  };
}
