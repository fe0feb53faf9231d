// A child's messages on the board: the unread inbox messages, newest first (sender, topic, day), and the
// message last opened through the bridge, its text cut for a wall and its attachments with their web
// server paths. Read leniently from the published states, like the rest of the board.
import type { Received } from '../kit/contract.js';
import { newestMessage, unreadMessages } from './entities.js';
import { openedMessageEntity } from '../opened-message/opened-message.js';
import type { BoardText } from '../../i18n/board-text.js';
import { wallTime } from '../../util/time.js';
import { boardCount, type BoardMessages, type BoardPart } from '../screens/parts.js';
import { dayShort, list, savedFiles, str, type BoardMoment } from '../screens/shown.js';

/** The wall shows the start of a message; the whole is in the dashboard and the portal. */
const MAX_TEXT_CHARS = 600;
/** As many as the bridge lists of the inbox: the card shows what fits and counts the rest. */
const MAX_UNREAD = 10;

function sentOn(iso: string | null, clock: BoardMoment, text: BoardText): string | null {
  const at = iso === null ? NaN : Date.parse(iso);
  return Number.isFinite(at) ? dayShort(wallTime(at).date, clock, text) : null;
}

/** The text's paragraphs kept, blank lines and runs of spaces folded, cut with "…". */
function wallText(value: string | null): string {
  const folded = (value ?? '')
    .replace(/[ \t]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
  return folded.length <= MAX_TEXT_CHARS ? folded : `${folded.slice(0, MAX_TEXT_CHARS - 1).trimEnd()}…`;
}

function messagesOf(
  newest: Received<typeof newestMessage> | undefined,
  opened: Received<typeof openedMessageEntity> | undefined,
  clock: BoardMoment,
  text: BoardText,
): BoardMessages | null {
  const openedTopic = str(opened?.state);
  const o = opened?.attributes ?? {};
  const shown: BoardMessages['opened'] =
    openedTopic === null
      ? null
      : {
          topic: openedTopic,
          sender: str(o.sender),
          when: sentOn(str(o.date), clock, text),
          text: wallText(str(o.text)),
          withdrawn: o.withdrawn === true,
          attachments: savedFiles(o.attachments, null),
        };
  // The unread ones as the messages feature lists them, beside the count it publishes: a message opened through the
  // bridge leaves both at the pass its opening asks for at once (rules/messages.ts, messagesView).
  const unread = list(newest?.attributes?.unread)
    .slice(0, MAX_UNREAD)
    .flatMap((m) => {
      const topic = str(m.topic);
      return topic === null ? [] : [{ topic, sender: str(m.sender), when: sentOn(str(m.date), clock, text) }];
    });
  if (unread.length === 0 && shown === null) return null;
  return { unread, opened: shown };
}

/** The unread count under the child's name, and the messages' box. */
export const messagesBoard: BoardPart = (child) => ({
  ...boardCount(child, unreadMessages, true, child.text.labels.messages),
  messages: messagesOf(child.state(newestMessage), child.state(openedMessageEntity), child.clock, child.text),
});
