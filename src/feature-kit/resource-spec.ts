// What a feature asks the resource cache for: a resource of the register, its row of the fetch plan,
// and what tells about its copy (its list, its signal, its own rule of when it is settled).
import type { z } from 'zod';
import type { PlanRow } from './plan.js';

export interface ResourceSpec<S extends z.ZodType> {
  endpoint: string;
  schema: S;
  /** The resource's row of the fetch plan; without one, the copy may be `maxAgeMs` old at every moment. */
  row?: PlanRow;
  maxAgeMs?: number;
  query?: Record<string, string>;
  /** POST with this JSON body instead of GET. */
  post?: unknown;
  /** How long a refusal is remembered (default a day). */
  refusedForMs?: number;
  /** On a failure, answer the last good value instead of failing (for lookups). */
  staleOnError?: boolean;
  /**
   * A cheap fingerprint of the list (its ids in the class calendar) for a row with `vouch`: when it is
   * not the one the copy was fetched under, the copy is stale whatever its age; while it is, the row's
   * vouched age applies (an edit keeps the ids, so it is still bounded). Undefined: no signal this time.
   */
  signal?: string;
  /**
   * The list inside the answer, for an optional kind of data (a kind of grade the school may not
   * use): while the last copy's list is empty, it may be CADENCE.whileEmpty old.
   */
  list?: (value: z.output<S>) => readonly unknown[] | undefined;
  /** Ask the portal now, whatever the copy's age or a remembered refusal (a user's refresh). */
  askNow?: boolean;
  /** Until when a feature wants the copy at all (a week's timetable: until that week ends): the scheduler reads it for no one after. */
  wantedUntil?: number;
  /** Until when the copy answers its question whatever its age (the row's own rule; see Known.settledUntil). */
  settled?: (value: z.output<S>) => number | undefined;
}

