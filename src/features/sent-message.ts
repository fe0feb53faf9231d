// The sent-message feature, normal tier: the sent box (spec 4.8) -> sent_message and message_read
// events. Did the teacher read it? Both reads are rows of the fetch plan: the outbox list every 8 hours
// (a message sent through the portal's own pages shows then) and at the next poll after the bridge
// sends; a message of the last 7 days that someone has not read yet is opened (no side effect) at the
// normal interval (issue 29: the reference's freshness, not the news of lessons) until all have.
// Once every receiver has read, nothing is asked but the 8-hourly list.
import { MessagesUnavailableError } from '../portal/messaging-policy.js';
import { newestSent, readEvents, readKey, sortSent, watched, type MessageReadPayload, type SentInput, type SentView } from '../school/sent-messages.js';
import { HOUR, MINUTE } from '../feature-kit/resources.js';
import { always, CORE, type PlanRow } from '../feature-kit/plan.js';
import { eventEntity, sensor } from '../feature-kit/entities.js';
import { stateText, withAttributes } from '../feature-kit/render.js';
import { isoWarsaw, warsawDate } from '../util/time.js';
import { OwnReads } from '../feature-kit/own-reads.js';
import { feature, type FeatureAccess } from './feature.js';
import { isolate } from './messages.js';
import { shape, type Events, type Published } from '../feature-kit/contract.js';
import type { SentItem, SentMessageDetails } from '../portal/schemas/outbox.js';
import type { Source, SourceContext, SourceResult } from '../feature-kit/source.js';

/** The outbox list's age at most (a little under 8 hours, to line up with the 20-minute polls). */
export const OUTBOX_LIST_MAX_AGE = 8 * HOUR - 5 * MINUTE;
/** Messages opened per poll at most (the newest unread ones first). */
const OPENED_PER_POLL = 3;
const LIST_LIMIT = 10;

/** The sent box list's row: a few times a day, and at once after the bridge sent a message. */
export const SENT_LIST_ROW: PlanRow = {
  resource: 'messaging outbox/messages',
  fresh: always(OUTBOX_LIST_MAX_AGE),
  refresh: 'read',
  notAtStart: true,
  note: 'and at the next poll after the bridge sends a message',
};

/** An unread sent message's row: opened at the normal interval, every 2 hours at night. */
export const SENT_OPEN_ROW: PlanRow = {
  resource: 'messaging outbox/messages/<id>',
  fresh: CORE,
  refresh: 'read',
  notAtStart: true,
  note: `only a message of the last 7 days someone has not read, at most ${OPENED_PER_POLL} a poll; nothing once all have`,
};

/** One receiver as published: whether they read it and when (null while unread). */
export type SentReceiverFacts = { name: string; read: boolean; read_at: string | null };

/** The attributes of sent_message. */
export type SentMessageFacts = { message_id?: string; to: string[]; date?: string | null; read_by_all?: boolean; read: SentReceiverFacts[] };

export const sentMessageEntity = sensor('sent_message', { en: 'Sent message', pl: 'Wysłana wiadomość', uk: 'Надіслане повідомлення' }, { icon: 'mdi:email-check', attributes: shape<SentMessageFacts>() });
export const messageReadEvent = eventEntity('message_read', { en: 'Message read', pl: 'Wiadomość przeczytana', uk: 'Повідомлення прочитано' }, 'mdi:email-open', { payload: shape<MessageReadPayload>() });

export const sentMessageFeature = feature({
  name: 'sent-message',
  tier: 'normal',
  plan: [SENT_LIST_ROW, SENT_OPEN_ROW],
  entities: [sentMessageEntity, messageReadEvent],
  create: (access) => new SentMessages(access),
});

class SentMessages implements Source {
  private list: SentItem[] | undefined;
  private readonly listReads = new OwnReads<'list'>();
  private readonly details = new Map<string, SentMessageDetails>();
  /** When each watched message was last opened (and whether its last opening failed). */
  private readonly opened = new OwnReads<string>();
  private readonly seenRead = new Map<string, string>();
  private absent = false;

  constructor(private readonly access: Pick<FeatureAccess, 'messages' | 'outbox'>) {}

  restate(): SourceResult['states'] {
    return this.states();
  }

  unknown(): SourceResult['states'] {
    return { sent_message: { state: null, attributes: { to: [], read: [] } } };
  }

  async poll(ctx: SourceContext): Promise<SourceResult> {
    try {
      // The bridge sent a message since the list was read: a signal that the list moved, read it now.
      const sentSince = this.access.outbox.lastSendAt();
      const sent = sentSince !== undefined && sentSince >= (this.listReads.at('list') ?? 0);
      if (this.listReads.due(ctx.cache, SENT_LIST_ROW, 'list', { signal: sent ? 'changed' : 'none' }, (now) => this.readList(now))) await this.readList(ctx.now);
      if (this.list === undefined) return { states: this.states() };
      const unread = watched({ list: this.list, details: this.details }, ctx.today);
      for (const id of this.opened.keys()) if (!unread.includes(id)) this.opened.forget(id);
      // The scheduler opens at most as many at a later pass as a poll does (the first few watched).
      const due = unread.filter((id, i) => this.opened.due(ctx.cache, SENT_OPEN_ROW, id, { now: ctx.forced }, i < OPENED_PER_POLL ? (now) => this.openWatched(id, now) : undefined));
      for (const id of due.slice(0, OPENED_PER_POLL)) await this.open(id, ctx.now);
      this.absent = false;
    } catch (error) {
      if (error instanceof MessagesUnavailableError) {
        this.absent = true;
        return { states: this.states() };
      }
      throw isolate(error);
    }
    return { states: this.states(), events: { message_read: readEvents(this.input()) } satisfies Events<typeof messageReadEvent> };
  }

  /** Reads the sent box's list at a pass's moment (the poll, or the scheduler when its row is due). */
  private async readList(now: number): Promise<void> {
    const list = sortSent(await this.listReads.read('list', now, () => this.access.messages.sentList(LIST_LIMIT)));
    this.list = list;
    const listed = new Set(list.map((m) => m.id));
    for (const id of this.details.keys()) if (!listed.has(id)) this.details.delete(id);
  }

  /** The scheduler's open of a message the last pass watched: only while it is watched still (someone has not read it). */
  private async openWatched(id: string, now: number): Promise<void> {
    if (this.list !== undefined && watched({ list: this.list, details: this.details }, warsawDate(now)).includes(id)) await this.open(id, now);
  }

  /** Opens a sent message at a pass's moment: who has read it, and since when as far as the bridge saw. */
  private async open(id: string, now: number): Promise<void> {
    const details = await this.opened.read(id, now, () => this.access.messages.sentMessage(id));
    this.details.set(id, details);
    for (const r of details.receivers) {
      const key = readKey(id, r.name);
      if (r.read && !this.seenRead.has(key)) this.seenRead.set(key, isoWarsaw(now));
    }
  }

  private input(): SentInput {
    return { list: this.list ?? [], details: this.details, seenRead: this.seenRead };
  }

  private states(): SourceResult['states'] {
    if (this.absent) return this.unknown();
    if (this.list === undefined) return {};
    return { sent_message: renderSentMessage(newestSent(this.input())) };
  }
}

/** sent_message: the newest sent message's topic; to whom, when, and who read it when. */
export function renderSentMessage(sent: SentView | null): Published<typeof sentMessageEntity> {
  if (sent === null) return { state: null, attributes: { to: [], read: [] } };
  return withAttributes(stateText(sent.topic) ?? '', {
    message_id: sent.id,
    to: sent.to,
    date: sent.date,
    read_by_all: sent.readByAll,
    read: sent.receivers.map((r) => ({ name: r.name, read: r.read, read_at: r.readAt })),
  });
}
