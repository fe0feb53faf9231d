// The one gate every message the bridge sends goes through: fixed messages, replies and written ones
// (interface 7.3). Before anything leaves: the day's cap, the pause between two sends, the text's
// length, the same text to the same person a moment ago, a send cut off by a restart. Then the session
// check, the journal entry on disk, exactly one POST (never retried), and its answer judged (spec 4.8).
import { randomBytes } from 'node:crypto';
import { MessageSendError } from '../portal/errors.js';
import { readSendAnswer } from '../portal/schemas/messages.js';
import { sameSend, SETTLE_AFTER_MS, UNKNOWN_LOOKUP_MS } from './sent-box.js';
import { MessageNotSentError } from './errors.js';
import { beforeSending, checkDuplicate, checkPace, checkTransaction, checkText, REFUSED_STATUSES, textDigest, unknownOutcome } from './send-rules.js';
import { SendJournal, type JournalEntry, type JournalHooks, type SendKind } from './journal.js';
import type { Recipient } from './recipients.js';
import type { MessagesApi } from '../portal/messaging-api.js';
import type { SentItem } from '../portal/schemas/outbox.js';
import type { MessagingReply } from '../portal/messaging.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';

export interface OutboxOptions {
  /** The account's login: names the journal file (stable even when the child's id changes). */
  account: string;
  /** The child's id as it is now, for the log. */
  child: () => string;
  api: MessagesApi;
  dataDir: string;
  clock: Clock;
  log: Logger;
  messagesPerDay?: number;
  duplicateWindowMs?: number;
  gapMs?: number;
}

/** A message made ready to go: who, what, and the one POST that sends it. */
export interface Draft {
  recipient: Recipient;
  /** The topic on one line. */
  topic: string;
  /** The text as the parent wrote it (checked and hashed, never logged or kept). */
  text: string;
  /** The one POST (POST /messages or /messages/reply); never called twice. */
  post: () => Promise<MessagingReply>;
}

export interface SendRequest {
  kind: SendKind;
  /** What is sent, for the journal and the log: a fixed message's id, else the kind. */
  label: string;
  /** The text when it is known before the draft (reply, write): checked before the portal is asked. */
  text?: string;
  transaction?: string;
}

/** The fields of a successful send for the command result. */
export interface SendResult {
  sent: true;
  message_id?: string;
  recipient: string;
}

export class Outbox {
  private readonly options: OutboxOptions;
  private readonly journal: SendJournal;
  private loading: Promise<JournalEntry[]> | undefined;
  private busy = false;

  constructor(options: OutboxOptions) {
    this.options = options;
    this.journal = new SendJournal({ dataDir: options.dataDir, account: options.account });
  }

  /**
   * Reads the journal. Resolves to the sends a previous run left in the middle: their outcome is
   * unknown (they are logged, and never sent again by themselves).
   */
  start(): Promise<JournalEntry[]> {
    const { log } = this.options;
    this.loading ??= this.journal.load(this.options.clock.now(), this.journalHooks()).then((interrupted) => {
      for (const entry of interrupted) {
        const at = new Date(entry.at).toISOString();
        log.warn(
          { kind: entry.kind, message: entry.message, recipient: entry.recipient, at },
          'a send was cut off by a restart; its outcome is unknown (check the sent box)',
        );
      }
      return interrupted;
    });
    this.loading.catch(() => (this.loading = undefined));
    return this.loading;
  }

  /** When the child's account last sent (or may have sent) a message through the bridge. */
  lastSendAt(): number | undefined {
    return this.journal.outgoingSince(0).at(-1)?.at;
  }

  /**
   * Sends once what `prepare` makes, if every rule allows it. Resolves with `{sent: true, ...}`;
   * rejects with MessageNotSentError carrying sent=false (nothing went out, and which rule said so)
   * or sent=null (unknown: check the sent box).
   */
  async send(request: SendRequest, prepare: () => Promise<Draft>): Promise<SendResult> {
    try {
      await this.start();
    } catch (error) {
      throw new MessageNotSentError(false, 'journal', 'not sent: the send journal could not be read', { cause: error });
    }
    // The command router runs one command of a child at a time; this covers a caller outside it.
    if (this.busy) throw new MessageNotSentError(false, 'duplicate', 'another message is being sent right now, not sent');
    this.busy = true;
    try {
      try {
        await this.journal.reread(this.options.clock.now(), this.journalHooks());
      } catch (error) {
        throw new MessageNotSentError(false, 'journal', 'not sent: the send journal could not be read', { cause: error });
      }
      return await this.sendGuarded(request, prepare);
    } finally {
      this.busy = false;
    }
  }

  private async sendGuarded(request: SendRequest, prepare: () => Promise<Draft>): Promise<SendResult> {
    const now = this.options.clock.now();
    const settled = await this.settleUnknown(now);
    checkTransaction(this.journal, request.transaction);
    if (request.text !== undefined) checkText(request.text);
    checkPace(this.journal, now, { perDay: this.options.messagesPerDay, gapMs: this.options.gapMs });
    const draft = await beforeSending(prepare);
    checkText(draft.text);
    const digest = textDigest(draft.text);
    checkDuplicate(this.journal, { recipient: draft.recipient, digest }, now, this.options.duplicateWindowMs);
    const went = settled.find((e) => e.state === 'sent' && e.digest === digest && e.to === draft.recipient.accountId);
    if (went)
      throw new MessageNotSentError(false, 'already_sent', `not sent: the sent box shows the same text went to ${draft.recipient.label} earlier`);
    // The session is checked (and recovered) before the one POST, which is never retried.
    await beforeSending(() => this.options.api.me());

    const entry: JournalEntry = {
      key: randomBytes(8).toString('hex'),
      message: request.label,
      kind: request.kind,
      at: now,
      state: 'pending',
      recipient: draft.recipient.label,
      to: draft.recipient.accountId,
      topic: draft.topic,
      digest,
      ...(request.transaction === undefined ? {} : { transaction: request.transaction }),
    };
    try {
      await this.journal.begin(entry, now);
    } catch (error) {
      throw new MessageNotSentError(false, 'journal', 'not sent: the send journal could not be written', { cause: error });
    }
    const about = { child: this.options.child(), kind: request.kind, recipient: draft.recipient.label, topic: draft.topic };
    this.options.log.info(about, 'sending a message');

    let reply: MessagingReply;
    try {
      reply = await draft.post();
    } catch (error) {
      const sent = error instanceof MessageSendError ? error.sent : null;
      await this.close(entry, sent === false ? 'refused' : 'unknown');
      if (sent === false)
        throw new MessageNotSentError(false, 'session', `not sent: ${error instanceof Error ? error.message : 'no session'}`, { cause: error });
      this.options.log.warn(about, 'message send timed out or failed on the way; outcome unknown');
      throw unknownOutcome('the portal did not answer', error);
    }
    return this.judge(reply, entry, about);
  }

  private journalHooks(): JournalHooks {
    const { log } = this.options;
    return {
      onCorrupt: (error) => log.warn({ err: error.message }, 'send journal unreadable; starting a new one'),
      onFuture: (dropped) => {
        const latest = new Date(Math.max(...dropped.map((e) => e.at))).toISOString();
        log.warn(
          { child: this.options.child(), dropped: dropped.length, latest },
          'send journal held sends dated in the future (the clock ran ahead once); dropped them so that they hold no send back',
        );
      },
    };
  }

  /**
   * Spec 4.8: after a send whose outcome is unknown, the sent box is read before anything is sent
   * again. Each unknown send of the last days is found there (its topic, within minutes of its time):
   * it then counts as sent; one still missing minutes after it was tried counts as refused. When the
   * sent box cannot be read, nothing is sent.
   */
  private async settleUnknown(now: number): Promise<JournalEntry[]> {
    const unknown = this.journal.unknownSince(now - UNKNOWN_LOOKUP_MS);
    if (unknown.length === 0) return [];
    let list: SentItem[];
    try {
      list = await this.options.api.sentList(20);
    } catch (error) {
      throw new MessageNotSentError(false, 'unknown_outcome', 'not sent: an earlier send has an unknown outcome and the sent box could not be read', {
        cause: error,
      });
    }
    const settled: JournalEntry[] = [];
    for (const entry of unknown) {
      const found = list.some((item) => sameSend(item, entry));
      if (!found && now - entry.at < SETTLE_AFTER_MS) continue;
      const state = found ? 'sent' : 'refused';
      await this.close(entry, state, { checked: 'sent_box' });
      this.options.log.info(
        { kind: entry.kind, recipient: entry.recipient, topic: entry.topic, went: found },
        'a send of unknown outcome was looked up in the sent box',
      );
      settled.push({ ...entry, state, checked: 'sent_box' });
    }
    return settled;
  }

  /**
   * Spec 4.8: 2xx without errors is sent; a 400 or 422 (the message was refused) or a rejected session
   * (401, 403: spec 5.4.3) means nothing went out; anything else (another 4xx such as 404, 409 or 429,
   * a 5xx, a 2xx with errors) is an unknown outcome.
   */
  private async judge(reply: MessagingReply, entry: JournalEntry, about: Record<string, string>): Promise<SendResult> {
    const { log } = this.options;
    if (reply.status >= 200 && reply.status < 300) {
      const answer = readSendAnswer(reply.json);
      if (answer.errors === undefined) {
        await this.close(entry, 'sent', answer.messageId === undefined ? {} : { portal_message_id: answer.messageId });
        log.info(about, 'message sent');
        return { sent: true, ...(answer.messageId === undefined ? {} : { message_id: answer.messageId }), recipient: about.recipient ?? '' };
      }
      await this.close(entry, 'unknown');
      throw unknownOutcome(`the portal answered ${reply.status} but reported errors`);
    }
    if (REFUSED_STATUSES.has(reply.status)) {
      await this.close(entry, 'refused');
      log.info({ ...about, status: reply.status }, 'message refused by the portal');
      throw new MessageNotSentError(false, 'rejected', `not sent: the portal refused the message (${reply.status})`);
    }
    await this.close(entry, 'unknown');
    log.warn({ ...about, status: reply.status }, 'message send answered with an error that does not say it was refused; outcome unknown');
    throw unknownOutcome(`the portal answered ${reply.status}`);
  }

  /** Closes a journal entry; a failure to write is logged (the entry then reads as unknown later). */
  private async close(entry: JournalEntry, state: 'sent' | 'refused' | 'unknown', extra: Partial<JournalEntry> = {}): Promise<void> {
    try {
      await this.journal.finish(entry.key, state, extra);
    } catch (error) {
      this.options.log.warn({ err: (error as Error).message }, 'could not close the send journal entry');
    }
  }
}
