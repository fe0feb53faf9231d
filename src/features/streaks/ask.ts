// What Assist asks of the streaks (interface 17.1): the school days without a negative note. From the streaks' own view.
import type { Streaks } from './rules.js';
import { ASK_TEXT } from '../../i18n/ask-text.js';
import type { AskContext, AskPart, Told } from '../screens/ask.js';

/** What a pass keeps for Assist of the streaks: the runs, once every list they count is known; absent without notes to count. */
export type StreaksAsk = Pick<Streaks, 'daysWithoutNegativeNote'> & { absent: boolean };

function behaviour(facts: StreaksAsk, c: AskContext): Told[] {
  // An account without notes (a kindergarten's) has no run of days without a negative one.
  if (facts.absent) return [];
  const w = ASK_TEXT[c.language].behaviour;
  const days = facts.daysWithoutNegativeNote;
  return [{ title: w.streak, lines: days === null ? null : [w.withoutNegative(days)] }];
}

export const streaksAsk: AskPart<StreaksAsk> = { unknown: { daysWithoutNegativeNote: null, absent: false }, behaviour };
