// newest_grade, the grades feature's sensor of the newest grade: declared here with its render, which
// says what a mark that is no grade means ("0 (nie jest oceną)"), since a parent reads a bare 0 as a fail.
import type { Language } from '../../config/language.js';
import { sensor } from '../kit/entities.js';
import { shape, type PublishedAs } from '../kit/contract.js';
import { stateText, withAttributes } from '../kit/render.js';
import { DEFAULT_SCALE, type GradeScale } from '../../rules/averages.js';
import { collapse } from '../../rules/portal-values.js';
import type { GradeItem } from '../../rules/grade-item.js';
import { gradeFields, markOf, type GradeFields, type NewestGrades } from '../../rules/grades.js';
import { markName } from '../../i18n/school-words.js';
import { listedText } from './subject-averages.js';
import type { SubjectFigures } from './average.js';
import { DESCRIPTIVE_GRADES, GRADES, POINT_GRADES, TEXT_GRADES } from '../../engine/resources/grades.js';

/** Every kind of grade the newest grade and the grade events come from: the grades' module. */
export const GRADE_LISTS = [GRADES, POINT_GRADES, TEXT_GRADES, DESCRIPTIVE_GRADES];

/**
 * The attributes of newest_grade: the newest grade's fields and when it was entered (none before the
 * first grade), and the latest few grades with their teachers, comments and their subjects' forecasts (the
 * proposals apart, never among them). A mark that is no grade (0, +, np...) has `mark_name`, what it
 * means in the bridge's language.
 */
export type NewestGradeFacts = Partial<GradeFields> & {
  added?: string | null;
  mark_name?: string;
  recent: ReturnType<typeof recentGrade>[];
  /**
   * The semester's descriptive and text grades, newest first, with their teacher and comment (the screens list them
   * whole); undefined (left out of the published attributes) before the first grade.
   */
  described: ReturnType<typeof describedGrade>[] | undefined;
  /**
   * The proposed semester and final grades, newest first, each subject's newest of its kind, all of them (`period`:
   * semester_proposal or final_proposal); undefined (left out) before the first grade.
   */
  proposals: { grade: string | null; subject: string | null; period: 'semester_proposal' | 'final_proposal'; date: string | null }[] | undefined;
};

/** A descriptive or text grade of newest_grade's `described`: its words (cut to a list's length) and the teacher's comment. */
const describedGrade = (i: GradeItem) => ({
  grade: listedText(i.shown),
  subject: i.subject,
  kind: i.kind,
  date: i.date,
  teacher: i.teacher,
  /** The teacher's words, cut to a list's length (a text grade's `grade` too). */
  comment: listedText(i.comment),
});

/** One of the latest grades in newest_grade's `recent`: as a described grade, with what its mark means and its subject's forecast. */
const recentGrade = (i: GradeItem, mark: { mark_name: string | undefined }, forecast: string | null) => ({
  ...describedGrade(i),
  ...mark,
  /** The grade its subject's weighted average gives this semester, as `average`'s subjects say it; null when none. */
  forecast,
});

/** The wording of a mark that is no grade: in the family's language, by the school's scale. */
export type GradeWording = { language: Language; scale: GradeScale };

/** What newest_grade is made of in the grades' view: the newest grades, their wording, and `average` as shown (each subject's forecast). */
export type NewestView = {
  newest: NewestGrades;
  wording: GradeWording;
  averaged: { attributes: { subjects: readonly Pick<SubjectFigures, 'subject' | 'forecast'>[] } };
};

export const newestGrade = sensor(
  'newest_grade',
  { en: 'Newest grade', pl: 'Najnowsza ocena', uk: 'Остання оцінка' },
  {
    icon: 'mdi:school',
    attributes: shape<NewestGradeFacts>(),
    module: GRADE_LISTS,
    state: ({ newest, wording, averaged }: NewestView) => renderNewestGrade(newest, wording, averaged.attributes.subjects),
  },
);

/**
 * newest_grade: the newest grade's text (cut to fit a state) with its fields; `recent` lists the latest
 * few grades, each with the forecast of its subject among `average`'s `subjects` (the one place the screens
 * read it), a proposal never among them (it stands in `proposals`). A mark that is no grade says what it
 * means beside it, in the bridge's language and by the school's scale (whether it counts zeros); `grade`
 * keeps it as written, for automations.
 */
export function renderNewestGrade(
  { newest, recent, proposals, described }: NewestGrades,
  wording: GradeWording = { language: 'pl', scale: DEFAULT_SCALE },
  subjects: readonly Pick<SubjectFigures, 'subject' | 'forecast'>[] = [],
): PublishedAs<NewestGradeFacts> {
  if (newest === undefined) return { state: null, attributes: { recent: [], described: undefined, proposals: undefined } };
  // A grade's `mark_name` is undefined (left out of the published grade) where its mark is a grade.
  const named = (item: GradeItem): { mark_name: string | undefined } => {
    const code = markOf(item, wording.scale);
    return { mark_name: code === null ? undefined : markName(code, wording.language) };
  };
  const forecasts = new Map(subjects.map((s) => [s.subject, s.forecast ?? null]));
  const shown = collapse(newest.shown ?? undefined);
  const name = named(newest).mark_name;
  return withAttributes(stateText(shown !== undefined && name !== undefined ? `${shown} (${name})` : shown), {
    ...gradeFields(newest),
    ...named(newest),
    added: newest.added,
    recent: recent.map((i) => recentGrade(i, named(i), forecasts.get(i.subject ?? '') ?? null)),
    described: described.map(describedGrade),
    proposals: proposals.map((t) => ({
      grade: t.grade,
      subject: t.subject,
      period: t.period === 'final_proposal' ? 'final_proposal' : 'semester_proposal',
      date: t.date,
    })),
  });
}
