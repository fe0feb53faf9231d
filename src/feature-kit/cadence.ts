// The ages of the copies that only age (lookups, lists read a few times a day), by kind.
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** How old each kind of resource may be before it is fetched again (plan.ts's HOURLY says why an hour). */
export const CADENCE = {
  hourly: HOUR,
  /** Lists that change a few times a term (trips, meetings) or that only a parent's action changes. */
  rare: 3 * HOUR - 5 * MINUTE,
  daily: DAY - 10 * MINUTE,
  weekly: 7 * DAY,
  /** An optional list that was empty last time (a kind of grade the school does not use). */
  whileEmpty: 6 * HOUR - 5 * MINUTE,
  /** A lookup that misses an id is read again, but not more often than this. */
  onMiss: 10 * MINUTE,
} as const;

