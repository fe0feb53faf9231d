// What Assist asks of the opened message (interface 17.1): the message opened last, whole (open_message answers it),
// and its line among the messages. From the feature's own record of it.
import type { OpenedRecord } from '../messaging/opened.js';
import { ASK_TEXT } from '../../i18n/ask-text.js';
import { BOARD_TEXT } from '../../i18n/board-text.js';
import { dayShort } from '../screens/shown.js';
import { joinedFacts, type AskContext, type AskPart, type Told } from '../screens/ask.js';

/** What the feature keeps for Assist: the message opened last (none before the first). */
export type OpenedAsk = { record: OpenedRecord | undefined };

function heading(r: OpenedRecord, c: AskContext): string {
  const w = ASK_TEXT[c.language].messages;
  const date = r.date?.slice(0, 10) ?? null;
  return joinedFacts([
    `id ${r.message_id}`,
    `"${r.topic ?? w.untitled}"`,
    r.sender && `${w.from} ${r.sender}`,
    date && `${dayShort(date, c.clock, BOARD_TEXT[c.language])} (${date})`,
    r.withdrawn ? w.withdrawn : null,
  ]);
}

/** Its attachments by their files' names: "załączniki: plan.pdf, zgoda.docx"; null when none is attached. */
function files(r: OpenedRecord, c: AskContext): string | null {
  return r.attachments.length === 0 ? null : `${ASK_TEXT[c.language].messages.attachments}: ${r.attachments.map((a) => a.name).join(', ')}`;
}

function messages(facts: OpenedAsk, _asked: { days: number }, c: AskContext): Told[] {
  const r = facts.record;
  return r === undefined ? [] : [{ title: ASK_TEXT[c.language].messages.opened, lines: [joinedFacts([heading(r, c), files(r, c)])] }];
}

function opened(facts: OpenedAsk, c: AskContext): string | null {
  const r = facts.record;
  if (r === undefined) return null;
  const attached = files(r, c);
  return [`${ASK_TEXT[c.language].messages.message} ${heading(r, c)}`, ...(attached === null ? [] : [attached]), '', r.text].join('\n');
}

export const openedAsk: AskPart<OpenedAsk> = { unknown: { record: undefined }, messages, opened };
