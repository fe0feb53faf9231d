// The memory of sends, kept in data_dir so that a restart never sends twice: an entry is written
// (atomically, 0600) before the POST and closed after it. An entry still open at start means the
// process stopped mid-send: its outcome is unknown and it is never sent again by itself. The same
// entries count the day's sends and find a text sent to the same person a moment ago (guard.ts).
import * as z from 'zod';
import { LoginFile } from '../../util/stored.js';
import { fitting } from '../../portal/schemas/common.js';

const SEND_KINDS = ['fixed', 'reply', 'write'] as const;
export type SendKind = (typeof SEND_KINDS)[number];

const entrySchema = z.object({
  /** A random key of this send. */
  key: z.string(),
  /** What was sent: the configured message id of a fixed message, else the kind. */
  message: z.string(),
  /** A configured fixed message, a reply, or a new message written to a teacher. */
  kind: z.enum(SEND_KINDS),
  /** When the send was accepted (ms since the epoch). */
  at: z.number(),
  state: z.enum(['pending', 'sent', 'refused', 'unknown']),
  /** The receiver's name as the portal lists it. */
  recipient: z.string().optional(),
  /** The receiver's messaging accountId. */
  to: z.string().optional(),
  /** A hash of the text (the text itself is never kept). */
  digest: z.string().optional(),
  portal_message_id: z.string().optional(),
  /** The topic as sent (not secret: the log names it too); finds the message in the sent box. */
  topic: z.string(),
  /** Set when an unknown outcome was settled by reading the sent box (spec 4.8). */
  checked: z.literal('sent_box').optional(),
  transaction: z.string().optional(),
});

export type JournalEntry = z.output<typeof entrySchema>;

/** The file's version is written (2) and not checked: entries are read one by one. */
const journalSchema = z.object({ version: z.unknown(), entries: z.array(z.unknown()) });

/** Entries older than this are forgotten (they serve the guards and diagnostics). */
const KEEP_MS = 7 * 24 * 60 * 60_000;
/** A clock may step back this much (an NTP correction) without the entries written before counting as from the future. */
const FUTURE_SLACK_MS = 60_000;
/** Beyond this many, the oldest go (a day's cap is at most 100, so a day always fits). */
const KEEP_MAX = 300;

/** What the journal tells its reader while reading. */
export interface JournalHooks {
  /** The file was broken and moved aside; a new journal starts. */
  onCorrupt?: (error: Error) => void;
  /** Entries dated in the future were dropped. */
  onFuture?: (dropped: JournalEntry[]) => void;
}

export class SendJournal {
  /** data_dir/messages/<login>-sent.json. */
  private readonly file: LoginFile<typeof journalSchema>;
  private entries: JournalEntry[] = [];

  constructor(options: { dataDir: string; account: string }) {
    this.file = new LoginFile(options.dataDir, 'messages', `${options.account}-sent`, journalSchema);
  }

  /**
   * Reads the journal at start; entries left pending by the last run become unknown and are returned.
   * Entries dated ahead of `now` are dropped (see reread).
   */
  async load(now: number, hooks: JournalHooks = {}): Promise<JournalEntry[]> {
    await this.reread(now, hooks);
    const interrupted = this.entries.filter((e) => e.state === 'pending');
    if (interrupted.length > 0) {
      for (const e of interrupted) e.state = 'unknown';
      await this.save();
    }
    return interrupted.map((e) => ({ ...e }));
  }

  /**
   * Reads the file again, before every send: what is on disk is what counts (a restored backup, a
   * hand edit, another process). An entry dated more than a minute after `now` was written under a
   * clock that ran ahead; kept, it would hold every send back as "too soon" until that date, so it is
   * dropped (and the file saved without it, so onFuture hears of it once).
   */
  async reread(now: number, hooks: JournalHooks = {}): Promise<void> {
    // A broken file is moved aside (readStored); an entry this version cannot read is dropped alone.
    const saved = await this.file.load(hooks.onCorrupt);
    const entries = fitting(entrySchema, saved?.entries ?? []);
    const future = entries.filter((e) => e.at > now + FUTURE_SLACK_MS);
    this.entries = entries.filter((e) => e.at <= now + FUTURE_SLACK_MS);
    if (future.length > 0) {
      await this.save();
      hooks.onFuture?.(future);
    }
  }

  /** Sends accepted after `since` that did or may have gone out (refused ones sent nothing). */
  outgoingSince(since: number): JournalEntry[] {
    return this.entries.filter((e) => e.at > since && e.state !== 'refused');
  }

  /** Sends since `since` whose outcome is unknown and not yet looked up in the sent box. */
  unknownSince(since: number): JournalEntry[] {
    return this.entries.filter((e) => e.at > since && e.state === 'unknown').map((e) => ({ ...e }));
  }

  /** The newest entry with this transaction, whatever its state. */
  byTransaction(transaction: string): JournalEntry | undefined {
    return this.entries.filter((e) => e.transaction === transaction).at(-1);
  }

  /** Records a send before its POST; resolves once the entry is safely on disk. */
  async begin(entry: JournalEntry, now: number): Promise<void> {
    this.entries = this.entries.filter((e) => now - e.at < KEEP_MS).slice(-(KEEP_MAX - 1));
    this.entries.push(entry);
    await this.save();
  }

  async finish(key: string, state: Exclude<JournalEntry['state'], 'pending'>, extra: Partial<JournalEntry> = {}): Promise<void> {
    const entry = this.entries.find((e) => e.key === key);
    if (!entry) return;
    Object.assign(entry, extra, { state });
    await this.save();
  }

  private save(): Promise<void> {
    return this.file.save({ version: 2, entries: this.entries });
  }
}
