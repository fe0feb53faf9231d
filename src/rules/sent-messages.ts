// The sent box as a family wants it (spec 4.8, `readed`): the newest message the child's account sent,
// who it went to, and whether and when each receiver read it; one piece of news per receiver who read
// a message; and which messages are still worth asking about (sent in the last 7 days, unread by someone).
import type { SentItem, SentMessageDetails } from '../portal/schemas/sent-box.js';
import { addDays } from '../util/time.js';
import { dayOf } from './portal-values.js';
import { messageDate, sortMessages } from './messages.js';

/** Messages sent longer ago than this are no longer watched for readers. */
export const WATCH_DAYS = 7;

export interface SentInput {
  /** The outbox list as last read. */
  list: readonly SentItem[];
  /** The opened messages by id, as last read. */
  details: ReadonlyMap<string, SentMessageDetails>;
  /** When the bridge first saw each receiver read a message (key `<id>:<name>`), for a portal that gives only a flag. */
  seenRead: ReadonlyMap<string, string>;
}

export const readKey = (id: string, name: string): string => `${id}:${name}`;

export type SentView = ReturnType<typeof view>;

function view(item: SentItem, input: SentInput) {
  const details = input.details.get(item.id);
  const receivers = (details?.receivers ?? []).map((r) => ({
    name: r.name,
    read: r.read,
    /** ISO time of reading: the portal's, else when the bridge first saw it read; null while unread. */
    readAt: r.read ? (r.readAt === undefined ? (input.seenRead.get(readKey(item.id, r.name)) ?? null) : messageDate(r.readAt)) : null,
  }));
  return {
    id: item.id,
    topic: details?.topic ?? item.topic,
    /** The receivers' names (the list's one receiver until the message is opened). */
    to: receivers.length > 0 ? receivers.map((r) => r.name) : item.to === undefined ? [] : [item.to],
    /** ISO 8601 with the Warsaw offset. */
    date: messageDate(item.sendDate ?? details?.sendDate),
    /** Every receiver's read state; empty until the message has been opened once. */
    receivers,
    readByAll: receivers.length > 0 && receivers.every((r) => r.read),
  };
}

/** Every sent message, newest first, as a family reads it. */
export function sentViews(input: SentInput): SentView[] {
  return sortMessages(input.list).map((item) => view(item, input));
}

/** The newest sent message, or null when the child's account has sent none. */
export function newestSent(input: SentInput): SentView | null {
  const newest = sortMessages(input.list)[0];
  return newest === undefined ? null : view(newest, input);
}

/**
 * The messages to open (again) to learn who read them, newest first: sent in the last 7 days and not
 * known to be read by every receiver; the newest one also when it was never opened (its receivers).
 */
export function watched(input: Pick<SentInput, 'list' | 'details'>, today: string): string[] {
  const since = addDays(today, -WATCH_DAYS);
  return sortMessages(input.list)
    .filter((item, i) => {
      const details = input.details.get(item.id);
      if (i === 0 && details === undefined) return true;
      const day = dayOf(item.sendDate);
      if (day === undefined || day < since) return false;
      return details === undefined || details.receivers.length === 0 || details.receivers.some((r) => !r.read);
    })
    .map((item) => item.id);
}

/** What a `message_read` event carries: which sent message, its topic, who read it and when, and when it was sent. */
export type MessageReadPayload = ReturnType<typeof readEvents>[number]['payload'];

/** One candidate per receiver who read a message; the seen memory fires those it has not announced. */
export function readEvents(input: SentInput) {
  return sortMessages(input.list).flatMap((item) => {
    const v = view(item, input);
    return v.receivers
      .filter((r) => r.read)
      .map((r) => ({
        id: `read:${readKey(item.id, r.name)}`,
        payload: { message_id: item.id, topic: v.topic, receiver: r.name, read_at: r.readAt, sent: v.date },
      }));
  });
}
