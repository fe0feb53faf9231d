// Sends a configured fixed message once (the send_<id> buttons and send_message/set). Everything that
// can refuse is checked before the POST; the POST itself is never retried, and a journal written
// before it makes sure neither a second press nor a restart sends the same message twice.
import { randomBytes } from 'node:crypto';
import { MessageSendError } from '../portal/errors.js';
import { MessagesUnavailableError } from '../portal/messaging-policy.js';
import { readSendAnswer } from '../portal/schemas/messages.js';
import { composeMessage, sendBody } from './compose.js';
import { MessageNotSentError } from './errors.js';
import { SendJournal, type JournalEntry } from './journal.js';
import { resolveRecipient, type Recipient } from './recipients.js';
import type { FixedMessage } from '../config/schema.js';
import type { Gateway } from '../portal/gateway.js';
import type { MessagesApi } from '../portal/messaging-api.js';
import type { MessagingReply } from '../portal/messaging.js';
import type { Identity } from '../feature-kit/identity.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';

/** The same message pressed again within this long is refused as a duplicate. */
const DUPLICATE_WINDOW_MS = 2 * 60_000;

export interface FixedMessageSenderOptions {
  /** The account's login: names the journal file (stable even when the child's id changes). */
  account: string;
  messages: readonly FixedMessage[];
  api: MessagesApi;
  /** For the class tutor's name (Users lookup). */
  gateway: Gateway;
  /** The child as last read; undefined before the first successful poll. */
  identity: () => Identity | undefined;
  dataDir: string;
  clock: Clock;
  log: Logger;
  duplicateWindowMs?: number;
}

/** The fields of a successful send for the command result. */
export interface SendResult {
  sent: true;
  message_id?: string;
  recipient: string;
}

export class FixedMessageSender {
  private readonly options: FixedMessageSenderOptions;
  private readonly journal: SendJournal;
  private loading: Promise<JournalEntry[]> | undefined;
  private readonly inFlight = new Set<string>();

  constructor(options: FixedMessageSenderOptions) {
    this.options = options;
    this.journal = new SendJournal({ dataDir: options.dataDir, account: options.account });
  }

  /**
   * Reads the journal. Resolves to the sends a previous run left in the middle: their outcome is
   * unknown (report them; they are never sent again by themselves).
   */
  start(): Promise<JournalEntry[]> {
    // The logger already names the account (app.ts binds it); a second `account` would repeat it.
    const { log } = this.options;
    this.loading ??= this.journal
      .load((error) => log.warn({ err: error.message }, 'send journal unreadable; starting a new one'))
      .then((interrupted) => {
        for (const entry of interrupted) {
          const at = new Date(entry.at).toISOString();
          log.warn({ message: entry.message, at }, 'a send was cut off by a restart; its outcome is unknown (check the sent box)');
        }
        return interrupted;
      });
    this.loading.catch(() => (this.loading = undefined));
    return this.loading;
  }

  /**
   * Sends the configured message `messageId` once. Resolves with `{sent: true, ...}`; rejects with
   * MessageNotSentError (a CommandError) carrying sent=false (nothing went out) or sent=null
   * (unknown: check the sent box).
   */
  async send(messageId: string, transaction?: string): Promise<SendResult> {
    const message = this.options.messages.find((m) => m.id === messageId);
    if (!message) {
      const known = this.options.messages.map((m) => m.id).join(', ') || 'none';
      throw new MessageNotSentError(false, 'unknown_message', `unknown message id (configured: ${known})`);
    }
    try {
      await this.start();
    } catch (error) {
      throw new MessageNotSentError(false, 'journal', 'not sent: the send journal could not be read', { cause: error });
    }
    const now = this.options.clock.now();
    const window = this.options.duplicateWindowMs ?? DUPLICATE_WINDOW_MS;
    // The words a parent sees in the result when a button was pressed twice.
    if (this.inFlight.has(message.id)) throw new MessageNotSentError(false, 'duplicate', 'being sent right now, not sent again');
    if (this.journal.lastSince(message.id, now - window)) {
      throw new MessageNotSentError(false, 'duplicate', `sent less than ${inWords(window)} ago, not sent again`);
    }
    this.inFlight.add(message.id);
    try {
      return await this.sendOnce(message, now, transaction);
    } finally {
      this.inFlight.delete(message.id);
    }
  }

  private async sendOnce(message: FixedMessage, now: number, transaction: string | undefined): Promise<SendResult> {
    const { api, log } = this.options;
    const identity = this.options.identity();
    if (!identity) throw new MessageNotSentError(false, 'not_ready', 'not sent: the child is not known yet; try again after the first poll');
    const composed = composeMessage(message, identity, now);
    if (composed.missing.length > 0) {
      throw new MessageNotSentError(false, 'not_ready', `not sent: no value yet for ${composed.missing.map((p) => `{${p}}`).join(', ')}`);
    }
    const recipient = await beforeSending(() => resolveRecipient(message.to, { api, gateway: this.options.gateway, identity }));
    // The session is checked (and recovered) before the one POST, which is never retried.
    await beforeSending(() => api.me());

    const entry: JournalEntry = { key: randomBytes(8).toString('hex'), message: message.id, at: now, state: 'pending', recipient: recipient.label };
    if (transaction !== undefined) entry.transaction = transaction;
    try {
      await this.journal.begin(entry, now);
    } catch (error) {
      throw new MessageNotSentError(false, 'journal', 'not sent: the send journal could not be written', { cause: error });
    }

    let reply: MessagingReply;
    try {
      reply = await api.postMessage(sendBody(recipient.accountId, composed));
    } catch (error) {
      const sent = error instanceof MessageSendError ? error.sent : null;
      await this.close(entry, sent === false ? 'refused' : 'unknown');
      if (sent === false) throw new MessageNotSentError(false, 'session', `not sent: ${error instanceof Error ? error.message : 'no session'}`, { cause: error });
      log.warn({ message: message.id }, 'message send timed out or failed on the way; outcome unknown');
      throw unknownOutcome('the portal did not answer', error);
    }
    return this.judge(reply, entry, recipient);
  }

  /** Spec 4.8: 2xx without errors is sent; 4xx refused; anything else (5xx, 2xx with errors) unknown. */
  private async judge(reply: MessagingReply, entry: JournalEntry, recipient: Recipient): Promise<SendResult> {
    const { log } = this.options;
    if (reply.status >= 200 && reply.status < 300) {
      const answer = readSendAnswer(reply.json);
      if (answer.errors === undefined) {
        await this.close(entry, 'sent', answer.messageId === undefined ? {} : { portal_message_id: answer.messageId });
        log.info({ message: entry.message, recipient: recipient.label }, 'message sent');
        return { sent: true, ...(answer.messageId === undefined ? {} : { message_id: answer.messageId }), recipient: recipient.label };
      }
      await this.close(entry, 'unknown');
      throw unknownOutcome(`the portal answered ${reply.status} but reported errors`);
    }
    if (reply.status >= 400 && reply.status < 500) {
      await this.close(entry, 'refused');
      throw new MessageNotSentError(false, 'rejected', `not sent: the portal refused the message (${reply.status})`);
    }
    await this.close(entry, 'unknown');
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

/** Runs a step before the POST: whatever fails there, nothing went out. */
async function beforeSending<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof MessageNotSentError) throw error;
    if (error instanceof MessagesUnavailableError) {
      throw new MessageNotSentError(false, 'messages_unavailable', 'not sent: the school has no messages module', { cause: error });
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new MessageNotSentError(false, 'session', `not sent: ${reason}`, { cause: error });
  }
}

function unknownOutcome(why: string, cause?: unknown): MessageNotSentError {
  return new MessageNotSentError(null, 'unknown_outcome', `outcome unknown: ${why}; check the sent messages before trying again`, { cause });
}

/** 120000 -> "2 minutes", 60000 -> "1 minute", 90000 -> "90 seconds". */
function inWords(ms: number): string {
  const [n, unit] = ms % 60_000 === 0 ? [ms / 60_000, 'minute'] : [Math.round(ms / 1000), 'second'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}
