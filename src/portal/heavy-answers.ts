// The portal resources whose answer broke a pass, per login, in data_dir/answers/<login>.json: one
// refused as too large, or one the process was still reading when it died (a large answer is marked
// before it is parsed and cleared after). Under Docker or the watchdog a bridge that dies on an answer
// starts again at once; without this memory it would ask for the same answer and die again, in a
// loop. What the last run left here holds that resource back at start, an hour at first and longer
// each time it breaks again; a good answer clears it.
import * as z from 'zod';
import { LoginFile } from '../util/stored.js';
import { HOUR } from '../util/duration.js';

/** The longest a resource is held back after a start (the hold doubles with each break up to this). */
const MAX_HOLD_MS = 16 * HOUR;

const entrySchema = z.object({
  /** When the answer broke the pass (ms since the epoch). */
  at: z.number(),
  reason: z.enum(['too_large', 'unfinished']),
  /** How many breaks in a row. */
  times: z.number().int().min(1),
});
type Entry = z.infer<typeof entrySchema>;

const fileSchema = z.record(z.string(), entrySchema);

export interface HeavyAnswersOptions {
  dataDir: string;
  login: string;
  now: () => number;
  /** Told once per resource the last run left held back. */
  onHeld?: (endpoint: string, entry: Entry, until: number) => void;
  onBroken?: (error: Error) => void;
}

export class HeavyAnswers {
  private readonly file: LoginFile<typeof fileSchema>;
  /** Endpoint -> held back until, from what the last run left (decided once, at the first read). */
  private held = new Map<string, number>();
  private loading: Promise<Record<string, Entry>> | undefined;

  constructor(private readonly options: HeavyAnswersOptions) {
    this.file = new LoginFile(options.dataDir, 'answers', options.login, fileSchema);
  }

  /** Until when the endpoint is not asked (undefined: ask). */
  async heldUntil(endpoint: string): Promise<number | undefined> {
    await this.load();
    const until = this.held.get(endpoint);
    if (until !== undefined && until > this.options.now()) return until;
    this.held.delete(endpoint);
    return undefined;
  }

  /** Records a break (before a large answer is parsed: 'unfinished'); resolves once it is on disk. */
  async mark(endpoint: string, reason: Entry['reason']): Promise<void> {
    const entries = await this.load();
    const before = entries[endpoint];
    entries[endpoint] = { at: this.options.now(), reason, times: Math.min((before?.times ?? 0) + 1, 10) };
    await this.file.save(entries);
  }

  /** The endpoint answered and was read: it is no longer held back at the next start. */
  async clear(endpoint: string): Promise<void> {
    const entries = await this.load();
    if (entries[endpoint] === undefined) return;
    delete entries[endpoint];
    await this.file.save(entries);
  }

  private load(): Promise<Record<string, Entry>> {
    this.loading ??= this.file.load(this.options.onBroken).then((saved) => {
      const entries: Record<string, Entry> = { ...saved };
      for (const [endpoint, entry] of Object.entries(entries)) {
        const until = entry.at + Math.min(MAX_HOLD_MS, HOUR * 2 ** (entry.times - 1));
        if (until <= this.options.now()) continue;
        this.held.set(endpoint, until);
        this.options.onHeld?.(endpoint, entry, until);
      }
      return entries;
    });
    return this.loading;
  }
}
