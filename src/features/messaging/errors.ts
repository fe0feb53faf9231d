// Why a fixed message was not sent, as the command result tells it: sent=false means nothing went
// out, sent=null means the outcome is unknown and the sent box must be checked before trying again.
import { CommandError } from '../kit/commands.js';

export type NotSentCode =
  | 'unknown_message'
  | 'duplicate'
  | 'not_ready'
  | 'recipient_unknown'
  | 'recipient_ambiguous'
  | 'messages_unavailable'
  | 'session'
  | 'rejected'
  | 'journal'
  | 'unknown_outcome'
  | 'write_off'
  | 'empty'
  | 'too_long'
  | 'daily_limit'
  | 'too_soon'
  | 'no_reply'
  | 'no_message'
  | 'already_sent';

/** A CommandError (its message is safe to publish) that also carries the `sent` flag of the result. */
export class MessageNotSentError extends CommandError {
  constructor(
    readonly sent: false | null,
    readonly code: NotSentCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** Extra fields for the command result beside status and error. */
  override get fields(): { sent: false | null; code: NotSentCode } {
    return { sent: this.sent, code: this.code };
  }
}

/** Nothing went out, and why: "not sent: <why>". */
export function notSent(code: NotSentCode, why: string, cause?: unknown): MessageNotSentError {
  return new MessageNotSentError(false, code, `not sent: ${why}`, cause === undefined ? undefined : { cause });
}
