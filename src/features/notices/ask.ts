// What Assist asks of the announcements (interface 17.1): each with its day, whether it was read, its subject and its
// text. From the notices' own view of every announcement.
import type { NoticeSummary } from '../../rules/notices.js';
import { cut } from '../../rules/notices.js';
import { ASK_TEXT } from '../../i18n/ask-text.js';
import { BOARD_TEXT } from '../../i18n/board-text.js';
import { addDays } from '../../util/time.js';
import { dayShort, spaced } from '../screens/shown.js';
import { joinedFacts, type AskContext, type AskPart, type MessagesAsked, type Told } from '../screens/ask.js';

/** What a pass keeps for Assist of the announcements: every one, newest first; null while they are not known. */
export type NoticesAsk = { notices: readonly NoticeSummary[] | null };

/** An announcement's text as told: the whole of a usual one, a pasted document cut. */
const TEXT_MAX = 2000;

function messages(facts: NoticesAsk, asked: MessagesAsked, c: AskContext): Told[] {
  // The archive keeps messages, not announcements.
  if (asked.archive) return [];
  const w = ASK_TEXT[c.language].messages;
  const text = BOARD_TEXT[c.language];
  const since = addDays(c.clock.today, 1 - asked.days);
  // An announcement of the last days, or one still unread.
  const told = facts.notices?.filter((n) => !n.read || n.day === '' || n.day >= since);
  return [
    {
      title: w.notices,
      lines:
        told?.map((n) => {
          const body = spaced(n.content);
          return (
            joinedFacts([
              n.day === '' ? null : `${dayShort(n.day, c.clock, text)} (${n.day})`,
              n.read ? w.read : w.unread,
              `"${spaced(n.subject) ?? w.untitled}"`,
            ]) + (body ? `: ${cut(body, TEXT_MAX)}` : '')
          );
        }) ?? null,
    },
  ];
}

export const noticesAsk: AskPart<NoticesAsk> = { unknown: { notices: null }, messages };
