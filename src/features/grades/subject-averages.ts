// The grades feature's per-subject side: one average_<subject> sensor per subject graded this school
// year (its keys remembered in data_dir so they never move), each with its grades of every kind, and
// grade_at_risk. Both render the one `averages()` value the overall `average` is rendered from.
import { emptySubject, neededForNext, type Averages, type PointPercentage, type SubjectAverage, round2 } from '../../rules/averages.js';
import { assignSlugs } from '../../rules/subject-slugs.js';
import { textCompare } from '../../rules/order.js';
import * as z from 'zod';
import { LoginFile, peekStored } from '../../util/stored.js';
import { binary, sensor, type EntityDef } from '../kit/entities.js';
import { onOff, withAttributes } from '../kit/render.js';
import { shape, type PublishedAs } from '../kit/contract.js';
import type { Logger } from '../../util/log.js';
import { newestFirst, type GradeItem } from '../../rules/grade-item.js';
import { cut } from '../../rules/notices.js';
import { forecastGrade, subjectForecast } from './forecast.js';
import type { SchoolAverage } from '../../portal/schemas/grades.js';
import { GRADES, POINT_GRADES } from '../../engine/resources/grades.js';

/** The attributes of grade_at_risk: the first threshold and the subjects below it. */
export type GradeAtRiskFacts = { threshold: number; subjects: { subject: string; average: number }[] };

/** The first semester's figures, kept beside the second's: an average, or a subject graded in points only, its percentage. */
export type PreviousSemester = { semester: 1; average?: number | null; percent?: number | null; count: number };

/**
 * The attributes of an average_<subject>: the semester (always its number), its grades of every kind
 * (newest first, with the teacher and the comment), the year's term grades as written (`semester_grade`,
 * `final_grade`, the proposals), in the second semester the first one's figures, what the next threshold
 * needs, and the forecast (forecast.ts). A subject graded in points has `percent` (earned over possible
 * points, weighted); graded in points only, that percentage is its state, and it has no forecast.
 */
export type SubjectAverageFacts = ReturnType<typeof renderSubjectAverage | typeof renderPointsAverage>['attributes'];

/**
 * What the per-subject sensors and grade_at_risk show of the grades' view: the semester's averages and what they are
 * rendered with, the school's own averages (if any); `gradesKnown`: the grades list was read (whether a grade is at
 * risk is unknown without it).
 */
export type SubjectsView = { semester: Averages; grading: Grading; school: readonly SchoolAverage[] | undefined; gradesKnown: boolean };

/** What the averages are rendered with beside them: the thresholds, the day the trend looks back from, each subject's grades listed. */
export interface Grading {
  thresholds: readonly number[];
  today: string;
  /** By subject id: its grades of every kind this semester, newest first (listedGrades). */
  listed: ReadonlyMap<string, ListedGrade[]>;
}

/** The longest grade or comment text in a list: a text grade is free words, and the list must keep its grades under the cap. */
const LISTED_TEXT_MAX = 200;

/** A grade's or a comment's text in a list, cut to LISTED_TEXT_MAX with an ellipsis. */
export const listedText = (text: string | null): string | null => (text === null ? null : cut(text, LISTED_TEXT_MAX));

/**
 * Each subject's grades of the semester, every kind, newest first (by day, then entry): a term grade is
 * no grade of the list (it has its own attribute), nor a record with nothing to show.
 */
export function listedGrades(items: readonly GradeItem[], semester: Averages['semester']): Map<string, ListedGrade[]> {
  const listed = new Map<string, ListedGrade[]>();
  const shown = items.filter((i) => i.subjectId !== undefined && i.shown !== null && i.semester === semester && i.details.period === undefined);
  for (const i of [...shown].sort((a, b) => textCompare(b.date ?? '', a.date ?? '') || newestFirst(a, b))) {
    const list = listed.get(i.subjectId as string) ?? [];
    listed.set(i.subjectId as string, list);
    list.push(listedGrade(i));
  }
  return listed;
}

/**
 * The subjects graded this school year: those the averages know (ordinary grades, points), then those graded only
 * in kinds that count in no average (descriptive, text): their sensor has no average, but their grades.
 */
export function gradedSubjects(year: Averages['year'], items: readonly GradeItem[]): Averages['year'] {
  const more = new Map<string, string | null>(year.map((s) => [s.subjectId, s.subject]));
  const others = items.filter((i) => i.subjectId !== undefined && i.shown !== null && !more.has(i.subjectId));
  for (const i of others) more.set(i.subjectId as string, i.subject);
  return [...year, ...[...more].slice(year.length).map(([subjectId, subject]) => ({ subjectId, subject, points: false }))];
}

/** One grade of a subject's list, as the register shows it: a text grade and a descriptive one too (they count in no average). */
const listedGrade = (i: GradeItem) => ({
  grade: listedText(i.shown),
  weight: i.weight,
  category: i.category,
  date: i.date,
  teacher: i.teacher,
  comment: listedText(i.comment),
  kind: i.kind === 'grade' ? ('standard' as const) : i.kind,
  // Beside its weight, a grade that counts toward no average says so (a mark, a category that does not count).
  ...(i.details.counts_to_average === false ? { counts_to_average: false as const } : {}),
});
export type ListedGrade = ReturnType<typeof listedGrade>;

export const gradeAtRisk = binary(
  'grade_at_risk',
  { en: 'Grade at risk', pl: 'Zagrożenie oceną', uk: 'Загроза незадовільної оцінки' },
  {
    deviceClass: 'problem',
    icon: 'mdi:alert-circle-outline',
    attributes: shape<GradeAtRiskFacts>(),
    module: [GRADES],
    state: ({ semester, gradesKnown, grading }: Pick<SubjectsView, 'semester' | 'gradesKnown' | 'grading'>) =>
      renderGradeAtRisk(gradesKnown ? semester : null, grading.thresholds),
  },
);

/**
 * The sensor of one subject; a subject the school left unnamed is named by its id; one graded in points only is a
 * percentage (one graded in points in the other semester only has no percentage this one).
 */
function subjectAverageEntity(slug: string, name: string | null, id: string, points = false) {
  return sensor(
    `average_${slug}`,
    { en: `Average – ${name ?? `subject ${id}`}`, pl: `Średnia – ${name ?? `przedmiot ${id}`}`, uk: `Середній бал – ${name ?? `предмет ${id}`}` },
    {
      icon: 'mdi:chart-line',
      stateClass: 'measurement',
      ...(points ? { unit: '%' } : {}),
      attributes: shape<SubjectAverageFacts>(),
      module: [GRADES, POINT_GRADES],
      state: ({ semester, grading, school }: SubjectsView) => {
        const percent = semester.points?.findLast((p) => p.subjectId === id);
        return points
          ? renderPointsAverage(percent ?? { subjectId: id, subject: name, percent: null, count: 0 }, semester, grading)
          : renderSubjectAverage(
              semester.subjects.findLast((s) => s.subjectId === id) ?? emptySubject(id, name),
              semester,
              grading,
              school?.findLast((a) => a.Subject === id),
              percent,
            );
      },
    },
  );
}

/** The keys of the per-subject averages among a child's entities (those of the 1-6 scale, not percentages), in their order. */
export function subjectAverageKeys(entities: readonly EntityDef[]): string[] {
  return entities.flatMap((e) => (e.key.startsWith('average_') && e.unit !== '%' ? [e.key] : []));
}

/** How the tables of docs/entities.md list the per-subject sensors. */
export const SUBJECT_AVERAGE_EXAMPLE: EntityDef = sensor(
  'average_<subject>',
  { en: 'Average – <subject>', pl: 'Średnia – <subject>', uk: 'Середній бал – <subject>' },
  { icon: 'mdi:chart-line', stateClass: 'measurement' },
);

const subjectsSchema = z.object({
  /** Every subject ever given a key, by subject id: its key never moves. */
  subjects: z.record(z.string(), z.object({ slug: z.string().regex(/^[a-z0-9_]+$/), name: z.string().nullable() })),
  /** The subjects graded this school year as last seen: the entities announced. */
  present: z.array(z.string()),
  /** Those of them graded in points only (their sensor is a percentage); absent in a file written before points had sensors. */
  points: z.array(z.string()).default([]),
  /** Each subject's forecast as last read (null: none), by subject id: what `forecast_changed` compares; absent before it was. */
  forecasts: z.record(z.string(), z.string().nullable()).default({}),
});
type KeptSubjects = z.output<typeof subjectsSchema>;

/** What a `forecast_changed` event carries (interface 15.2): the subject, its forecast before and now, its average now. */
export type ForecastChangedPayload = { subject: string; previous: string; forecast: string; average: number };

/** The per-subject entities of one child: which subjects, under which keys, kept in data_dir. */
export class SubjectEntities {
  private kept: KeptSubjects = { subjects: {}, present: [], points: [], forecasts: {} };
  private readonly file: LoginFile<typeof subjectsSchema>;

  constructor(private readonly options: { dataDir: string; login: string; log: Logger }) {
    this.file = new LoginFile(options.dataDir, 'subjects', options.login, subjectsSchema);
  }

  async load(): Promise<void> {
    this.adopt(await this.file.load((error) => this.options.log.warn({ err: error.message }, 'subject keys unreadable; made again')));
  }

  /** The entities of the subjects as the last run saved them, read without moving anything (the `dashboard` command). */
  async saved(): Promise<EntityDef[]> {
    this.adopt(await peekStored(this.file.path, subjectsSchema));
    return this.entities();
  }

  private adopt(saved: KeptSubjects | undefined): void {
    // Spread: a subject id such as __proto__ stays a plain key.
    const subjects: KeptSubjects['subjects'] = { ...saved?.subjects };
    const present = (saved?.present ?? []).filter((id) => Object.hasOwn(subjects, id));
    this.kept = { subjects, present, points: (saved?.points ?? []).filter((id) => present.includes(id)), forecasts: { ...saved?.forecasts } };
  }

  /**
   * The subjects graded this year now, their keys given (and saved) when new or renamed, and each subject's forecast
   * by `thresholds`: those whose forecast moved from one grade to another since the last read (none at a subject's
   * first: a new install, or a new semester's first grade after none, is no change).
   */
  async update(year: Averages['year'], graded: Averages['subjects'], thresholds: readonly number[]): Promise<ForecastChangedPayload[]> {
    const forecasts = Object.fromEntries(graded.map((s) => [s.subjectId, forecastGrade(s.average, thresholds)]));
    const changed = graded.flatMap((s): ForecastChangedPayload[] => {
      const [previous, forecast] = [this.kept.forecasts[s.subjectId], forecasts[s.subjectId]];
      if (previous == null || forecast == null || previous === forecast || s.average === null) return [];
      return [{ subject: s.subject ?? s.subjectId, previous, forecast, average: round2(s.average) }];
    });
    const remembered = Object.fromEntries(Object.entries(this.kept.subjects).map(([id, r]) => [id, r.slug]));
    const slugs = assignSlugs(
      year.map((s) => ({ id: s.subjectId, name: s.subject })),
      remembered,
    );
    const subjects = { ...this.kept.subjects };
    for (const s of year) subjects[s.subjectId] = { slug: slugs.get(s.subjectId) as string, name: s.subject };
    const next: KeptSubjects = {
      subjects,
      present: year.map((s) => s.subjectId).sort(),
      points: year
        .filter((s) => s.points)
        .map((s) => s.subjectId)
        .sort(),
      forecasts,
    };
    if (JSON.stringify(next) === JSON.stringify(this.kept)) return changed;
    this.kept = next;
    await this.file.save(next).catch((error: Error) => this.options.log.warn({ err: error.message }, 'cannot write the subject keys in data_dir'));
    return changed;
  }

  /** Each subject's key by its id, as its sensor has it (`average_<slug>`): every subject given one. */
  slugs(): Record<string, string> {
    return Object.fromEntries(Object.entries(this.kept.subjects).map(([id, r]) => [id, r.slug]));
  }

  /** The entities of the subjects present, in subject-name order: each makes its state of the semester's averages (SubjectsView). */
  entities() {
    return this.present().map(({ id, slug, name, points }) => subjectAverageEntity(slug, name, id, points));
  }

  private present(): { id: string; slug: string; name: string | null; points: boolean }[] {
    return this.kept.present
      .flatMap((id) => {
        const r = this.kept.subjects[id];
        return r ? [{ id, ...r, points: this.kept.points.includes(id) }] : [];
      })
      .sort((a, b) => textCompare(a.slug, b.slug));
  }
}

/**
 * The school's own averages of a subject (live-notes 12) as attributes: what the parent sees in the
 * portal's app. 0 means none yet, so it is left out, as is anything not a number.
 */
export function schoolAverageAttributes(school: SchoolAverage | undefined): Record<string, number> {
  const figures = { school_semester1: school?.Semester1, school_semester2: school?.Semester2, school_year: school?.FullYear };
  return Object.fromEntries(Object.entries(figures).flatMap(([key, value]) => (value !== undefined && value > 0 ? [[key, round2(value)]] : [])));
}

/** The school's own average of one semester as `{school: n}`, or nothing when it has none yet. */
export function schoolSemesterAverage(school: SchoolAverage | undefined, semester: 1 | 2): { school?: number } {
  const value = semester === 1 ? school?.Semester1 : school?.Semester2;
  return value !== undefined && value > 0 ? { school: round2(value) } : {};
}

/**
 * average_<subject>: its average with 2 decimals, its grades of every kind (newest first), the forecast;
 * with `percent` beside when the subject has point grades too.
 */
export function renderSubjectAverage(s: SubjectAverage, value: Averages, grading: Grading, school?: SchoolAverage, points?: PointPercentage) {
  const next = neededForNext(s, grading.thresholds, value.scale);
  return withAttributes(s.average === null ? null : round2(s.average).toFixed(2), {
    subject: s.subject ?? s.subjectId,
    semester: value.semester,
    count: s.count,
    grades: grading.listed.get(s.subjectId) ?? [],
    ...s.periods,
    ...previousSemester(s.previous),
    next_threshold: next.threshold,
    needed_for_next: next.grade,
    ...subjectForecast(s, grading.thresholds, grading.today),
    ...(points === undefined ? {} : { percent: points.percent }),
    ...schoolAverageAttributes(school),
  });
}

/** `previous_semester` of a subject or of `average`: the first semester's figure rounded as shown, or nothing in the first semester. */
export function previousSemester(previous: { average: number | null; count: number } | undefined): { previous_semester?: PreviousSemester } {
  if (previous === undefined) return {};
  return { previous_semester: { semester: 1, average: previous.average === null ? null : round2(previous.average), count: previous.count } };
}

/** `previous_semester` of a subject graded in points only: the first semester's percentage, when it had point grades. */
export function previousPoints(before: PointPercentage | undefined): { previous_semester?: PreviousSemester } {
  return before === undefined ? {} : { previous_semester: { semester: 1, percent: before.percent, count: before.count } };
}

/** average_<subject> of a subject graded in points only: the semester's percentage (spec 2.4), its point grades newest first. */
export function renderPointsAverage(p: PointPercentage, value: Averages, grading: Grading) {
  return withAttributes(p.percent === null ? null : p.percent.toFixed(1), {
    subject: p.subject ?? p.subjectId,
    semester: value.semester,
    count: p.count,
    grades: grading.listed.get(p.subjectId) ?? [],
    ...previousPoints(value.previous?.points?.find((b) => b.subjectId === p.subjectId)),
    next_threshold: null,
    needed_for_next: null,
    percent: p.percent,
  });
}

/** grade_at_risk: ON when a subject's average this semester is below the first threshold. */
export function renderGradeAtRisk(value: Averages | null, thresholds: readonly number[]): PublishedAs<GradeAtRiskFacts, 'ON' | 'OFF'> {
  // No grades list (refused, or never read): whether a grade is at risk is unknown, never OFF.
  if (value === null) return { state: null, attributes: {} };
  const first = thresholds[0] ?? 0;
  const risky = value.subjects.filter((s) => s.average !== null && round2(s.average) < first);
  return {
    ...onOff(risky.length > 0),
    attributes: {
      threshold: first,
      subjects: risky.map((s) => ({ subject: s.subject ?? s.subjectId, average: round2(s.average as number) })),
    },
  };
}
