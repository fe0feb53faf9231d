// What Assist asks of the sent box (interface 17.1): each message the child's account sent, to whom, when, and whether
// each receiver read it. From the sent box's own view.
import type { SentView } from '../../rules/sent-messages.js';
import { ASK_TEXT } from '../../i18n/ask-text.js';
import { BOARD_TEXT } from '../../i18n/board-text.js';
import { addDays } from '../../util/time.js';
import { dayShort } from '../screens/shown.js';
import { joinedFacts, type AskContext, type AskPart, type MessagesAsked, type Told } from '../screens/ask.js';

/** What a pass keeps for Assist of the sent box: every sent message, newest first; null while not read; absent without the module. */
export type SentAsk = { sent: readonly SentView[] | null; absent: boolean };

function messages(facts: SentAsk, asked: MessagesAsked, c: AskContext): Told[] {
  // The past years' sent messages are the messages' part, read from the archive.
  if (facts.absent || asked.archive) return [];
  const w = ASK_TEXT[c.language].messages;
  const text = BOARD_TEXT[c.language];
  const since = addDays(c.clock.today, 1 - asked.days);
  const told = facts.sent?.filter((m) => m.date === null || m.date.slice(0, 10) >= since);
  return [
    {
      title: w.sent,
      lines:
        told?.map((m) => {
          const date = m.date?.slice(0, 10) ?? null;
          const read = m.receivers.filter((r) => r.read).map((r) => r.name);
          const unread = m.receivers.filter((r) => !r.read).map((r) => r.name);
          return joinedFacts([
            date && `${dayShort(date, c.clock, text)} (${date})`,
            m.to.length > 0 ? `${w.to} ${m.to.join(', ')}` : null,
            `"${m.topic || w.untitled}"`,
            // Each receiver's reading is known once the message was opened; before, it is not known either way.
            m.receivers.length === 0 ? w.readNotKnown : null,
            read.length > 0 ? w.readBy(read.join(', ')) : null,
            unread.length > 0 ? w.notReadBy(unread.join(', ')) : null,
          ]);
        }) ?? null,
    },
  ];
}

export const sentAsk: AskPart<SentAsk> = { unknown: { sent: null, absent: false }, messages };
