// The grades on a child's card: the newest few, each with its teacher, a mark that is no grade with what it
// means (a bare 0 reads as a fail), a text grade in its words, the teacher's comment and its subject's
// forecast (as newest_grade publishes them), marked fresh while of the last days; a proposed term grade of this
// week, apart from the grades (newest_grade's `proposals`).
import type { Received } from '../kit/contract.js';
import { newestGrade } from './newest.js';
import type { BoardText } from '../../i18n/board-text.js';
import { addDays } from '../../util/time.js';
import { isNewsOn } from '../../rules/term-grades.js';
import type { BoardGrade, BoardPart, BoardProposal } from '../screens/parts.js';
import { cut, dayShort, initialled, known, list, str, type BoardMoment } from '../screens/shown.js';

const MAX_GRADES = 5;
/** A grade is a short mark (a proposal's too); a text grade and a comment, a line of the card. */
const MAX_GRADE_CHARS = 12;
const MAX_LINE_CHARS = 80;
/** How long a grade is news: the days a parent may not have looked at the board (a long weekend). */
const FRESH_DAYS = 4;

function gradesOf(state: Received<typeof newestGrade> | undefined, clock: BoardMoment, text: BoardText): BoardGrade[] {
  const since = addDays(clock.today, 1 - FRESH_DAYS);
  const recent = list(state?.attributes?.recent).slice(0, MAX_GRADES);
  // Then the semester's descriptive and text grades not among them, so that each stands on the board (in its "more").
  const seen = new Set(recent.map((g) => `${str(g.subject)}|${str(g.date)}|${str(g.grade)}`));
  const described = list(state?.attributes?.described).filter((g) => !seen.has(`${str(g.subject)}|${str(g.date)}|${str(g.grade)}`));
  return [...recent, ...described.map((g) => ({ ...g, forecast: null, mark_name: null }))].flatMap((g) => {
    const textGrade = g.kind === 'text';
    const grade = cut(str(g.grade), textGrade ? MAX_LINE_CHARS : MAX_GRADE_CHARS);
    const [date, forecast] = [str(g.date), str(g.forecast)];
    if (grade === null) return [];
    return [
      {
        grade,
        name: str(g.mark_name),
        subject: str(g.subject),
        teacher: initialled(str(g.teacher)),
        text: textGrade,
        comment: cut(str(g.comment), MAX_LINE_CHARS),
        forecast: forecast === null ? null : text.forecast(forecast),
        when: date === null ? '' : dayShort(date, clock, text),
        fresh: date !== null && date >= since,
      },
    ];
  });
}

/** The proposals that are news (isNewsOn: of the last 7 days), newest first, as the briefing tells them. */
function proposalsOf(state: Received<typeof newestGrade> | undefined, clock: BoardMoment, text: BoardText): BoardProposal[] {
  return list(state?.attributes?.proposals).flatMap((p) => {
    const grade = cut(str(p.grade), MAX_GRADE_CHARS);
    const date = str(p.date);
    if (grade === null || date === null || !isNewsOn(date, clock.today)) return [];
    const what = p.period === 'final_proposal' ? text.proposal.final_proposal : text.proposal.semester_proposal;
    return [{ grade, subject: str(p.subject), what, when: dayShort(date, clock, text) }];
  });
}

/** The grades' box: the proposals of this week, then the newest grades; no box while neither is known. */
export const gradesBoard: BoardPart = ({ state, clock, text }) => {
  const proposals = proposalsOf(state(newestGrade), clock, text);
  return { proposals, grades: known(state(newestGrade)) || proposals.length > 0 ? gradesOf(state(newestGrade), clock, text) : null };
};
