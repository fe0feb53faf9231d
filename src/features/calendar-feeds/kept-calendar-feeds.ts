// What the calendar feeds last served, kept in data_dir/feeds/<login>.json: after a restart a calendar feed
// answers with it until a new read replaces it, so a calendar that refreshes at the wrong moment is
// never handed an empty one (Home Assistant's Remote Calendar or a phone would wipe the child's days).
import * as z from 'zod';
import { LoginFile } from '../../util/stored.js';
import type { CalendarFeedContents } from '../../rules/calendar-feeds.js';

export const KEPT_CALENDAR_FEEDS_FOLDER = 'feeds';

/** A calendar feed's content as written by the bridge itself: its shape is the bridge's, checked loosely. */
const calendarFeedSchema = z.object({ child: z.string(), entries: z.array(z.looseObject({ uid: z.string() })) });
const keptSchema = z.object({
  version: z.literal(1),
  feeds: z.object({ lessons: calendarFeedSchema.optional(), agenda: calendarFeedSchema.optional(), 'free-days': calendarFeedSchema.optional() }),
});

export class KeptCalendarFeeds {
  /** Written only when its text changed: a pass that changed nothing writes nothing. */
  private readonly file;

  constructor(dataDir: string, login: string) {
    this.file = new LoginFile(dataDir, KEPT_CALENDAR_FEEDS_FOLDER, login, keptSchema);
  }

  async load(onBroken?: (error: Error) => void): Promise<CalendarFeedContents | undefined> {
    return (await this.file.load(onBroken))?.feeds as CalendarFeedContents | undefined;
  }

  save(calendarFeeds: CalendarFeedContents): Promise<void> {
    return this.file.save({ version: 1, feeds: calendarFeeds as z.input<typeof keptSchema>['feeds'] });
  }
}
