// What an account runner persists of its figures for `dziennik2mqtt diagnostics` beside a running
// bridge: requests and logins of the day, each resource's last answer, the problems of the last week
// and the last login's transcript. One small file per login in data_dir/figures/, written after each
// pass; nothing in it is a secret or a child's data (resources are named with their ids masked).
import * as z from 'zod';
import { LoginFile, peekStored } from '../util/stored.js';

const savedSchema = z.object({
  version: z.literal(1),
  /** The child's id when it was saved. */
  child: z.string(),
  /** How the account reaches the register: `register` (a login) or the family road. */
  road: z.string(),
  saved_at: z.number(),
  /** The Warsaw day the counts below are of. */
  day: z.string(),
  requests: z.record(z.string(), z.number()),
  logins: z.number(),
  failed_logins: z.number(),
  bootstraps: z.number(),
  reads: z.record(z.string(), z.object({ status: z.string(), at: z.number(), ok_at: z.number().optional() })),
  logged_in_at: z.number().optional(),
  problems: z.array(
    z.object({
      at: z.number(),
      reason: z.string(),
      portal_message: z.string().optional(),
      resource: z.string().optional(),
      detail: z.string().optional(),
    }),
  ),
  /** The problem on when this was saved, and when it began (`problem`'s `since` across a restart). */
  problem_since: z.object({ reason: z.string(), at: z.number() }).optional(),
  last_login: z.object({ at: z.number(), outcome: z.string(), transcript: z.array(z.string()) }).optional(),
  /** The planner's rows after the last pass: the row, from when and by when it is read, and why (interface 10.1; a file of 0.8 has no `by`). */
  next_reads: z.array(z.object({ row: z.string(), at: z.number(), by: z.number().optional(), why: z.string() })).optional(),
  /** The change feed: on or not, since when, why not, on which road (live-notes 28-32). */
  change_feed: z
    .object({
      on: z.boolean(),
      since: z.number().optional(),
      why: z.string().optional(),
      road: z.string(),
      /** When the change feed was last read; the changes it lists that wait, and why; how many were acknowledged since the start. */
      lastRead: z.number().optional(),
      pending: z.array(z.object({ type: z.string(), why: z.string() })).optional(),
      acknowledged: z.number().optional(),
    })
    .optional(),
  /** A school or a kindergarten (interface 12.2): where a kindergarten's plan comes from, or where its search stands. */
  plan: z
    .object({
      account_kind: z.enum(['school', 'kindergarten']),
      plan_source: z.object({ identifier: z.string(), host: z.string() }).optional(),
      plan_search: z.object({ state: z.enum(['found', 'nothing', 'failed']), next: z.string() }).optional(),
    })
    .optional(),
  /** The school year as the child's identity last gave it (interface 13.1): its dates, the class, when it was read. */
  school_year: z
    .object({
      begins: z.string().optional(),
      first_semester_ends: z.string().optional(),
      ends: z.string().optional(),
      class: z.string().optional(),
      read_at: z.number(),
    })
    .optional(),
  /** Changes a slow safety read found that the change feed never named, by resource (since the first run). */
  feed_missed: z.record(z.string(), z.number()).optional(),
});

export type SavedFigures = z.infer<typeof savedSchema>;

/** The diagnostics' school year of a child (its `school_year`, declared once in the schema above); undefined before it is known. */
export type SchoolYearFigures = SavedFigures['school_year'];

export const FIGURES_FOLDER = 'figures';

/** The saved figures (`load`: a broken file is moved aside, told to onBroken, and the figures start anew). */
export class FiguresStore extends LoginFile<typeof savedSchema> {
  constructor(dataDir: string, login: string) {
    super(dataDir, FIGURES_FOLDER, login, savedSchema, { durable: false });
  }

  /** The saved figures read by another process (`diagnostics`): a broken file is left where it is. */
  peek(): Promise<SavedFigures | undefined> {
    return peekStored(this.path, savedSchema);
  }

  /**
   * Written after every pass: atomic, but not synced to the disk (a power cut may cost the last pass's
   * figures). Spelt out at once, as they are now (the counts go on meanwhile), and written once `after` is.
   */
  override save(figures: SavedFigures, after: Promise<unknown> = Promise.resolve()): Promise<void> {
    const text = `${JSON.stringify(figures)}\n`;
    return after.then(() => this.write(text));
  }
}
