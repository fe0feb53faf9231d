// The sent-message feature: the sent box (spec 4.8) -> sent_message and message_read events. Did the
// teacher read it? The sent box is read every 8 hours by day and at the next pass after the bridge
// sends (which moves it); a message of the last 7 days that someone has not read yet is opened (no
// side effect) at the normal interval (the reference's freshness, not the news of lessons) until all
// have. Once every receiver has read, nothing is asked but the sent box.
import {
  newestSent,
  readEvents,
  readKey,
  sentViews,
  watched,
  type MessageReadPayload,
  type SentInput,
  type SentView,
} from '../../rules/sent-messages.js';
import { sortMessages } from '../../rules/messages.js';
import { eventEntity, sensor } from '../kit/entities.js';
import { stateText, withAttributes } from '../kit/render.js';
import { isoWarsaw } from '../../util/time.js';
import { want, type Copies, type Want } from '../../engine/resource.js';
import { SENT_BOX, SENT_MESSAGE, UNREAD } from '../../engine/resources/messaging.js';
import { feature, type CommandAccount } from '../feature.js';
import { ifKnown, markdown } from '../screens/cards.js';
import { keyed } from '../screens/templates.js';
import { str } from '../screens/shown.js';
import { shape, statesOf, type Events, type PublishedAs } from '../kit/contract.js';
import type { SentItem, SentMessageDetails } from '../../portal/schemas/sent-box.js';
import type { Source, SourceContext, SourceResult } from '../../engine/source.js';
import type { DeclaredStates } from '../../engine/state.js';
import { sentAsk, type SentAsk } from './ask.js';

/** Messages opened at once at most (the newest watched ones first). */
const OPENED_AT_ONCE = 3;

/** One receiver as published: whether they read it and when (null while unread). */
export type SentReceiverFacts = { name: string; read: boolean; read_at: string | null };

/** The attributes of sent_message. */
export type SentMessageFacts = { message_id?: string; to: string[]; date?: string | null; read_by_all?: boolean; read: SentReceiverFacts[] };

export const sentMessageEntity = sensor(
  'sent_message',
  { en: 'Sent message', pl: 'Wysłana wiadomość', uk: 'Надіслане повідомлення' },
  {
    icon: 'mdi:email-check',
    attributes: shape<SentMessageFacts>(),
    module: [UNREAD],
    // None known (no messages module, an empty box: null): unknown, its lists empty.
    state: (sent: SentView | null) => renderSentMessage(sent),
  },
);
export const messageReadEvent = eventEntity(
  'message_read',
  { en: 'Message read', pl: 'Wiadomość przeczytana', uk: 'Повідомлення прочитано' },
  'mdi:email-open',
  { payload: shape<MessageReadPayload>(), module: [UNREAD] },
);

/** A message went out: the sent box moved, and is read again right after the command. */
export function sent<R>(account: CommandAccount, result: R): R {
  account.readAgain(SENT_BOX);
  return result;
}

export const sentMessageFeature = feature({
  name: 'sent-message',
  reads: ({ copies, today }) => [want(SENT_BOX), ...opened(copies, today)],
  entities: [sentMessageEntity, messageReadEvent],
  ask: sentAsk,
  // The newest sent message in the school's box: read by every receiver, or not yet.
  board: ({ state }) => {
    const sentState = state(sentMessageEntity);
    const topic = str(sentState?.state);
    return { school: { sent: topic === null ? null : { topic, read: sentState?.attributes?.read_by_all === true } } };
  },
  dashboard: {
    // The newest sent message and who read it when; no card at all while none is known (an empty box says nothing).
    child: [
      {
        section: 'messages',
        block: (e, t) =>
          ifKnown(e, sentMessageEntity, () => markdown(e, t, 'features/sent-message/sent-message', keyed(sentMessageEntity, 'date', 'read'))),
      },
    ],
  },
  create: () => new SentMessages(),
});

/** The sent box's messages, newest first, and what their opened copies say of who read them. */
function sentBox(copies: Copies): Pick<SentInput, 'list' | 'details'> | undefined {
  const list = copies.peek(SENT_BOX);
  if (list === undefined) return undefined;
  const sorted = sortMessages(list);
  const details = new Map<string, SentMessageDetails>();
  for (const m of sorted) {
    const d = copies.peek(SENT_MESSAGE, m.id);
    if (d !== undefined) details.set(m.id, d);
  }
  return { list: sorted, details };
}

/** The sent messages opened now: the first few someone has not read. */
function opened(copies: Copies, today: string): Want[] {
  const box = sentBox(copies);
  return box === undefined
    ? []
    : watched(box, today)
        .slice(0, OPENED_AT_ONCE)
        .map((id) => want(SENT_MESSAGE, id));
}

class SentMessages implements Source {
  private list: readonly SentItem[] | undefined;
  private details = new Map<string, SentMessageDetails>();
  /** When the bridge first saw each receiver's reading (the portal does not always say when). */
  private readonly seenRead = new Map<string, string>();
  private absent = false;

  unknown(): DeclaredStates {
    return statesOf([sentMessageEntity], null);
  }

  compute(ctx: SourceContext): Promise<SourceResult> {
    // A school without the messages module: the sent box is refused until the client asks again.
    this.absent = ctx.cache.refused(SENT_BOX);
    if (this.absent) return Promise.resolve({ states: this.restate(), ask: { sent: null, absent: true } satisfies SentAsk });
    // A failed read of the box or of a watched message is this feature's failure (it keeps its last states).
    ctx.cache.get(SENT_BOX);
    const box = sentBox(ctx.cache);
    if (box === undefined) return Promise.resolve({ states: this.restate() });
    for (const id of watched(box, ctx.today).slice(0, OPENED_AT_ONCE)) ctx.cache.get(SENT_MESSAGE, id);
    this.list = box.list;
    this.details = new Map(box.details);
    for (const [id, details] of box.details) {
      for (const r of details.receivers) {
        const key = readKey(id, r.name);
        if (r.read && !this.seenRead.has(key)) this.seenRead.set(key, isoWarsaw(ctx.now));
      }
    }
    return Promise.resolve({
      states: this.restate(),
      events: { message_read: readEvents(this.input()) } satisfies Events<typeof messageReadEvent>,
      ask: { sent: sentViews(this.input()), absent: false } satisfies SentAsk,
    });
  }

  private input(): SentInput {
    return { list: this.list ?? [], details: this.details, seenRead: this.seenRead };
  }

  restate(): SourceResult['states'] {
    if (this.absent) return this.unknown();
    if (this.list === undefined) return undefined;
    return statesOf([sentMessageEntity], newestSent(this.input()));
  }
}

/** sent_message: the newest sent message's topic; to whom, when, and who read it when. */
export function renderSentMessage(sent: SentView | null): PublishedAs<SentMessageFacts> {
  if (sent === null) return { state: null, attributes: { to: [], read: [] } };
  return withAttributes(stateText(sent.topic) ?? '', {
    message_id: sent.id,
    to: sent.to,
    date: sent.date,
    read_by_all: sent.readByAll,
    read: sent.receivers.map((r) => ({ name: r.name, read: r.read, read_at: r.readAt })),
  });
}
