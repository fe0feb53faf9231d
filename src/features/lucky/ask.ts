// What Assist asks of the lucky number (interface 17.1): the number of its day and whether it is the child's. From
// the lucky number's own view of the day.
import type { LuckyToday } from './rules.js';
import { ASK_TEXT } from '../../i18n/ask-text.js';
import { BOARD_TEXT } from '../../i18n/board-text.js';
import { dayShort } from '../screens/shown.js';
import type { AskContext, AskPart, Told } from '../screens/ask.js';

/** What a pass keeps for Assist of the lucky number: the day's, as the screens tell it. */
export type LuckyAsk = LuckyToday;

function school(facts: LuckyAsk, c: AskContext): Told[] {
  // A school without the lucky number: nothing to tell.
  if (!facts.inUse) return [];
  const w = ASK_TEXT[c.language].school;
  const title = facts.day === null ? w.luckyNumber : w.lucky(`${dayShort(facts.day, c.clock, BOARD_TEXT[c.language])} (${facts.day})`);
  return [{ title, lines: facts.number === null ? null : [`${facts.number}${facts.mine ? ` — ${w.luckyHers(c.name)}` : ''}`] }];
}

export const luckyAsk: AskPart<LuckyAsk> = {
  // Not read yet: whether the school runs it is not known either, and said so.
  unknown: { inUse: true, number: null, day: null, registerNumber: null, mine: false, mineToday: false },
  school,
};
