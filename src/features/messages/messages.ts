// The messages feature: the unread counters, and each watched mailbox's list (read when its counter
// moved, and the inbox's at most an hour old by day: src/engine/resources/messaging.ts) -> unread_messages,
// newest_message and a message event per new message.
import { want } from '../../engine/resource.js';
import { INBOX, MAILBOX, UNREAD } from '../../engine/resources/messaging.js';
import { messageEvents, messagesView, type MessagesView } from '../../rules/messages.js';
import type { Mailbox, MessagesApi } from '../../portal/messaging-api.js';
import type { MessageItem, UnreadCounts } from '../../portal/schemas/messages.js';
import { feature } from '../feature.js';
import { mailboxWant, messageEvent, newestMessage, unreadMessages } from './entities.js';
import { messagesBoard } from './board.js';
import { messagesDashboard } from './dashboard.js';
import { statesOf, type Events } from '../kit/contract.js';
import type { Source, SourceContext, SourceResult } from '../../engine/source.js';
import type { ListedMessages } from '../messaging/opened.js';
import type { Language } from '../../config/language.js';
import { UNTITLED } from '../../i18n/school-words.js';
import { messagesAsk, type MessagesAsk } from './ask.js';
import { ARCHIVED_INBOX, ARCHIVED_SENT } from './resources.js';
import type { Resource } from '../../engine/resource.js';

/** The archive's lists of past school years (spec 4.8), read on demand. */
const ARCHIVES: readonly Resource[] = [ARCHIVED_INBOX, ARCHIVED_SENT];

/** Mailboxes whose new messages become events (trash and the archives never hold new ones). */
export const WATCHED_MAILBOXES: readonly Mailbox[] = ['inbox', 'notes', 'alerts', 'substitutions', 'absences', 'justifications'];
export type { ListedMessages } from '../messaging/opened.js';
export * from './entities.js';

declare module '../../engine/source.js' {
  interface FeatureOutputs {
    messages: ListedMessages;
  }
}

export const messages = feature({
  name: 'messages',
  // The archive of past school years too, once a person asked Assist for it (read on demand, never by a pass).
  reads: ({ onDemand }) => [want(UNREAD), ...WATCHED_MAILBOXES.map(mailboxWant), ...onDemand.filter((w) => ARCHIVES.includes(w.res))],
  entities: [unreadMessages, newestMessage, messageEvent],
  create: (access) => new MessagesSource({ api: access.messages, language: access.language }),
  board: messagesBoard,
  dashboard: messagesDashboard,
  ask: messagesAsk,
});

export class MessagesSource implements Source {
  private listed = new Map<Mailbox, MessageItem[]>();
  private counts: UnreadCounts | undefined;
  private absent = false;

  constructor(private readonly options: { api: MessagesApi; language: Language }) {}

  /**
   * Whether the school has the messages module (for bridge/info and `check`): undefined until the
   * messaging host has been asked.
   */
  get moduleAvailable(): boolean | undefined {
    return this.absent ? false : this.options.api.available;
  }

  compute(ctx: SourceContext): Promise<SourceResult> {
    // Without the module the counters are refused until the messaging client asks again (spec 5.4).
    if (ctx.cache.refused(UNREAD)) {
      this.absent = true;
      this.counts = undefined;
      this.listed.clear();
      return Promise.resolve({
        states: renderMessages(null, this.options.language),
        output: [],
        ask: { listed: null, archive: null, absent: true } satisfies MessagesAsk,
      });
    }
    const counts = ctx.cache.get(UNREAD);
    // Not read yet (a pass that could not reach the messaging host): nothing new to say.
    if (counts === undefined) return Promise.resolve({ states: this.restate() });
    this.absent = false;
    this.counts = counts;
    const listed = new Map<Mailbox, MessageItem[]>();
    for (const mailbox of WATCHED_MAILBOXES) {
      // A mailbox this account has not (404) is refused for a day (spec 2.10): it lists nothing.
      const list = mailbox === 'inbox' ? ctx.cache.get(INBOX) : ctx.cache.get(MAILBOX, mailbox);
      if (list !== undefined) listed.set(mailbox, list.items);
    }
    this.listed = listed;
    const output: ListedMessages = [...listed].map(([mailbox, items]) => ({ mailbox, items }));
    return Promise.resolve({
      states: this.restate(),
      events: { message: [...listed].flatMap(([mailbox, items]) => messageEvents(mailbox, items, UNTITLED[this.options.language])) } satisfies Events<
        typeof messageEvent
      >,
      // The messages the portal listed, by mailbox (what open_message accepts).
      output,
      ask: { listed: output, archive: archiveOf(ctx), absent: false } satisfies MessagesAsk,
    });
  }

  /** The last states without asking the portal. */
  restate(): SourceResult['states'] {
    if (this.absent) return renderMessages(null, this.options.language);
    if (!this.counts) return undefined;
    return renderMessages(messagesView(this.counts, this.listed.get('inbox') ?? [], UNTITLED[this.options.language]), this.options.language);
  }
}

/** The archive's lists a person asked for (ctx.onDemand): each as the portal listed it, null where its read failed. */
function archiveOf(ctx: SourceContext): MessagesAsk['archive'] {
  if (!ctx.onDemand?.some((w) => ARCHIVES.includes(w.res))) return null;
  return { received: ctx.cache.peek(ARCHIVED_INBOX)?.items ?? null, sent: ctx.cache.peek(ARCHIVED_SENT) ?? null };
}

/**
 * unread_messages is the inbox's unread count with every mailbox's as attributes; newest_message the
 * newest inbox message's topic. Without the messages module (null) both are unknown.
 */
export function renderMessages(view: MessagesView | null, language: Language) {
  return statesOf([unreadMessages, newestMessage], { view, language });
}
