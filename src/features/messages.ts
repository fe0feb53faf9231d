// The messages feature: the unread counters at their row's age; a mailbox's list when its counter changed (on
// the first poll and on a user's refresh too) and when it is as old as its row of the fetch plan allows (a message
// read in the register's own app before the counter was looked at leaves the counter as it was).
import { always, AWAKE, HOURLY, type Freshness, type PlanRow } from '../feature-kit/plan.js';
import { OwnReads } from '../feature-kit/own-reads.js';
import { ConnectionError, SessionExpiredError, UnexpectedResponseError } from '../portal/errors.js';
import { MessagesUnavailableError } from '../portal/messaging-policy.js';
import { messageEvents, messagesView, type MessagePayload, type MessageSummary, type MessagesView } from '../school/messages.js';
import type { Mailbox, MessagesApi } from '../portal/messaging-api.js';
import type { MessageItem, UnreadCounts } from '../portal/schemas/messages.js';
import type { NewItem } from '../store/seen.js';
import { eventEntity, sensor } from '../feature-kit/entities.js';
import { stateText } from '../feature-kit/render.js';
import { feature } from './feature.js';
import { shape, type Events, type States } from '../feature-kit/contract.js';
import type { Source, SourceContext, SourceResult } from '../feature-kit/source.js';
import type { ListedMessages } from '../messaging/opened.js';

/** Mailboxes whose new messages become events (trash and the archives never hold new ones). */
export const WATCHED_MAILBOXES: readonly Mailbox[] = ['inbox', 'notes', 'alerts', 'substitutions', 'absences', 'justifications'];
/** A mailbox that answered 404 is asked again after this long (the school may add it). */
const ABSENT_MAILBOX_RECHECK_MS = 24 * 60 * 60_000;
const LIST_LIMIT = 10;

export type { ListedMessages } from '../messaging/opened.js';

declare module '../feature-kit/source.js' {
  interface FeatureOutputs {
    messages: ListedMessages;
  }
}

interface Listed {
  items: MessageItem[];
  total: number;
  /** The mailbox's unread counter when it was listed. */
  counter: number | undefined;
}

/**
 * The attributes of newest_message: the newest inbox message as a parent reads it in a list, and the
 * unread ones among the listed (newest first), which the board shows one under the other.
 */
export type NewestMessageFacts = Pick<MessageSummary, 'id' | 'sender' | 'date' | 'read' | 'preview'> & {
  has_attachments: boolean;
  unread: Pick<MessageSummary, 'id' | 'topic' | 'sender' | 'date'>[];
};

/** unread_messages carries every unread counter the portal gave, by mailbox. */
export const unreadMessages = sensor('unread_messages', { en: 'Unread messages', pl: 'Nieprzeczytane wiadomości', uk: 'Непрочитані повідомлення' }, { icon: 'mdi:email-outline', stateClass: 'measurement', attributes: shape<UnreadCounts>() });
export const messageEvent = eventEntity('message', { en: 'Message', pl: 'Wiadomość', uk: 'Повідомлення' }, 'mdi:email', { payload: shape<MessagePayload>() });
export const newestMessage = sensor('newest_message', { en: 'Newest message', pl: 'Najnowsza wiadomość', uk: 'Останнє повідомлення' }, { icon: 'mdi:email', attributes: shape<NewestMessageFacts>() });

/**
 * The messages' rows of the fetch plan: the unread counters are what the fast tier polls; a mailbox's
 * list is read at once when its counter changed. A message read in the register's own app before the
 * counter was looked at leaves the counter as it was (issue 36): only the list shows it. That message is
 * news to the other parent and to the sensors, not urgent (issue 47 decides it): the inbox's list is at
 * most an hour old by day (06:00 to 22:00) and not read at night for its age alone, while the counters
 * still bring every unread message within `fast_interval` by day. The other mailboxes (notes, absences,
 * the school's alerts) are listed on their counter's word alone.
 */
/** The inbox list's own age: an hour by day, none at night (the counters speak for it then). */
const INBOX_AGE: Freshness = { ...always(HOURLY), night: Infinity };
export const UNREAD_ROW: PlanRow = {
  resource: 'messaging inbox/unreadMessagesCount',
  fresh: AWAKE,
  refresh: 'read',
};
export const INBOX_LIST_ROW: PlanRow = {
  resource: 'messaging inbox/messages',
  fresh: INBOX_AGE,
  vouch: { by: 'messaging inbox/unreadMessagesCount', fresh: INBOX_AGE },
  refresh: 'read',
  note: 'at once when its unread counter changed; for a message read in the app, an hour by day',
};
export const MAILBOX_LIST_ROW: PlanRow = {
  resource: 'messaging <mailbox>/messages (notes, alerts, substitutions, absences, justifications)',
  fresh: always(Infinity),
  vouch: { by: 'messaging inbox/unreadMessagesCount', fresh: always(Infinity) },
  refresh: 'read',
  note: 'only when its unread counter changed',
};

export const messages = feature({
  name: 'messages',
  tier: 'fast',
  plan: [UNREAD_ROW, INBOX_LIST_ROW, MAILBOX_LIST_ROW],
  entities: [
    unreadMessages,
    newestMessage,
    messageEvent,
  ],
  create: (access) => new MessagesSource({ api: access.messages }),
});

export class MessagesSource implements Source {
  private readonly api: MessagesApi;
  private readonly listed = new Map<Mailbox, Listed>();
  private readonly reads = new OwnReads<Mailbox>();
  private readonly counterReads = new OwnReads<'counts'>();
  private counts: UnreadCounts | undefined;
  private absent = false;

  constructor(options: { api: MessagesApi }) {
    this.api = options.api;
  }

  /**
   * Whether the school has the messages module (for bridge/info and `check`): undefined until the
   * messaging host has been asked.
   */
  get moduleAvailable(): boolean | undefined {
    return this.absent ? false : this.api.available;
  }

  async poll(ctx: SourceContext): Promise<SourceResult> {
    let counts = this.counts;
    // Without the module the messaging client keeps its own schedule of asking again (spec 5.4). The
    // plan is asked first, always: the scheduler learns from it when the counters are due again.
    // The bridge opened a message since the counters were read: a signal that they moved, read them now
    // (not at the night's hour).
    const opened = this.api.openedAt !== undefined && this.api.openedAt >= (this.counterReads.at('counts') ?? 0);
    if (this.counterReads.due(ctx.cache, UNREAD_ROW, 'counts', { signal: opened ? 'changed' : 'none' }, (now) => this.readCounts(now))) {
      try {
        counts = await this.readCounts(ctx.now);
      } catch (error) {
        if (error instanceof MessagesUnavailableError) {
          this.absent = true;
          this.counts = undefined;
          this.listed.clear();
          this.reads.clear();
          this.counterReads.clear();
          return { states: renderMessages(null), output: [] };
        }
        throw isolate(error);
      }
    }
    // No copy is always due (above): without counts here, a read was not made and there is nothing new to say.
    if (counts === undefined) return { states: this.states() };
    this.absent = false;
    this.counts = counts;
    for (const mailbox of WATCHED_MAILBOXES) {
      if (this.needsList(mailbox, counts, ctx)) await this.list(mailbox, counts, ctx.now);
    }
    return { states: this.states(), events: { message: this.events() } satisfies Events<typeof messageEvent>, output: this.listedMessages() };
  }

  /** Reads the unread counters at a pass's moment and keeps them (the poll, or the scheduler when their row is due). */
  private async readCounts(now: number): Promise<UnreadCounts> {
    this.counts = await this.counterReads.read('counts', now, () => this.api.unreadCounts());
    return this.counts;
  }

  /** The messages the portal listed last, by mailbox (what open_message accepts). */
  private listedMessages(): ListedMessages {
    return [...this.listed.entries()].map(([mailbox, l]) => ({ mailbox, items: l.items }));
  }

  /** The last states without asking the portal. */
  restate(): SourceResult['states'] {
    return this.states();
  }

  private needsList(mailbox: Mailbox, counts: UnreadCounts, ctx: SourceContext): boolean {
    const row = mailbox === 'inbox' ? INBOX_LIST_ROW : MAILBOX_LIST_ROW;
    // A mailbox that answered 404 is the row's refusal: the plan says when it is asked again (and the scheduler wakes then).
    // The scheduler lists it at a later pass when the row says so by age or a refusal's end (with the counters it read first).
    const read = (now: number) => (this.counts === undefined ? Promise.resolve() : this.list(mailbox, this.counts, now));
    if (this.reads.refused(mailbox, ctx.now)) return this.reads.due(ctx.cache, row, mailbox, {}, read);
    const last = this.listed.get(mailbox);
    const signal = last === undefined ? 'none' : last.counter === counts[mailbox] ? 'same' : 'changed';
    return this.reads.due(ctx.cache, row, mailbox, { signal }, read);
  }

  private async list(mailbox: Mailbox, counts: UnreadCounts, now: number): Promise<void> {
    try {
      const { items, total } = await this.reads.read(mailbox, now, () => this.api.list(mailbox, LIST_LIMIT));
      this.listed.set(mailbox, { items, total, counter: counts[mailbox] });
    } catch (error) {
      // Some accounts have no alerts or substitutions mailbox (spec 2.10): skip it, ask again tomorrow.
      if (error instanceof UnexpectedResponseError && error.status === 404) {
        this.reads.refuse(mailbox, now + ABSENT_MAILBOX_RECHECK_MS);
        this.listed.delete(mailbox);
        return;
      }
      throw isolate(error);
    }
  }

  private states(): SourceResult['states'] {
    if (this.absent) return renderMessages(null);
    if (!this.counts) return {};
    return renderMessages(messagesView(this.counts, this.listed.get('inbox')?.items ?? []));
  }

  private events(): NewItem<MessagePayload>[] {
    return [...this.listed.entries()].flatMap(([mailbox, l]) => messageEvents(mailbox, l.items));
  }
}

/**
 * unread_messages is the inbox's unread count with every counter as attributes; newest_message the
 * newest inbox message's topic. Without the messages module (null) both are unknown.
 */
export function renderMessages(view: MessagesView | null): States<typeof unreadMessages | typeof newestMessage> {
  const unknown = () => ({ state: null, attributes: {} });
  if (view === null) return { unread_messages: unknown(), newest_message: unknown() };
  const newest = view.newest;
  return {
    unread_messages: { state: String(view.unread), attributes: { ...view.counts } },
    newest_message: newest
      ? {
          state: stateText(newest.topic) ?? '(no topic)',
          attributes: {
            id: newest.id,
            sender: newest.sender,
            date: newest.date,
            read: newest.read,
            has_attachments: newest.hasAttachments,
            preview: newest.preview,
            unread: view.unreadListed.map((m) => ({ id: m.id, topic: m.topic, sender: m.sender, date: m.date })),
          },
        }
      : unknown(),
  };
}

/**
 * A messaging-host failure must not count as the whole account failing (the poller keeps the
 * account's other entities when a source raises UnexpectedResponseError): a network error, a 5xx or
 * a messaging session that a new login did not bring back is reported as this source's problem.
 * Login problems (wrong password, captcha, pause) stay what they are: they are the account's.
 */
export function isolate(error: unknown): unknown {
  if (error instanceof ConnectionError || error instanceof SessionExpiredError) {
    const status = error instanceof ConnectionError ? (error.status ?? 0) : 0;
    return new UnexpectedResponseError(status, `messages: ${error.message}`, { account: error.account, cause: error });
  }
  return error;
}
