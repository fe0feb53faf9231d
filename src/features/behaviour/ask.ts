// What Assist asks of the behaviour grade (interface 17.1): the semester's and the year's, proposed or given, or a
// points school's points. From the behaviour's own view.
import type { Behaviour, BehaviourMark } from '../../rules/behaviour.js';
import { ASK_TEXT } from '../../i18n/ask-text.js';
import { joinedFacts, type AskContext, type AskPart, type Told } from '../screens/ask.js';

/** What a pass keeps for Assist of the behaviour's view: null while the grades' behaviour list is not known; absent where refused. */
export type BehaviourAsk = { view: Behaviour | null; absent: boolean };

function behaviour(facts: BehaviourAsk, c: AskContext): Told[] {
  const w = ASK_TEXT[c.language];
  if (facts.absent) return [];
  const v = facts.view;
  const mark = (m: BehaviourMark, what: string) => joinedFacts([`${what}: ${m.grade}`, m.date, m.teacher && `${w.common.teacher}: ${m.teacher}`]);
  const g = w.grades.periods;
  const marks =
    v === null
      ? null
      : [
          v.semesterProposal && mark(v.semesterProposal, g.semester_proposal),
          v.semester && mark(v.semester, g.semester),
          v.finalProposal && mark(v.finalProposal, g.final_proposal),
          v.final && mark(v.final, g.final),
          v.points === null ? null : `${w.behaviour.points}: ${v.points}`,
        ].filter((l): l is string => typeof l === 'string');
  return [{ title: w.behaviour.grade, lines: marks }];
}

export const behaviourAsk: AskPart<BehaviourAsk> = { unknown: { view: null, absent: false }, behaviour };
