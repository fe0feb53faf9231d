// The memory of sends, kept in data_dir so that a restart never sends twice: an entry is written
// (atomically, 0600) before the POST and closed after it. An entry still open at start means the
// process stopped mid-send: its outcome is unknown and it is never sent again by itself.
import { join } from 'node:path';
import { z } from 'zod';
import { safeName, writeJson } from '../store/files.js';
import { readStored } from '../store/stored.js';

export type SendState = 'pending' | 'sent' | 'refused' | 'unknown';

export interface JournalEntry {
  /** A random key of this press. */
  key: string;
  /** The configured message id. */
  message: string;
  /** When the press was accepted (ms since the epoch). */
  at: number;
  state: SendState;
  recipient?: string;
  portal_message_id?: string;
  transaction?: string;
}

/** Entries older than this are forgotten (they only serve the duplicate guard and diagnostics). */
const KEEP_MS = 7 * 24 * 60 * 60_000;
const KEEP_MAX = 100;

export class SendJournal {
  private readonly path: string;
  private entries: JournalEntry[] = [];

  constructor(options: { dataDir: string; account: string }) {
    this.path = join(options.dataDir, 'messages', `${safeName(options.account)}-sent.json`);
  }

  /** Reads the journal; entries left pending by the last run become unknown and are returned. */
  async load(onCorrupt?: (error: Error) => void): Promise<JournalEntry[]> {
    const saved = await readStored(this.path, journalSchema, { onBroken: onCorrupt });
    this.entries = saved?.entries ?? [];
    const interrupted = this.entries.filter((e) => e.state === 'pending');
    if (interrupted.length > 0) {
      for (const e of interrupted) e.state = 'unknown';
      await this.save();
    }
    return interrupted.map((e) => ({ ...e }));
  }

  /** The newest press of a message after `since` that did or may have gone out. */
  lastSince(message: string, since: number): JournalEntry | undefined {
    return this.entries.filter((e) => e.message === message && e.at > since && e.state !== 'refused').at(-1);
  }

  /** Records a press before its POST; resolves once the entry is safely on disk. */
  async begin(entry: JournalEntry, now: number): Promise<void> {
    this.entries = this.entries.filter((e) => now - e.at < KEEP_MS).slice(-(KEEP_MAX - 1));
    this.entries.push(entry);
    await this.save();
  }

  async finish(key: string, state: Exclude<SendState, 'pending'>, extra: Partial<JournalEntry> = {}): Promise<void> {
    const entry = this.entries.find((e) => e.key === key);
    if (!entry) return;
    Object.assign(entry, extra, { state });
    await this.save();
  }

  private save(): Promise<void> {
    return writeJson(this.path, { version: 1, entries: this.entries });
  }
}

const entrySchema = z.object({
  key: z.string(),
  message: z.string(),
  at: z.number(),
  state: z.enum(['pending', 'sent', 'refused', 'unknown']),
  recipient: z.string().optional(),
  portal_message_id: z.string().optional(),
  transaction: z.string().optional(),
}) satisfies z.ZodType<JournalEntry, unknown>;

const journalSchema = z.object({ version: z.literal(1), entries: z.array(entrySchema) });
