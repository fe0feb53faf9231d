// The grades' figures of the school year, day by day (interface 16.3's statistics): the overall average and
// each subject's as the sensors' own rule (rules/averages.ts `averages`) made them at the end of each day,
// from the grades dated up to that day, in that day's semester.
import type { Language } from '../../config/language.js';
import { averages, round2, type AverageInput } from '../../rules/averages.js';
import { dayByDay, recordDay, type YearSpan } from '../../rules/year-days.js';
import type { DaySeries } from '../../engine/series.js';
import { average } from './average.js';

/** What a family calls the figure, beside the child's name ("Zofia – średnia: Matematyka"). */
const WORDS: Record<Language, string> = { pl: 'średnia', en: 'average', uk: 'середній бал' };

/** What the averages are made of, the semester aside (each day has its own); `slugs` the subjects' keys as their sensors have them. */
export interface AveragesYearInput {
  input: Omit<AverageInput, 'semester'>;
  slugs: Readonly<Record<string, string>>;
}

/** The overall average's series, then each subject's in its key's order. */
export function averagesYear({ input, slugs }: AveragesYearInput, span: YearSpan, language: Language): DaySeries[] {
  const dayOfGrade = recordDay(span.today);
  const days = dayByDay(new Set(input.grades.map(dayOfGrade)), span, (day, semester) => {
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
    return { overall: value.overall === null ? null : round2(value.overall), subjects: bySubject };
  });
  const overall: Record<string, number> = {};
  const subjects = new Map<string, { name: string; days: Record<string, number> }>();
  for (const { day, figure } of days) {
    if (figure.overall !== null) overall[day] = figure.overall;
    for (const [slug, s] of figure.subjects) {
      const series = subjects.get(slug) ?? { name: s.name, days: {} };
      series.name = s.name;
      series.days[day] = s.average;
      subjects.set(slug, series);
    }
  }
  const word = WORDS[language];
  const out: DaySeries[] = [];
  if (Object.keys(overall).length > 0) out.push({ key: average.key, label: word, unit: null, days: overall });
  for (const [slug, s] of [...subjects].sort(([a], [b]) => (a < b ? -1 : 1)))
    out.push({ key: `${average.key}_${slug}`, label: `${word}: ${s.name}`, unit: null, days: s.days });
  return out;
}
