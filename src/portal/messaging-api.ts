// The messaging resources the bridge reads (spec 4.8), typed through their schemas. Transport, the
// session and its recovery stay in MessagingClient.
import { UnexpectedResponseError } from './errors.js';
import {
  attachmentLinkResponse,
  fullMessageResponse,
  teacherSubjectsResponse,
  groupReceiversResponse,
  meResponse,
  messageListResponse,
  receiverTypesResponse,
  type MessageItem,
  type MessageList,
  unreadCountsResponse,
  type Receiver,
} from './schemas/messages.js';
import { outboxListResponse, sentMessageResponse } from './schemas/sent-box.js';
import type { MessagingClient } from './messaging.js';
import type { JsonAnswer } from './http.js';
import type { z } from 'zod';
import { capLists, LIST_ITEMS, type ListCut } from './list-caps.js';

/** Mailbox names the API accepts in /<mailbox>/messages; nothing else is ever put in that URL. */
export const MAILBOXES = ['inbox', 'notes', 'alerts', 'substitutions', 'absences', 'justifications', 'trash', 'outbox'] as const;
export type Mailbox = (typeof MAILBOXES)[number];

/** A mailbox's first page: its newest ten, as the portal's own app asks (spec 4.8). */
export const MAILBOX_PAGE = 10;
/** The most messages a mailbox's list is read to at once (interface 19.2, docs/cost-and-faults.md). */
export const MAILBOX_MAX = 100;

/** A mailbox's list as read down: the portal's list, and `cut` when it ended at MAILBOX_MAX (or the portal's own most) before a message told. */
export type ListedDown = MessageList & { cut: boolean };

/** Receiver group ids are checked before they go into a query (they come from the portal). */
const GROUP_ID = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
/** Message and attachment ids as the portal gives them; anything else never reaches a URL. */
const MESSAGE_ID = /^\d{1,20}$/;
const ATTACHMENT_ID = /^[A-Za-z0-9_-]{1,64}$/;

export class MessagesApi {
  constructor(
    private readonly client: MessagingClient,
    private readonly account: string,
  ) {}

  get available(): boolean | undefined {
    return this.client.available;
  }

  unreadCounts() {
    return this.read('/api/inbox/unreadMessagesCount', unreadCountsResponse);
  }

  /** The newest `limit` messages of a mailbox (at most MAILBOX_MAX, `cut` told of more); listing never marks anything read. */
  list(mailbox: Mailbox, limit = 10, cut?: ListCut) {
    if (!MAILBOXES.includes(mailbox)) throw new Error(`unknown mailbox ${String(mailbox)}`);
    return this.read(`/api/${mailbox}/messages`, messageListResponse, { limit: String(limit) }, { max: MAILBOX_MAX, cut });
  }

  /**
   * A mailbox's newest messages down to one `told` says was listed before: asked again with twice the `limit` (the mailbox's one paging
   * parameter, spec 4.8) while every message listed is new and the mailbox holds more, up to MAILBOX_MAX. Without `told`
   * (nothing listed since the start) the first ask covers `atLeast` (its unread messages) and ends there. A portal
   * that lists fewer than asked while it holds more has its own most: the list ends there too.
   */
  async listDown(mailbox: Mailbox, told: ((m: MessageItem) => boolean) | undefined, atLeast = 0, cut?: ListCut): Promise<ListedDown> {
    let limit = Math.min(MAILBOX_MAX, Math.max(MAILBOX_PAGE, atLeast));
    for (;;) {
      const list = await this.list(mailbox, limit, cut);
      const reached = list.items.length >= list.total || told === undefined || list.items.some(told);
      if (reached || list.items.length < limit || limit >= MAILBOX_MAX) return { ...list, cut: !reached };
      limit = Math.min(MAILBOX_MAX, limit * 2);
    }
  }

  /** The account as messaging knows it; its accessToAttachments is kept in the session (attachmentsAllowed). */
  async me() {
    const me = await this.read('/api/me', meResponse);
    this.client.attachmentsAllowed = me.attachments;
    return me;
  }

  /** Whether the school lets this account fetch attachments: the session's /api/me, read now if it has none. */
  async attachmentsAllowed(): Promise<boolean> {
    return this.client.attachmentsAllowed ?? (await this.me()).attachments;
  }

  receiverTypes() {
    return this.read('/api/receivers/types', receiverTypesResponse, { includeClass: 'true' });
  }

  groupReceivers(group: string): Promise<Receiver[]> {
    if (!GROUP_ID.test(group)) return Promise.resolve([]);
    return this.read('/api/receivers/groups/school-employees', groupReceiversResponse, { receiverType: group });
  }

  /** One message whole; opening it marks it read in the portal (spec 3.3). */
  message(mailbox: Mailbox, id: string) {
    if (!MAILBOXES.includes(mailbox) || !MESSAGE_ID.test(id)) throw new Error(`not a message id: ${JSON.stringify(id.slice(0, 40))}`);
    return this.read(`/api/${mailbox}/messages/${id}`, fullMessageResponse);
  }

  /** The past school years' received messages (spec 4.8: GET /archive/inbox/messages; listing marks nothing read). */
  archivedList() {
    return this.read('/api/archive/inbox/messages', messageListResponse);
  }

  /** The past school years' sent messages (spec 4.8: GET /archive/outbox/messages). */
  archivedSentList() {
    return this.read('/api/archive/outbox/messages', outboxListResponse);
  }

  /** The newest `limit` sent messages (the outbox list names the first receiver only). */
  sentList(limit = 10) {
    return this.read('/api/outbox/messages', outboxListResponse, { limit: String(limit) });
  }

  /** One sent message with every receiver and whether they read it; opening it changes nothing (spec 4.8). */
  sentMessage(id: string) {
    if (!MESSAGE_ID.test(id)) throw new Error(`not a message id: ${JSON.stringify(id.slice(0, 40))}`);
    return this.read(`/api/outbox/messages/${id}`, sentMessageResponse);
  }

  /** The downloadLink of one attachment (opens nothing, marks nothing read). */
  attachmentLink(attachmentId: string, messageId: string): Promise<string> {
    if (!ATTACHMENT_ID.test(attachmentId) || !MESSAGE_ID.test(messageId)) throw new Error('not an attachment id');
    return this.read(`/api/attachments/${attachmentId}/messages/${messageId}`, attachmentLinkResponse);
  }

  /** The child's teachers with the subjects they teach (403 on a kindergarten account). */
  teacherSubjects() {
    return this.read('/api/receivers/student-subjects', teacherSubjectsResponse);
  }

  /** POST /messages/reply exactly once (the body of POST /messages plus originalMessageId). */
  postReply(body: unknown): Promise<JsonAnswer> {
    return this.client.postOnce('/api/messages/reply', body);
  }

  /** POST /messages exactly once; the caller classifies the answer (see features/messaging/sender.ts). */
  postMessage(body: unknown): Promise<JsonAnswer> {
    return this.client.postOnce('/api/messages', body);
  }

  /** An answer read through its schema, each list in it cut to `max` first (list-caps.ts). */
  private async read<S extends z.ZodType>(
    path: string,
    schema: S,
    query?: Record<string, string>,
    { max, cut }: { max: number; cut?: ListCut | undefined } = { max: LIST_ITEMS },
  ): Promise<z.output<S>> {
    const parsed = schema.safeParse(capLists(await this.client.get(path, query), max, (at, listed) => cut?.(at, listed)));
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw new UnexpectedResponseError(200, `${path}: unexpected shape${first ? `: ${first.message}` : ''}`, { account: this.account });
    }
    return parsed.data;
  }
}
