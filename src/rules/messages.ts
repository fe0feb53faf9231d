// Messages as a family sees them: the unread counters, the newest inbox message, one event per new
// message, and the list preview turned back into readable text.
import { collapse, timeKey } from './portal-values.js';
import { idCompare, textCompare } from './order.js';
import { isoWarsaw, warsawInstant } from '../util/time.js';
import type { MessageItem, UnreadCounts } from '../portal/schemas/messages.js';
import { decodeEntity, decodeMessage } from './message-text.js';
import { cut } from './notices.js';

/** Longest preview kept in an event or an attribute. */
const PREVIEW_LIMIT = 500;
/** Longest preview in a `message` event: what a phone notification shows. */
const EVENT_PREVIEW_LIMIT = 200;

/**
 * The list preview: base64 of UTF-8 cut at a fixed byte length, possibly inside a character (spec
 * 2.10). Invalid bytes are dropped rather than shown as replacement marks, and the HTML of the body
 * (also possibly cut inside a tag or an entity) becomes plain text on one line.
 */
export function decodePreview(content: string | undefined, limit = PREVIEW_LIMIT): string | undefined {
  if (!content) return undefined;
  const text = htmlToText(decodeMessage(content));
  return text === '' ? undefined : cut(text, limit);
}

/** Plain text of a message's HTML, its wrapper already removed (decodeMessage), on one line. */
export function htmlToText(html: string): string {
  return html
    .replace(/<[^>]*$/, '')
    .replace(/<(br|\/p|\/div|\/li|\/h\d)\b[^>]*>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&[#\w]*$/, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => decodeEntity(name) ?? whole)
    .replace(/\s+/g, ' ')
    .trim();
}

/** A portal send date ('2026-11-19 14:02:11') as ISO 8601 with the Warsaw offset. */
export function messageDate(sendDate: string | undefined): string | null {
  const m = sendDate === undefined ? null : /^\s*(\d{4}-\d{2}-\d{2})(?:[ T](\d{1,2}:\d{2}(?::\d{2})?))?/.exec(sendDate);
  if (!m) return sendDate?.trim() || null;
  return isoWarsaw(warsawInstant(m[1]!, m[2] ?? '00:00:00'));
}

/** Newest first by send date (a received or a sent message); ties by id so that the order is stable. */
export function sortMessages<T extends { id: string; sendDate?: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => textCompare(timeKey(b.sendDate), timeKey(a.sendDate)) || idCompare(b.id, a.id));
}

/** The messages a family looks at: the unread counters and the newest inbox message. */
export type MessagesView = ReturnType<typeof messagesView>;

/**
 * The counters, the newest of the listed inbox messages and the unread ones among them; a message without a topic
 * under `untitled`, the family's word for none ("(bez tematu)"), so that every list tells it.
 */
export function messagesView(counts: UnreadCounts, inbox: readonly MessageItem[], untitled: string) {
  const sorted = sortMessages(inbox);
  const newest = sorted[0];
  return {
    /** The inbox's unread count (0 when the portal left it out). */
    unread: counts.inbox ?? 0,
    /** Every counter the portal gave, by mailbox. */
    counts,
    newest: newest ? summary(newest, untitled) : null,
    /** The unread messages among those listed, newest first: what the board shows one under the other. */
    unreadListed: sorted.filter((m) => !m.read).map((m) => summary(m, untitled)),
  };
}

/** One message as a parent reads it in a list. */
export type MessageSummary = ReturnType<typeof summary>;

function summary(m: MessageItem, untitled: string) {
  return {
    id: m.id,
    /** The topic on one line; the word for none when it has none. */
    topic: collapse(m.topic) ?? untitled,
    sender: m.sender ?? null,
    date: messageDate(m.sendDate),
    read: m.read,
    hasAttachments: m.hasAttachments,
    preview: decodePreview(m.content) ?? null,
  };
}

/**
 * What a `message` event carries: the message's id, mailbox, sender, topic, a short preview, when it was sent (ISO 8601
 * with the Warsaw offset), whether it has attachments, and `read` when it was already read when the bridge first listed
 * it (in the register's own app).
 */
export type MessagePayload = ReturnType<typeof messageEvents>[number]['payload'];

/** One `message` event candidate per listed message (one without a topic under `untitled`); the seen memory decides which ones fire. */
export function messageEvents(mailbox: string, items: readonly MessageItem[], untitled: string) {
  return sortMessages(items).map((m) => ({
    id: m.id,
    payload: {
      id: m.id,
      mailbox,
      sender: m.sender ?? null,
      topic: collapse(m.topic) ?? untitled,
      preview: decodePreview(m.content, EVENT_PREVIEW_LIMIT) ?? null,
      date: messageDate(m.sendDate),
      has_attachments: m.hasAttachments,
      ...(m.read ? { read: true as const } : {}),
    },
  }));
}
