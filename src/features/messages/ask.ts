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
import { joinedFacts, type AskContext, type AskPart, type MessagesAsked, type ReachAsked, type Told } from '../screens/ask.js';
import type { MessageItem } from '../../portal/schemas/messages.js';
import type { SentItem } from '../../portal/schemas/sent-box.js';
import { want, type Want } from '../../engine/resource.js';
import { ARCHIVED_INBOX, ARCHIVED_SENT } from './resources.js';

/** The archive of past school years as read on demand: each list as the portal gave it, null where its read failed. */
export interface ArchivedMessages {
  received: readonly MessageItem[] | null;
  sent: readonly SentItem[] | null;
}

/**
 * What a pass keeps for Assist of the messages: each watched mailbox's list, null while not read; the archive once
 * asked for (null before); `absent` without the messages module.
 */
export interface MessagesAsk {
  listed: ListedMessages | null;
  archive: ArchivedMessages | null;
  absent: boolean;
}

/** A day as a message's line names it: "wt. 12.05 (2026-05-12)". */
function dayOf(sendDate: string | null | undefined, c: AskContext): string | null {
  const date = messageDate(sendDate ?? undefined)?.slice(0, 10) ?? null;
  return date && `${dayShort(date, c.clock, BOARD_TEXT[c.language])} (${date})`;
}

function messages(facts: MessagesAsk, asked: MessagesAsked, c: AskContext): Told[] {
  const w = ASK_TEXT[c.language].messages;
  if (facts.absent) return [{ title: asked.archive ? w.archive : w.messages(asked.days), lines: [w.noModule] }];
  if (asked.archive) return archived(facts.archive, c);
  if (facts.listed === null) return [{ title: w.messages(asked.days), lines: null }];
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
          dayOf(m.sendDate, c),
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

/** The archive's messages, received (with a preview) and sent; unknown where the school could not be asked. */
function archived(archive: ArchivedMessages | null, c: AskContext): Told[] {
  const w = ASK_TEXT[c.language].messages;
  const received = archive?.received?.map(
    (m) =>
      joinedFacts([dayOf(m.sendDate, c), m.sender && `${w.from} ${m.sender}`, `"${collapse(m.topic) ?? w.untitled}"`]) +
      (decodePreview(m.content) ? `: ${decodePreview(m.content)}` : ''),
  );
  const sent = archive?.sent?.map((m) => joinedFacts([dayOf(m.sendDate, c), m.to && `${w.to} ${m.to}`, `"${collapse(m.topic) ?? w.untitled}"`]));
  return [
    { title: w.archive, lines: received ?? null },
    { title: w.archiveSent, lines: sent ?? null },
  ];
}

/** get_messages with archive: the archive's two lists, read on demand (interface 18.2). */
function reach(facts: MessagesAsk, asked: ReachAsked): Want[] {
  if (asked.tool !== 'messages' || !asked.archive || facts.absent) return [];
  return [want(ARCHIVED_INBOX, undefined, { onDemand: true }), want(ARCHIVED_SENT, undefined, { onDemand: true })];
}

export const messagesAsk: AskPart<MessagesAsk> = { unknown: { listed: null, archive: null, absent: false }, messages, reach };
