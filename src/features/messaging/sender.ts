// Sends a configured fixed message once (the send_<id> buttons and send_message/set): the message
// composed from the child's identity and its recipient found, then handed to the account's send guard,
// whose guards, journal and single POST every kind of send shares.
import { composeMessage, sendBody } from './compose.js';
import { MessageNotSentError, notSent } from './errors.js';
import { SendGuard, type SendGuardOptions, type SendResult } from './guard.js';
import { resolveRecipient, type RecipientDeps } from './recipients.js';
import type { JournalEntry } from './journal.js';
import type { FixedMessage } from '../../config/schema.js';
import type { Identity } from '../../engine/identity.js';

/** The send guard's own (one is made from them when none is given), and the configured messages. */
export interface FixedMessageSenderOptions extends Pick<SendGuardOptions, 'account' | 'api' | 'dataDir' | 'clock' | 'log'> {
  messages: readonly FixedMessage[];
  /** For the class tutor's name and account: a user of the Users lookup, read through the table. */
  user: RecipientDeps['user'];
  /** The child as last read; undefined before the first successful pass. */
  identity: () => Identity | undefined;
  /** The account's send guard, shared with replies and written messages (one made here when not given). */
  sendGuard?: SendGuard;
}

export class FixedMessageSender {
  private readonly guard: SendGuard;

  constructor(private readonly options: FixedMessageSenderOptions) {
    this.guard = options.sendGuard ?? new SendGuard({ ...options, child: () => options.identity()?.firstName ?? options.account });
  }

  /** Reads the journal; resolves to the sends a previous run left in the middle. */
  start(): Promise<JournalEntry[]> {
    return this.guard.start();
  }

  /**
   * Sends the configured message `messageId` once. Resolves with `{sent: true, ...}`; rejects with
   * MessageNotSentError (a CommandError) carrying sent=false (nothing went out) or sent=null
   * (unknown: check the sent box).
   */
  send(messageId: string, transaction?: string): Promise<SendResult> {
    const message = this.options.messages.find((m) => m.id === messageId);
    if (!message) {
      const known = this.options.messages.map((m) => m.id).join(', ') || 'none';
      return Promise.reject(new MessageNotSentError(false, 'unknown_message', `unknown message id (configured: ${known})`));
    }
    return this.guard.send({ kind: 'fixed', label: message.id, transaction }, async () => {
      const { api, user, clock } = this.options;
      const identity = this.options.identity();
      if (!identity) throw notSent('not_ready', 'the child is not known yet; try again after the first pass');
      const composed = composeMessage(message, identity, clock.now());
      if (composed.missing.length > 0) throw notSent('not_ready', `no value yet for ${composed.missing.map((p) => `{${p}}`).join(', ')}`);
      const recipient = await resolveRecipient(message.to, { api, user, identity });
      return { recipient, topic: composed.topic, text: composed.text, post: () => api.postMessage(sendBody(recipient.accountId, composed)) };
    });
  }
}
