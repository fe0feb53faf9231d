// What Assist asks of the grades (interface 17.1): the grades of the last days, or the newest ten, or a subject's of
// the semester, each with its day, category, weight, teacher, comment, whether it counts and which grade it corrects;
// the averages with the forecast and what the next grade needs; the term grades, proposed and given. From the grades'
// own view: every grade of the year as an item, the term grades, the averages as `average` renders them.
import type { GradeItem } from '../../rules/grade-item.js';
import type { TermGrade } from '../../rules/term-grades.js';
import type { Semester } from '../../rules/semester.js';
import type { renderAverage, SubjectFigures } from './average.js';
import { ASK_TEXT } from '../../i18n/ask-text.js';
import { spokenNumber } from '../../i18n/numbers.js';
import { BOARD_TEXT } from '../../i18n/board-text.js';
import { addDays } from '../../util/time.js';
import { dayShort, spaced } from '../screens/shown.js';
import { AskRefusal, joinedFacts, named, type AskContext, type AskPart, type GradesAsked, type Told } from '../screens/ask.js';

/** What a pass keeps for Assist of the grades' view; `items` null while the grades were never read, absent where the account has none. */
export interface GradesAsk {
  /** Every grade of the school year, of every kind, newest first (gradeItems). */
  items: readonly GradeItem[] | null;
  /** The year's term grades, proposed and given (termGrades). */
  terms: readonly TermGrade[];
  /** The semester's averages as the `average` sensor renders them (renderAverage): each subject's, its forecast, what the next grade needs. */
  averaged: ReturnType<typeof renderAverage> | null;
  semester: Semester;
  /** The portal refuses the child's account the grades (a kindergarten): nothing to tell. */
  absent: boolean;
}

/**
 * A grade of the lists, not a term grade nor its proposal (`period`): those stand under the term grades, each named by
 * its kind ("proponowana śródroczna: 6"), never among the grades as one more.
 */
const plain = (i: GradeItem): boolean => i.details.period === undefined;

/** The newest grades told when neither a subject nor days are asked. */
const NEWEST = 10;

function gradeLine(g: GradeItem, all: readonly GradeItem[], c: AskContext, withSubject: boolean): string {
  const w = ASK_TEXT[c.language].grades;
  const text = BOARD_TEXT[c.language];
  const day = (date: string | null) => (date === null ? null : `${dayShort(date, c.clock, text)} (${date})`);
  const kind = w.kinds[g.kind];
  const name = typeof g.details.name === 'string' ? g.details.name : null;
  const improves = typeof g.details.improves === 'string' ? g.details.improves : null;
  const corrected = improves === null ? undefined : all.find((i) => i.key === improves);
  return joinedFacts([
    day(g.date),
    withSubject ? g.subject : null,
    joinedFacts([g.shown, name && `(${name})`, kind && `[${kind}]`], ' '),
    g.category && `${w.category}: ${g.category}`,
    g.weight === null ? null : `${w.weight}: ${spokenNumber(g.weight, c.language)}`,
    g.teacher && `${ASK_TEXT[c.language].common.teacher}: ${g.teacher}`,
    g.comment && `${w.comment}: ${spaced(g.comment)}`,
    g.details.counts_to_average === false ? w.notCounted : null,
    improves === null ? null : corrected?.shown ? w.corrects(corrected.shown, corrected.date ?? '?') : w.correctsUnknown,
  ]);
}

/** A subject's figures: its average (unknown said so), the forecast, what the next grade needs, its term grades. */
function figures(s: SubjectFigures, terms: readonly TermGrade[], c: AskContext): string {
  const w = ASK_TEXT[c.language];
  const g = w.grades;
  const average = s.average === null ? w.common.unknown : spokenNumber(s.average, c.language);
  const next =
    s.needed_for_next != null && s.next_threshold != null
      ? g.needed(s.needed_for_next, spokenNumber(s.next_threshold, c.language))
      : s.next_threshold === null && s.average !== null
        ? g.atTop
        : null;
  return joinedFacts([
    `${g.average}: ${average}`,
    s.percent != null ? `${spokenNumber(s.percent, c.language)}%` : null,
    s.forecast != null ? `${g.forecast}: ${s.forecast}` : null,
    next,
    ...termsOf(terms, s.subject, c),
  ]);
}

function termsOf(terms: readonly TermGrade[], subject: string | null, c: AskContext): string[] {
  const g = ASK_TEXT[c.language].grades;
  return terms.filter((t) => t.subject === subject).map((t) => `${g.periods[t.period]}: ${t.grade}`);
}

function grades(facts: GradesAsk, asked: GradesAsked, c: AskContext): Told[] {
  const w = ASK_TEXT[c.language];
  const g = w.grades;
  if (facts.absent) return [];
  const items = facts.items;
  const subjects = facts.averaged?.attributes.subjects ?? [];
  const since = asked.days === null ? null : addDays(c.clock.today, 1 - asked.days);
  if (asked.subject !== null) {
    const names = [...new Set([...subjects.map((s) => s.subject), ...(items ?? []).flatMap((i) => i.subject ?? [])])];
    const subject = named(asked.subject, names, (s) => s);
    if (subject === undefined) {
      if (items === null) return [{ title: g.grades, lines: null }];
      throw new AskRefusal(g.noSubject(asked.subject, names));
    }
    const own = (items ?? []).filter(
      (i) => plain(i) && i.subject === subject && (since === null ? i.semester === facts.semester : (i.date ?? '') >= since),
    );
    const figured = subjects.find((s) => s.subject === subject);
    return [
      {
        title: `${g.grades}: ${subject}${since === null ? '' : ` ${ASK_TEXT[c.language].attendance.ofDays(asked.days as number)}`}`,
        lines: items === null ? null : own.map((i) => gradeLine(i, items, c, false)),
      },
      {
        title: g.averages,
        lines: figured === undefined ? (items === null ? null : termsOf(facts.terms, subject, c)) : [figures(figured, facts.terms, c)],
      },
    ];
  }
  const shown =
    items === null ? null : since === null ? items.filter(plain).slice(0, NEWEST) : items.filter((i) => plain(i) && (i.date ?? '') >= since);
  const overall = facts.averaged?.state ?? null;
  return [
    {
      title: since === null ? g.recent : g.ofDays(asked.days as number),
      lines: shown === null || items === null ? null : shown.map((i) => gradeLine(i, items, c, true)),
    },
    // Descriptive grades only (a first grader's) make no average: neither the overall nor a list of subjects' is told.
    ...(items !== null && subjects.length === 0
      ? []
      : [
          { title: g.overall, lines: items === null ? null : [overall === null ? w.common.unknown : spokenNumber(overall, c.language)] },
          { title: g.averages, lines: items === null ? null : subjects.map((s) => `${s.subject}: ${figures(s, facts.terms, c)}`) },
        ]),
    {
      title: g.termGrades,
      lines: items === null ? null : facts.terms.map((t) => joinedFacts([t.subject, `${g.periods[t.period]}: ${t.grade}`, t.date, t.teacher])),
    },
  ];
}

export const gradesAsk: AskPart<GradesAsk> = { unknown: { items: null, terms: [], averaged: null, semester: 1, absent: false }, grades };
