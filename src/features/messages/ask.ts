// What Assist asks of the messages (interface 17.1): the messages of the last days the bridge listed, read and unread,
// each with its id (open_message opens it), sender, subject, date and preview. From the messages' own view: the
// mailboxes' lists as the portal gave them.
import type { ListedMessages } from '../messaging/opened.js';
import { decodePreview, messageDate, sortMessages } from '../../rules/messages.js';
import { collapse } from '../../rules/portal-values.js';
import { mailboxName } from '../../i18n/school-words.js';
import { ASK_TEXT } from '../../i18n/ask-text.js';
import { BOARD_TEXT } from '../../i18n/board-text.js';
import { addDays } from '../../util/time.js';
import { dayShort } from '../screens/shown.js';
import { joinedFacts, type AskContext, type AskPart, type Told } from '../screens/ask.js';

/** What a pass keeps for Assist of the messages: each watched mailbox's list; absent without the messages module. */
export type MessagesAsk = { listed: ListedMessages | null } | { absent: true };

function messages(facts: MessagesAsk, asked: { days: number }, c: AskContext): Told[] {
  const w = ASK_TEXT[c.language].messages;
  if ('absent' in facts) return [{ title: w.messages(asked.days), lines: [w.noModule] }];
  if (facts.listed === null) return [{ title: w.messages(asked.days), lines: null }];
  const text = BOARD_TEXT[c.language];
  const since = addDays(c.clock.today, 1 - asked.days);
  const all = facts.listed.flatMap(({ mailbox, items }) => items.map((m) => ({ ...m, mailbox })));
  const lines = sortMessages(all).flatMap((m) => {
    const date = messageDate(m.sendDate)?.slice(0, 10) ?? null;
    if (date !== null && date < since) return [];
    const preview = decodePreview(m.content);
    return [
      `id ${m.id}: ` +
        joinedFacts([
          m.read ? w.read : w.unread,
          date && `${dayShort(date, c.clock, text)} (${date})`,
          m.mailbox === 'inbox' ? null : mailboxName(m.mailbox, c.language),
          m.sender && `${w.from} ${m.sender}`,
          `"${collapse(m.topic) ?? w.untitled}"`,
        ]) +
        (preview ? `: ${preview}` : '') +
        // The list says only that files are attached; open_message names them.
        (m.hasAttachments ? ` — ${w.withAttachments}` : ''),
    ];
  });
  return [{ title: w.messages(asked.days), lines }];
}

export const messagesAsk: AskPart<MessagesAsk> = { unknown: { listed: null }, messages };
