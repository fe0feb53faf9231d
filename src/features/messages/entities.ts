// What the messages feature publishes: its entities with the types of their attributes and payloads. The
// feature (what it reads, how it computes) is messages.ts; its screens are board.ts and dashboard.ts.
import { INBOX, MAILBOX, UNREAD } from '../../engine/resources/messaging.js';
import { want, type Want } from '../../engine/resource.js';
import type { Mailbox } from '../../portal/messaging-api.js';
import type { Language } from '../../config/language.js';
import { mailboxName } from '../../i18n/school-words.js';
import type { MessagePayload, MessageSummary, MessagesView } from '../../rules/messages.js';
import type { UnreadCounts } from '../../portal/schemas/messages.js';
import { eventEntity, sensor } from '../kit/entities.js';
import { shape, type Worded } from '../kit/contract.js';
import { stateText } from '../kit/render.js';
import { UNTITLED } from '../../i18n/school-words.js';

/**
 * The attributes of newest_message: the newest inbox message as a parent reads it in a list, and the
 * unread ones among the listed (newest first), which the board shows one under the other.
 */
export const newestFacts = (newest: MessageSummary, view: MessagesView) => ({
  id: newest.id,
  sender: newest.sender,
  date: newest.date,
  read: newest.read,
  has_attachments: newest.hasAttachments,
  preview: newest.preview,
  unread: view.unreadListed.map((m) => ({ id: m.id, topic: m.topic, sender: m.sender, date: m.date })),
});
export type NewestMessageFacts = ReturnType<typeof newestFacts>;

/** The attributes of unread_messages: every unread counter the portal gave, by its mailbox's key, with the mailbox's name in words. */
export const unreadFacts = (counts: UnreadCounts, language: Language) => ({
  mailboxes: Object.entries(counts).map(([mailbox, unread]) => ({ mailbox, name: mailboxName(mailbox, language), unread })),
});
export type UnreadMessagesFacts = ReturnType<typeof unreadFacts>;

/** Without the messages module (the view null) every state is unknown. */
const unknown = () => ({ state: null, attributes: {} });

export const unreadMessages = sensor(
  'unread_messages',
  { en: 'Unread messages', pl: 'Nieprzeczytane wiadomości', uk: 'Непрочитані повідомлення' },
  {
    icon: 'mdi:email-outline',
    stateClass: 'measurement',
    attributes: shape<UnreadMessagesFacts>(),
    module: [UNREAD],
    // The inbox's unread count, every mailbox's beside it.
    state: ({ view, language }: Worded<MessagesView | null>) =>
      view === null ? unknown() : { state: String(view.unread), attributes: unreadFacts(view.counts, language) },
  },
);
export const messageEvent = eventEntity('message', { en: 'Message', pl: 'Wiadomość', uk: 'Повідомлення' }, 'mdi:email', {
  payload: shape<MessagePayload>(),
  module: [UNREAD],
});
export const newestMessage = sensor(
  'newest_message',
  { en: 'Newest message', pl: 'Najnowsza wiadomość', uk: 'Останнє повідомлення' },
  {
    icon: 'mdi:email',
    attributes: shape<NewestMessageFacts>(),
    module: [UNREAD],
    // The newest inbox message's topic (a message without one says so).
    state: ({ view, language }: Worded<MessagesView | null>) =>
      view?.newest ? { state: stateText(view.newest.topic) || UNTITLED[language], attributes: newestFacts(view.newest, view) } : unknown(),
  },
);

/** A mailbox's copy: the inbox's by its own declaration, the others' by name. */
export function mailboxWant(mailbox: Mailbox): Want {
  return mailbox === 'inbox' ? want(INBOX) : want(MAILBOX, mailbox);
}
