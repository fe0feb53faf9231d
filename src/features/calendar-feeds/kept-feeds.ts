// What the calendar feeds last served, kept in data_dir/feeds/<login>.json: after a restart a feed
// answers with it until a new read replaces it, so a calendar that refreshes at the wrong moment is
// never handed an empty one (Home Assistant's Remote Calendar or a phone would wipe the child's days).
import { join } from 'node:path';
import { z } from 'zod';
import { KeptJson } from '../../store/stored.js';
import { safeName } from '../../store/files.js';
import type { FeedContents } from '../../school/calendar-feeds.js';

export const KEPT_FEEDS_FOLDER = 'feeds';

/** A feed's content as written by the bridge itself: its shape is the bridge's, checked loosely. */
const feedSchema = z.object({ child: z.string(), entries: z.array(z.looseObject({ uid: z.string() })) });
const keptSchema = z.object({
  version: z.literal(1),
  feeds: z.object({ lessons: feedSchema.optional(), agenda: feedSchema.optional(), 'free-days': feedSchema.optional() }),
});

export class KeptFeeds {
  private readonly file;
  /** The JSON last written (a pass that changed nothing writes nothing). */
  private written: string | undefined;

  constructor(dataDir: string, login: string) {
    this.file = new KeptJson(join(dataDir, KEPT_FEEDS_FOLDER, `${safeName(login)}.json`), keptSchema);
  }

  async load(onBroken?: (why: string) => void): Promise<FeedContents | undefined> {
    const kept = await this.file.load(onBroken);
    if (kept === undefined) return undefined;
    this.written = JSON.stringify(kept.feeds);
    return kept.feeds as FeedContents;
  }

  /** Writes the feeds when they differ from what was written last. */
  async save(feeds: FeedContents): Promise<void> {
    const json = JSON.stringify(feeds);
    if (json === this.written) return;
    await this.file.save({ version: 1, feeds: JSON.parse(json) as z.input<typeof keptSchema>['feeds'] });
    this.written = json;
  }
}
