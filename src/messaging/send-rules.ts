// The rules of the outbox (messaging/guard.ts) that keep no state of their own: how long the same text to
// the same person is refused, the pause between two sends, the longest text, a day's cap, the answers that
// say nothing went out; the text's checks and digest; the checks that read the send journal (the day's cap
// and the pause, the same text again, a transaction tried before); and the words of a refusal.
import { createHash } from 'node:crypto';
import { MessagesUnavailableError } from '../portal/messaging-policy.js';
import { MessageNotSentError } from './errors.js';
import { errorText } from '../util/text.js';
import { warsawDate } from '../util/time.js';
import type { Recipient } from './recipients.js';
import type { SendJournal } from './journal.js';

/** The same text to the same person within this long is refused. */
export const DUPLICATE_WINDOW_MS = 2 * 60_000;
/** At least this long between two sends of one child. */
export const SEND_GAP_MS = 10_000;
/** The longest text the bridge sends (the portal states no limit; a teacher reads this much). */
export const MAX_TEXT_CHARS = 4_000;
export const DEFAULT_MESSAGES_PER_DAY = 10;
/** The answers to a send that say nothing went out (spec 4.8): refused (400, 422) or a rejected session (401, 403). */
export const REFUSED_STATUSES: ReadonlySet<number> = new Set([400, 401, 403, 422]);

/** An empty text or one over 4,000 characters is refused. */
export function checkText(text: string): void {
  if (text.trim() === '') throw new MessageNotSentError(false, 'empty', 'not sent: the text is empty');
  if ([...text].length > MAX_TEXT_CHARS) {
    throw new MessageNotSentError(false, 'too_long', `not sent: the text is over ${MAX_TEXT_CHARS.toLocaleString('en')} characters`);
  }
}

export function textDigest(text: string): string {
  return createHash('sha256').update(text.trim().replace(/\s+/g, ' '), 'utf8').digest('base64url').slice(0, 22);
}

/** Runs a step before the POST: whatever fails there, nothing went out. */
export async function beforeSending<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof MessageNotSentError) throw error;
    if (error instanceof MessagesUnavailableError) {
      throw new MessageNotSentError(false, 'messages_unavailable', 'not sent: the school has no messages module', { cause: error });
    }
    const reason = errorText(error);
    throw new MessageNotSentError(false, 'session', `not sent: ${reason}`, { cause: error });
  }
}

export function unknownOutcome(why: string, cause?: unknown): MessageNotSentError {
  return new MessageNotSentError(null, 'unknown_outcome', `outcome unknown: ${why}; check the sent messages before trying again`, { cause });
}

/** 120000 -> "2 minutes", 60000 -> "1 minute", 10000 -> "10 seconds". */
export function inWords(ms: number): string {
  const [n, unit] = ms % 60_000 === 0 ? [ms / 60_000, 'minute'] : [Math.round(ms / 1000), 'second'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/**
 * A transaction whose send a restart cut off is not sent again while its outcome is unknown; one the
 * sent box showed went out is not sent again either.
 */
export function checkTransaction(journal: Pick<SendJournal, 'byTransaction'>, transaction: string | undefined): void {
  if (transaction === undefined) return;
  const earlier = journal.byTransaction(transaction);
  if (earlier?.state === 'sent' && earlier.checked === 'sent_box') {
    throw new MessageNotSentError(
      false,
      'already_sent',
      `not sent: transaction ${JSON.stringify(transaction)} went out earlier (the sent box shows it)`,
    );
  }
  if (earlier?.state === 'unknown') {
    throw unknownOutcome(`transaction ${JSON.stringify(transaction)} was already tried and its outcome is unknown`);
  }
}

/** The day's cap (Warsaw day) and the pause since the child's last send; both count across restarts. */
export function checkPace(journal: Pick<SendJournal, 'outgoingSince'>, now: number, limits: { perDay?: number; gapMs?: number }): void {
  const perDay = limits.perDay ?? DEFAULT_MESSAGES_PER_DAY;
  const today = warsawDate(now);
  const recent = journal.outgoingSince(now - 26 * 60 * 60_000);
  if (recent.filter((e) => warsawDate(e.at) === today).length >= perDay) {
    throw new MessageNotSentError(false, 'daily_limit', `not sent: messages_per_day (${perDay}) is used up for today`);
  }
  const gap = limits.gapMs ?? SEND_GAP_MS;
  const last = recent.at(-1);
  if (last && now - last.at < gap) {
    throw new MessageNotSentError(false, 'too_soon', `not sent: the last message went less than ${inWords(gap)} ago`);
  }
}

/** The same text (its digest) to the same person within the window is refused. */
export function checkDuplicate(
  journal: Pick<SendJournal, 'outgoingSince'>,
  send: { recipient: Recipient; digest: string },
  now: number,
  windowMs = DUPLICATE_WINDOW_MS,
): void {
  const same = journal.outgoingSince(now - windowMs).some((e) => e.digest === send.digest && e.to === send.recipient.accountId);
  if (same)
    throw new MessageNotSentError(false, 'duplicate', `not sent: the same text went to ${send.recipient.label} less than ${inWords(windowMs)} ago`);
}
