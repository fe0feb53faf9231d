// What a declaration says of when its copies are read (a Schedule: its ages at each kind of moment, what
// vouches for it, what a refresh does), and what is known of a copy when the planner is asked about it
// (Known). The planner (plan.ts) answers from these; docs/polling.md is generated from the declarations.

/**
 * The kinds of moment of a child's day, what ages vary by (moments.ts): `lessons`, from the first lesson's
 * start to an hour after the last one's end on a school day, within 07:00 to 21:00; `night`, 22:00 to 06:00
 * on any day; `day`, the rest (a school day's morning and evening, a weekend, a free day, the holidays).
 */
export const MOMENTS = ['lessons', 'day', 'night'] as const;
export type Moment = (typeof MOMENTS)[number];

/**
 * How old a copy may be: milliseconds (Infinity: age alone never reads it again) or a configured interval
 * by name: `news` is poll.school_interval (what must reach a family within minutes while lessons are on),
 * `normal` poll.interval, `fast` poll.fast_interval (hourly inside poll.quiet_hours).
 */
export type Age = number | keyof Intervals;
export type Freshness = Readonly<Record<Moment, Age>>;

/** When a resource is read, as its declaration states it (see resource.ts). */
export interface Schedule {
  /** The resource as the documentation names it (`Grades`, `messaging inbox/messages`). */
  readonly name: string;
  readonly fresh: Freshness;
  /**
   * The cheap signal that vouches for the copy (its documentation name) and how old the copy may be
   * while it does. A changed signal reads the resource at once; a missing one leaves `fresh`.
   */
  readonly vouch?: { readonly by: string; readonly fresh: Freshness };
  /** While the last copy's list was empty (a kind of grade the school does not use), it may be this old. */
  readonly whileEmptyMs?: number;
  /**
   * A lookup that lacks an id a record names is read at once, in the same pass (a new grade's comment, a new
   * teacher's name, before its event fires); an id still missing after that read, again once this old.
   */
  readonly missAgeMs?: number;
  /** Ages of a copy wanted ahead of need (next week's timetable for the calendar feeds). */
  readonly ahead?: Freshness;
  /**
   * A copy wanted ahead of need is read in a start's first pass too, not left for the next (next week's timetable:
   * Assist, the calendars and the board know next week from the first pass, interface 18.2).
   */
  readonly aheadAtStart?: true;
  /**
   * Hours of a school day (`07:00-21:00`) in which its `lessons` age holds outside lessons too: the change
   * change feed's own (src/engine/resources/change-feed.ts), none else.
   */
  readonly hours?: string;
  /**
   * What a person's asking (a refresh) does: `read` reads it now (the default of what a family hears
   * of: a school year of records that is no lookup, what the change feed names, the messaging host's
   * lists); `read refused` reads it even while the portal refuses it (a school may start the lucky
   * number any morning); `unvouched` keeps the moment's age but trusts no signal (an edit keeps the
   * ids); `keep` changes nothing (a lookup).
   */
  readonly whenAsked: 'read' | 'read refused' | 'unvouched' | 'keep';
  /**
   * A copy that must be of the day (who the child is: its class, tutor and the year's dates): read at the
   * first pass from this wall time ('06:00') of each day after the one it was read on, whatever its age.
   * A year's edges (EndFirstSemester, EndSchoolYear, 1 September) are days like any other, so the first
   * pass on each of them reads it as well.
   */
  readonly daily?: string;
  /** Not read in a start's first pass (a start's requests are the budget's dearest); read at the next. */
  readonly notAtStart?: true;
  /** How long a refusal (403, a switched-off module) stands before the portal is asked again (a day when not given). */
  readonly refusedForMs?: number;
  /** Read at night by its ages too (the bench's naive schedule, a client with no night; the plan table's ages alone): the bridge's own never are. */
  readonly readsAtNight?: true;
  /** Why the ages are what they are, for the generated documentation. */
  readonly note?: string;
}

/** The configured intervals, in milliseconds. */
export interface Intervals {
  news: number;
  normal: number;
  fast: number;
}

/** What is known of a copy when the plan is asked about it (each field's rule is a row of next). */
export interface Known {
  /** When the copy was read; undefined when there is none. */
  readAt?: number;
  /** The copy's list was empty (Schedule.whileEmptyMs). */
  empty?: boolean;
  refusedUntil?: number;
  /**
   * The vouching signal: the same as when the copy was read, changed since (or the bridge itself changed it), or
   * none. For a copy not read yet, `changed` means the bridge itself changed it (it has no earlier value to differ from).
   */
  signal?: 'same' | 'changed' | 'none';
  /** A person asked for a refresh (what Schedule.whenAsked says). */
  asked?: 'refresh';
  failedAt?: number;
  /** The copy answers its question until then, whatever its age or a failed read since (the lucky number once known). */
  settledUntil?: number;
  /** The look is a start's first pass (Schedule.notAtStart). */
  startPass?: boolean;
  /** A record names an id the copy lacks (Schedule.missAgeMs): `new` one not asked for since it was named, else `asked`. */
  missing?: 'new' | 'asked';
  /** It is wanted ahead of need only (Schedule.ahead). */
  ahead?: boolean;
  /** It is read only when a person asks for it (Want.onDemand): never by a pass. */
  onDemand?: boolean;
}

/** Why a copy is read when it is (the diagnostics' `why`; each is defined in docs/development.md's glossary). */
export type Why = 'asked' | 'no copy' | 'signal' | 'failed' | 'missing' | 'age' | 'new day' | 'refused' | 'settled' | 'after start' | 'on demand';

/**
 * When a copy is read: from `at` on (at or before the clock: now), by `by` at the latest (the scheduler's
 * wake; past `at` by its SLACK), why, and for `age` which one (`lessons 5 min`, `feed safety 8 h`).
 */
export interface When {
  at: number;
  by: number;
  why: Why;
  age?: string;
  /** The night moved it to the morning (it fell due in the night). */
  night?: true;
}

/** An age never shorter than `ms` (the change feed's safety age, plan.ts; the bench's reference hour): a configured interval gives way to it. */
export function atLeast(age: Age, ms: number): Age {
  return typeof age === 'number' && age >= ms ? age : ms;
}

/** The same age at every moment. */
export function always(age: Age): Freshness {
  return { lessons: age, day: age, night: age };
}
