// The one gate every message the bridge sends goes through: fixed messages, replies and written ones
// (interface 7.3). Before anything leaves: the day's cap, the pause between two sends, the text's
// length, the same text to the same person a moment ago, a send cut off by a restart. Then the session
// check, the journal entry on disk, exactly one POST (never retried), and its answer judged (spec 4.8).
import { createHash, randomBytes } from 'node:crypto';
import { MessageSendError } from '../../portal/errors.js';
import { MessagesUnavailableError } from '../../portal/messaging-policy.js';
import { readSendAnswer } from '../../portal/schemas/messages.js';
import { MessageNotSentError, notSent } from './errors.js';
import { SendJournal, type JournalEntry, type JournalHooks, type SendKind } from './journal.js';
import type { Recipient } from './recipients.js';
import type { MessagesApi } from '../../portal/messaging-api.js';
import type { SentItem } from '../../portal/schemas/sent-box.js';
import type { JsonAnswer } from '../../portal/http.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import { errorText } from '../../util/text.js';
import { warsawDate, warsawInstant } from '../../util/time.js';

export interface SendGuardOptions {
  /** The account's login: names the journal file (stable even when the child's id changes). */
  account: string;
  /** The child's id as it is now, for the log. */
  child: () => string;
  api: MessagesApi;
  dataDir: string;
  clock: Clock;
  log: Logger;
  messagesPerDay?: number;
}

/** A message made ready to go: who, what, and the one POST that sends it. */
export interface Draft {
  recipient: Recipient;
  /** The topic on one line. */
  topic: string;
  /** The text as the parent wrote it (checked and hashed, never logged or kept). */
  text: string;
  /** The one POST (POST /messages or /messages/reply); never called twice. */
  post: () => Promise<JsonAnswer>;
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

export class SendGuard {
  private readonly journal: SendJournal;
  private loading: Promise<JournalEntry[]> | undefined;
  private busy = false;

  constructor(private readonly options: SendGuardOptions) {
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
        log.warn(
          { kind: entry.kind, message: entry.message, recipient: entry.recipient, at: new Date(entry.at).toISOString() },
          'a send was cut off by a restart; its outcome is unknown (check the sent box)',
        );
      }
      return interrupted;
    });
    this.loading.catch(() => (this.loading = undefined));
    return this.loading;
  }

  /**
   * Sends once what `prepare` makes, if every rule allows it. Resolves with `{sent: true, ...}`;
   * rejects with MessageNotSentError carrying sent=false (nothing went out, and which rule said so)
   * or sent=null (unknown: check the sent box).
   */
  async send(request: SendRequest, prepare: () => Promise<Draft>): Promise<SendResult> {
    const unreadable = (cause: unknown): never => {
      throw notSent('journal', 'the send journal could not be read', cause);
    };
    await this.start().catch(unreadable);
    // The command router runs one command of a child at a time; this covers a caller outside it.
    if (this.busy) throw new MessageNotSentError(false, 'duplicate', 'another message is being sent right now, not sent');
    this.busy = true;
    try {
      await this.journal.reread(this.options.clock.now(), this.journalHooks()).catch(unreadable);
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
    checkPace(this.journal, now, this.options.messagesPerDay);
    const draft = await beforeSending(prepare);
    checkText(draft.text);
    const digest = textDigest(draft.text);
    checkDuplicate(this.journal, { recipient: draft.recipient, digest }, now);
    const went = settled.find((e) => e.state === 'sent' && e.digest === digest && e.to === draft.recipient.accountId);
    if (went) throw notSent('already_sent', `the sent box shows the same text went to ${draft.recipient.label} earlier`);
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
    await this.journal.begin(entry, now).catch((error: unknown) => {
      throw notSent('journal', 'the send journal could not be written', error);
    });
    const about = { child: this.options.child(), kind: request.kind, recipient: draft.recipient.label, topic: draft.topic };
    this.options.log.info(about, 'sending a message');

    let reply: JsonAnswer;
    try {
      reply = await draft.post();
    } catch (error) {
      const sent = error instanceof MessageSendError ? error.sent : null;
      await this.close(entry, sent === false ? 'refused' : 'unknown');
      if (sent === false) throw notSent('session', error instanceof Error ? error.message : 'no session', error);
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
        log.warn(
          { child: this.options.child(), dropped: dropped.length, latest: new Date(Math.max(...dropped.map((e) => e.at))).toISOString() },
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
    const list = await this.options.api.sentList(20).catch((error: unknown) => {
      throw notSent('unknown_outcome', 'an earlier send has an unknown outcome and the sent box could not be read', error);
    });
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
  private async judge(reply: JsonAnswer, entry: JournalEntry, about: Record<string, string>): Promise<SendResult> {
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
      throw notSent('rejected', `the portal refused the message (${reply.status})`);
    }
    await this.close(entry, 'unknown');
    log.warn({ ...about, status: reply.status }, 'message send answered with an error that does not say it was refused; outcome unknown');
    throw unknownOutcome(`the portal answered ${reply.status}`);
  }

  /** Closes a journal entry; a failure to write is logged (the entry then reads as unknown later). */
  private async close(entry: JournalEntry, state: 'sent' | 'refused' | 'unknown', extra: Partial<JournalEntry> = {}): Promise<void> {
    await this.journal.finish(entry.key, state, extra).catch((error: Error) => {
      this.options.log.warn({ err: error.message }, 'could not close the send journal entry');
    });
  }
}

// The send guard's rules that keep no state of their own: how long the same text to the same person is refused,
// the pause between two sends, the longest text, a day's cap, the answers that say nothing went out; the
// text's checks and digest; the checks that read the send journal (the day's cap and the pause, the same
// text again, a transaction tried before); and the words of a refusal.

/** The same text to the same person within this long is refused. */
const DUPLICATE_WINDOW_MS = 2 * 60_000;
/** At least this long between two sends of one child. */
const SEND_GAP_MS = 10_000;
/** The longest text the bridge sends (the portal states no limit; a teacher reads this much). */
const MAX_TEXT_CHARS = 4_000;
const DEFAULT_MESSAGES_PER_DAY = 10;
/** The answers to a send that say nothing went out (spec 4.8): refused (400, 422) or a rejected session (401, 403). */
const REFUSED_STATUSES: ReadonlySet<number> = new Set([400, 401, 403, 422]);

/** An empty text or one over 4,000 characters is refused. */
function checkText(text: string): void {
  if (text.trim() === '') throw notSent('empty', 'the text is empty');
  if ([...text].length > MAX_TEXT_CHARS) throw notSent('too_long', `the text is over ${MAX_TEXT_CHARS.toLocaleString('en')} characters`);
}

function textDigest(text: string): string {
  return createHash('sha256').update(text.trim().replace(/\s+/g, ' '), 'utf8').digest('base64url').slice(0, 22);
}

/** Runs a step before the POST: whatever fails there, nothing went out. */
async function beforeSending<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof MessageNotSentError) throw error;
    if (error instanceof MessagesUnavailableError) throw notSent('messages_unavailable', 'the school has no messages module', error);
    throw notSent('session', errorText(error), error);
  }
}

function unknownOutcome(why: string, cause?: unknown): MessageNotSentError {
  return new MessageNotSentError(null, 'unknown_outcome', `outcome unknown: ${why}; check the sent messages before trying again`, { cause });
}

/** 120000 -> "2 minutes", 60000 -> "1 minute", 10000 -> "10 seconds". */
function inWords(ms: number): string {
  const [n, unit] = ms % 60_000 === 0 ? [ms / 60_000, 'minute'] : [Math.round(ms / 1000), 'second'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/**
 * A transaction whose send a restart cut off is not sent again while its outcome is unknown; one the
 * sent box showed went out is not sent again either.
 */
function checkTransaction(journal: Pick<SendJournal, 'byTransaction'>, transaction: string | undefined): void {
  if (transaction === undefined) return;
  const earlier = journal.byTransaction(transaction);
  if (earlier?.state === 'sent' && earlier.checked === 'sent_box')
    throw notSent('already_sent', `transaction ${JSON.stringify(transaction)} went out earlier (the sent box shows it)`);
  if (earlier?.state === 'unknown') throw unknownOutcome(`transaction ${JSON.stringify(transaction)} was already tried and its outcome is unknown`);
}

/** The day's cap (Warsaw day) and the pause since the child's last send; both count across restarts. */
function checkPace(journal: Pick<SendJournal, 'outgoingSince'>, now: number, perDay = DEFAULT_MESSAGES_PER_DAY): void {
  const today = warsawDate(now);
  const recent = journal.outgoingSince(now - 26 * 60 * 60_000);
  if (recent.filter((e) => warsawDate(e.at) === today).length >= perDay)
    throw notSent('daily_limit', `messages_per_day (${perDay}) is used up for today`);
  const last = recent.at(-1);
  if (last && now - last.at < SEND_GAP_MS) throw notSent('too_soon', `the last message went less than ${inWords(SEND_GAP_MS)} ago`);
}

/** The same text (its digest) to the same person within DUPLICATE_WINDOW_MS is refused. */
function checkDuplicate(journal: Pick<SendJournal, 'outgoingSince'>, send: { recipient: Recipient; digest: string }, now: number): void {
  const same = journal.outgoingSince(now - DUPLICATE_WINDOW_MS).some((e) => e.digest === send.digest && e.to === send.recipient.accountId);
  if (same) throw notSent('duplicate', `the same text went to ${send.recipient.label} less than ${inWords(DUPLICATE_WINDOW_MS)} ago`);
}

// Spec 4.8's rule for a send whose outcome is unknown: look it up in the sent box before anything is
// sent again. A sent-box entry is that send when its topic matches and it went out within minutes.

/** How far back an unknown send is looked up in the sent box (the journal keeps a week). */
const UNKNOWN_LOOKUP_MS = 7 * 24 * 60 * 60_000;
/**
 * An unknown send missing from the sent box counts as not sent only this long after it was tried: a
 * POST still on its way (or one the portal files late) would otherwise be sent twice. Until then it
 * stays unknown, and the pause and duplicate guards treat it as sent.
 */
const SETTLE_AFTER_MS = 3 * 60_000;
/** A sent-box entry is the unknown send when its topic matches and it was sent this close to the attempt. */
const SENT_BOX_WINDOW_MS = 15 * 60_000;

function sameSend(item: SentItem, entry: JournalEntry): boolean {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{1,2}:\d{2}(?::\d{2})?)/.exec(item.sendDate?.trim() ?? '');
  if (!m) return false;
  const at = warsawInstant(m[1]!, m[2]!);
  if (Math.abs(at - entry.at) > SENT_BOX_WINDOW_MS) return false;
  return item.topic.trim() === entry.topic.trim();
}
