// The school year day by day: each child's overall average, each subject's and the attendance as they stood
// at the end of each day, by the sensors' own rules (rules/averages.ts `averages`, rules/attendance.ts
// `attendanceOf`) applied to the records dated up to that day, in that day's semester. A figure moves only
// on a day with a record or on the semester's first day, so the rules run on those days alone and the
// figure stands in between.
import type { Language } from '../../../config/language.js';
import { averages, round2 } from '../../../rules/averages.js';
import { attendanceOf } from '../../../rules/attendance.js';
import { dayOf } from '../../../rules/portal-values.js';
import { semesterOf } from '../../../rules/semester.js';
import type { YearRecords } from '../../../rules/year-records.js';
import { addDays } from '../../../util/time.js';

/** Every statistic's source and the domain of its id (Home Assistant wants the two equal). */
export const SOURCE = 'dziennik2mqtt';

/** What Home Assistant keeps of a statistic beside its rows (recorder/import_statistics' metadata). */
export interface StatisticMetadata {
  statistic_id: string;
  name: string;
  source: typeof SOURCE;
  unit_of_measurement: string | null;
  has_sum: false;
  /** 1: a mean (arithmetic); its rows have mean, min and max. */
  mean_type: 1;
  unit_class: null;
}

/** One statistic of the year: its metadata and its figure at each day's end, by day, from its first day. */
export interface YearStatistic {
  metadata: StatisticMetadata;
  days: Record<string, number>;
}

const WORDS: Record<Language, { average: string; attendance: string }> = {
  pl: { average: 'średnia', attendance: 'frekwencja' },
  en: { average: 'average', attendance: 'attendance' },
  uk: { average: 'середній бал', attendance: 'відвідуваність' },
};

/** An external statistic's id: `dziennik2mqtt:<object>`, the object as Home Assistant takes it ([a-z0-9_], no `__`, no `_` at an end). */
export function statisticId(object: string): string {
  const clean = object
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '');
  return `${SOURCE}:${clean}`;
}

/** The ids of a child's statistics of averages: the overall one, then one per subject slug. */
export const averageIds = (child: string, slugs: readonly string[]) => [
  statisticId(`${child}_average`),
  ...slugs.map((s) => statisticId(`${child}_average_${s}`)),
];

/** Each statistic of one child up to `today`, named in the family's language ("Zofia – średnia: Matematyka"). */
export function yearStatistics(child: string, records: YearRecords, today: string, language: Language): YearStatistic[] {
  const words = WORDS[language];
  const meta = (object: string, name: string, unit: string | null): StatisticMetadata => ({
    statistic_id: statisticId(object),
    name,
    source: SOURCE,
    unit_of_measurement: unit,
    has_sum: false,
    mean_type: 1,
    unit_class: null,
  });
  const out: YearStatistic[] = [];
  if (records.grades) {
    const { overall, subjects } = averageDays(records, today);
    if (Object.keys(overall).length > 0) out.push({ metadata: meta(`${child}_average`, `${records.name} – ${words.average}`, null), days: overall });
    for (const [slug, s] of [...subjects].sort(([a], [b]) => (a < b ? -1 : 1)))
      out.push({ metadata: meta(`${child}_average_${slug}`, `${records.name} – ${words.average}: ${s.name}`, null), days: s.days });
  }
  if (records.attendance) {
    const days = attendanceDays(records, today);
    if (Object.keys(days).length > 0) out.push({ metadata: meta(`${child}_attendance`, `${records.name} – ${words.attendance}`, '%'), days });
  }
  return out;
}

/** The days from `first` to `today`, each with whether a figure may move on it (a record's day, a new semester). */
function* daysOf(first: string, today: string, recordDays: ReadonlySet<string>, endFirstSemester: string | undefined) {
  let before: 1 | 2 | undefined;
  for (let day = first; day <= today; day = addDays(day, 1)) {
    const semester = semesterOf(day, endFirstSemester);
    yield { day, semester, moves: day === first || semester !== before || recordDays.has(day) };
    before = semester;
  }
}

/** The school year's first day with a record, on or after the year's first day. */
function firstDay(days: Iterable<string>, begins: string | undefined, today: string): string | undefined {
  let first: string | undefined;
  for (const day of days) if (day >= (begins ?? '') && day <= today && (first === undefined || day < first)) first = day;
  return first;
}

function averageDays(records: YearRecords, today: string) {
  const { input, slugs } = records.grades as NonNullable<YearRecords['grades']>;
  // A grade without a date counts from today, as the sensor counts it now.
  const dayOfGrade = (g: { Date?: string }) => dayOf(g.Date) ?? today;
  const recordDays = new Set(input.grades.map(dayOfGrade));
  const overall: Record<string, number> = {};
  const subjects = new Map<string, { name: string; days: Record<string, number> }>();
  const first = firstDay(recordDays, records.begins, today);
  if (first === undefined) return { overall, subjects };
  let now: { overall: number | null; subjects: Map<string, { name: string; average: number }> } = { overall: null, subjects: new Map() };
  for (const { day, semester, moves } of daysOf(first, today, recordDays, input.endFirstSemester)) {
    if (moves) {
      // The sensors' rule on the grades of that day and before, in the portal's order.
      const value = averages({
        ...input,
        grades: input.grades.filter((g) => dayOfGrade(g) <= day),
        pointGrades: input.pointGrades?.filter((g) => dayOfGrade(g) <= day),
        semester,
      });
      const bySubject = new Map<string, { name: string; average: number }>();
      for (const s of value.subjects) {
        const slug = slugs[s.subjectId];
        if (slug !== undefined && s.average !== null) bySubject.set(slug, { name: s.subject ?? s.subjectId, average: round2(s.average) });
      }
      now = { overall: value.overall === null ? null : round2(value.overall), subjects: bySubject };
    }
    if (now.overall !== null) overall[day] = now.overall;
    for (const [slug, s] of now.subjects) {
      const series = subjects.get(slug) ?? { name: s.name, days: {} };
      series.name = s.name;
      series.days[day] = s.average;
      subjects.set(slug, series);
    }
  }
  return { overall, subjects };
}

function attendanceDays(records: YearRecords, today: string): Record<string, number> {
  const input = records.attendance as NonNullable<YearRecords['attendance']>;
  const dayOfMark = (m: { Date?: string }) => dayOf(m.Date) ?? today;
  const recordDays = new Set(input.attendances.map(dayOfMark));
  const days: Record<string, number> = {};
  const first = firstDay(recordDays, records.begins, today);
  if (first === undefined) return days;
  let percent: number | null = null;
  for (const { day, semester, moves } of daysOf(first, today, recordDays, input.endFirstSemester)) {
    if (moves) {
      const marks = input.attendances.filter((m) => dayOfMark(m) <= day);
      // The sensor's rule: the semester's share of lessons present.
      percent = attendanceOf({ ...input, attendances: marks, justifications: [], semester }).semester.attendancePercent;
    }
    if (percent !== null) days[day] = percent;
  }
  return days;
}
