// The messaging host's resources (spec 4.8): the unread counters, each mailbox's list, the sent box
// and the sent messages watched (the recipient list is the message-write feature's own: features/message-write/resources.ts). The counters tell of a new message at once
// (fast_interval by day); a mailbox's list is read when its counter moved. A message read in the
// register's own app before the counter was looked at leaves the counter as it was: only the list
// shows it, so the inbox's list is at most two hours old by day (news to the other parent, not urgent).
import { always, type Freshness } from '../schedule.js';
import { messagingResource, want, type Portal, type Resource } from '../resource.js';
import { MAILBOX_MAX, type ListedDown, type Mailbox } from '../../portal/messaging-api.js';
import type { MessageItem, MessageList } from '../../portal/schemas/messages.js';
import { keptSentList, keptSentMessage } from '../../portal/schemas/sent-box.js';
import { timeKey } from '../../rules/portal-values.js';
import { AWAKE, byDay, CORE, DAY, HOUR, MINUTE } from './ages.js';

/** The sent box's newest, as the portal's own app lists them. */
const LIST_LIMIT = 10;

export const UNREAD = messagingResource({
  endpoints: ['/api/inbox/unreadMessagesCount'],
  read: (api) => api.unreadCounts(),
  fresh: AWAKE,
  // Whether the change feed carries the messaging module's messages is not known (live-notes 31): a change
  // of `Messages` reads the counters at once, which keep their age whatever the change feed says.
  changeFeed: ['Messages'],
});

/** A mailbox's list (the key's, or `mailbox`) vouched for by its unread counter, as old as `fresh` while it does; the counters are read for it. */
function counterSignal(fresh: Freshness, mailbox?: Mailbox): Pick<Resource, 'vouch' | 'signal' | 'signalReads'> {
  return {
    vouch: { by: UNREAD.name, fresh },
    signal: (copies, key) => copies.peek(UNREAD)?.[(mailbox ?? key) as Mailbox]?.toString(),
    signalReads: () => [want(UNREAD)],
  };
}

/** A message the last copy listed, or one sent before its newest (the last copy's messages moved away since). */
function toldBefore(last: MessageList): (m: MessageItem) => boolean {
  const ids = new Set(last.items.map((m) => m.id));
  const newest = last.items.reduce((top, m) => (timeKey(m.sendDate) > top ? timeKey(m.sendDate) : top), '');
  return (m) => ids.has(m.id) || (newest !== '' && timeKey(m.sendDate) !== '' && timeKey(m.sendDate) < newest);
}

/**
 * A mailbox's list read down to a message the last copy held (interface 19.2): every message new since is listed,
 * whether 1 or 40 came, so that each is told once or counted in a flood event. At the first read after a start, as
 * deep as its unread counter. A list cut at MAILBOX_MAX says so in the log.
 */
async function listedDown(mailbox: Mailbox, last: MessageList | undefined, { messages, copies, cut }: Portal): Promise<ListedDown> {
  const told = (at: string, listed: number) => cut?.(`messaging ${mailbox}/messages`, at, listed, MAILBOX_MAX);
  const list = await messages.listDown(mailbox, last === undefined ? undefined : toldBefore(last), copies.peek(UNREAD)?.[mailbox] ?? 0, told);
  // Read down to its most before a message told: the older new ones are neither told nor counted.
  if (list.cut) told('new messages', list.total);
  return list;
}

export const INBOX: Resource<ListedDown> = messagingResource({
  endpoints: ['/api/inbox/messages'],
  read: (_api, _key, portal) => listedDown('inbox', portal.copies.peek(INBOX), portal),
  fresh: byDay(4 * HOUR),
  ...counterSignal(byDay(4 * HOUR), 'inbox'),
  absentForMs: DAY,
  note: 'at once when its unread counter changed; for a message read in the app, four hours by day',
});

/** The other mailboxes by name (notes, the school's alerts, absences): on their counter's word alone. */
export const MAILBOX: Resource<ListedDown> = messagingResource({
  name: 'messaging <mailbox>/messages',
  endpoints: ['notes', 'alerts', 'substitutions', 'absences', 'justifications'].map((mailbox) => `/api/${mailbox}/messages`),
  read: (_api, mailbox, portal) => listedDown(mailbox as Mailbox, portal.copies.peek(MAILBOX, mailbox), portal),
  fresh: always(Infinity),
  ...counterSignal(always(Infinity)),
  absentForMs: DAY,
  note: 'notes, alerts, substitutions, absences, justifications: only when its unread counter changed',
});

/** The sent box: a few times a day, and at once after the bridge sent a message (it moves it). */
export const SENT_BOX = messagingResource({
  endpoints: ['/api/outbox/messages'],
  read: (api) => api.sentList(LIST_LIMIT),
  fresh: byDay(8 * HOUR - 5 * MINUTE),
  notAtStart: true,
  kept: keptSentList,
  note: 'and at the next pass after the bridge sends a message',
});

/** A sent message someone has not read yet (who read it, and when): opening it has no side effect. */
export const SENT_MESSAGE = messagingResource({
  endpoints: ['/api/outbox/messages/<id>'],
  read: (api, id) => api.sentMessage(id ?? ''),
  fresh: CORE,
  notAtStart: true,
  kept: keptSentMessage,
  note: 'only a message of the last 7 days someone has not read, at most 3 at once; nothing once all have',
});
