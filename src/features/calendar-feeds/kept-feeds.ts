// What the calendar feeds last served, kept in data_dir/feeds/<login>.json: after a restart a feed
// answers with it until a new read replaces it, so a calendar that refreshes at the wrong moment is
// never handed an empty one (Home Assistant's Remote Calendar or a phone would wipe the child's days).
import * as z from 'zod';
import { LoginFile } from '../../util/stored.js';
import type { FeedContents } from '../../rules/calendar-feeds.js';

export const KEPT_FEEDS_FOLDER = 'feeds';

/** A feed's content as written by the bridge itself: its shape is the bridge's, checked loosely. */
const feedSchema = z.object({ child: z.string(), entries: z.array(z.looseObject({ uid: z.string() })) });
const keptSchema = z.object({
  version: z.literal(1),
  feeds: z.object({ lessons: feedSchema.optional(), agenda: feedSchema.optional(), 'free-days': feedSchema.optional() }),
});

export class KeptFeeds {
  /** Written only when its text changed: a pass that changed nothing writes nothing. */
  private readonly file;

  constructor(dataDir: string, login: string) {
    this.file = new LoginFile(dataDir, KEPT_FEEDS_FOLDER, login, keptSchema);
  }

  async load(onBroken?: (error: Error) => void): Promise<FeedContents | undefined> {
    return (await this.file.load(onBroken))?.feeds as FeedContents | undefined;
  }

  save(feeds: FeedContents): Promise<void> {
    return this.file.save({ version: 1, feeds: feeds as z.input<typeof keptSchema>['feeds'] });
  }
}
