// The change feed's device of one child (live-notes 28): the id the portal gave at registration, the road
// it was registered on and when, and until when a refused registration is not tried again on each road.
// One file per login in data_dir/change-feed/, 0600, written atomically and only when it changes. The id
// reads the child's changes, so it stays here: never in a log line, MQTT or the diagnostics bundle (which
// lists this file under the login's hint, without its content).
import * as z from 'zod';
import { LoginFile } from '../../util/stored.js';

export const CHANGE_FEED_FOLDER = 'change-feed';

/** The roads a child is read on (portal/roads.ts names them alike; the store sits below the portal). */
const road = z.enum(['register', 'family']);

const refusal = z.object({
  /** Not tried again on this road before this time (ms). */
  until: z.number(),
  /** The status the portal refused with (400, 403, ...). */
  status: z.number(),
});

const savedSchema = z.object({
  version: z.literal(1),
  device: z
    .object({
      /** The portal's `pushDevice`; the client's own check of what an id may be. */
      id: z.string().regex(/^[\w-]{1,40}$/),
      road,
      /** When it was registered (ms). */
      registeredAt: z.number(),
    })
    .optional(),
  refused: z.object({ register: refusal.optional(), family: refusal.optional() }).optional(),
});

export type SavedChangeFeedDevice = z.infer<typeof savedSchema>;
export type ChangeFeedRoad = z.infer<typeof road>;

export class ChangeFeedDeviceStore extends LoginFile<typeof savedSchema> {
  constructor(dataDir: string, login: string) {
    super(dataDir, CHANGE_FEED_FOLDER, login, savedSchema);
  }

  /** Written durably, and only when it changed (most reads change nothing here); rejects an id that is none. */
  override async save(state: SavedChangeFeedDevice): Promise<void> {
    await super.save(savedSchema.parse(state));
  }
}
