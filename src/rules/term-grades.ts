// The year's term grades, proposed and given (a semester's, the year's), one list for every screen: each subject's
// newest of each kind, so that a proposal the teacher replaced stands once, as its newest, and nothing caps the list.
// The averages' subjects (`semester_proposal`, `semester_grade`...) and newest_grade's `proposals` both come from it.
import { newestFirst, type GradeItem } from './grade-item.js';
import type { GradePeriod } from './grades-standard.js';
import { addDays } from '../util/time.js';

/** One term grade: a subject's newest of its kind (`period`), as written. */
export interface TermGrade {
  /** The grade's key (`grade:<id>`). */
  key: string;
  /** The portal's subject id; none when the record names no subject (it stands alone, in no subject's row). */
  subjectId: string | undefined;
  subject: string | null;
  period: GradePeriod;
  grade: string;
  date: string | null;
  teacher: string | null;
}

/** How long a proposed term grade is news: a week from its day. */
const NEWS_DAYS = 7;

/**
 * Whether a term grade of `date` is news on `today`: given in the last 7 days, today's included. The proposals the board
 * stands apart and the briefing tells are those (a family hears of them before the term ends).
 */
export function isNewsOn(date: string | null, today: string): boolean {
  return date !== null && date <= today && date >= addDays(today, 1 - NEWS_DAYS);
}

/** Whether a term grade is only proposed (a semester's or the year's proposal). */
export const isProposal = (t: Pick<TermGrade, 'period'>): boolean => t.period === 'semester_proposal' || t.period === 'final_proposal';

/**
 * Every subject's newest term grade of each kind, the year's whichever semester it was entered in, newest first.
 * A record with nothing to show is none; a later one of the same subject and kind replaces an earlier.
 */
export function termGrades(items: readonly GradeItem[]): TermGrade[] {
  const newest = new Map<string, TermGrade>();
  for (const i of [...items].sort(newestFirst)) {
    const period = i.details.period as GradePeriod | undefined;
    if (period === undefined || i.shown === null) continue;
    const at = `${i.subjectId ?? i.subject ?? i.key}\u0000${period}`;
    if (newest.has(at)) continue;
    newest.set(at, { key: i.key, subjectId: i.subjectId, subject: i.subject, period, grade: i.shown, date: i.date, teacher: i.teacher });
  }
  return [...newest.values()];
}
