// A feature's poll: it reads one part of the portal for one child and turns it into entity states and
// events. The account poller runs the polls of a tier; what each reads when is its rows' answer in the
// fetch plan (plan.ts), never the feature's own.
import type { EntityState } from './state.js';
import type { NewItem } from '../store/seen.js';
import type { Tracking } from '../store/tracked.js';
import type { Identity } from './identity.js';
import type { Logger } from '../util/log.js';
import type { ResourceCache } from './resources.js';
import type { Names } from '../school/names.js';
import type { Downloader } from '../portal/downloads.js';
import type { BackgroundFiles } from './files.js';
import type { CalendarSignals } from './calendar.js';
import type { FeedContents } from '../school/calendar-feeds.js';

export type Tier = 'fast' | 'normal';

/** What an event carries beside its type: the fields an automation reads. */
export type EventFields = Record<string, unknown>;

/** The lookups every feature reads alike, kept by the account between polls. */
export interface LookupMemory {
  /** The names last read (Subjects, Users, Classrooms). */
  names?: Names;
  /** The class calendar's signals, read once per poll (keyed by the poll's start time). */
  calendar?: { at: number; signals: Promise<CalendarSignals> };
  /** How many times the calendar's signals were asked for (a poll that asks depends on them). */
  calendarAsks?: number;
}

/**
 * The outputs features hand to the features that read them, by feature name. Each feature with an
 * output adds its own entry where it declares it (`declare module '../feature-kit/source.js' {
 * interface FeatureOutputs { timetable: TimetableOutput } }`), so a reader that misspells a name or
 * reads a field the output lacks fails to compile.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the features (declaration merging)
export interface FeatureOutputs {}

/** A feature's inputs: the last output of each feature it names (none before that one's first good poll). */
export type Inputs = { readonly [N in keyof FeatureOutputs]?: FeatureOutputs[N] };

export interface SourceContext {
  /** The register's copies, by the table's rows: a poll reads the register through it alone (it has no gateway). */
  cache: ResourceCache;
  lookups: LookupMemory;
  /**
   * The last outputs of the features this one declares as inputs, by feature name (their polls ran
   * earlier in the same cycle; a failed one leaves its previous output).
   */
  inputs: Inputs;
  identity: Identity;
  now: number;
  /** Today's date in Warsaw (YYYY-MM-DD). */
  today: string;
  /** The poll was asked for by a user (refresh): skip "not due yet" shortcuts. */
  forced: boolean;
  /** Present when the account has downloads on. */
  downloads?: { downloader: Downloader; files: BackgroundFiles };
  log: Logger;
}

export interface SourceResult {
  states: Record<string, EntityState>;
  /** New-item candidates by event kind; the seen memory decides which ones fire. */
  events?: Record<string, NewItem<EventFields>[]>;
  /**
   * Kinds whose records' edits and removals are news too (interface 8.3): their candidates are every
   * record still in scope, and this says what is compared and which lists were read.
   */
  tracked?: Record<string, Tracking>;
  /**
   * The answer parsed but looks wrong (e.g. no grade names a subject): the states are published and
   * `problem` says unexpected_response, naming the source.
   */
  suspicious?: string;
  /** What the features that name this one as an input read (see SourceContext.inputs). */
  output?: unknown;
  /**
   * The child's calendar feeds (interface 6.5), which no entity can hold: published like states, but
   * only the web server keeps them.
   */
  feeds?: FeedContents;
}

export interface Source {
  poll(ctx: SourceContext): Promise<SourceResult>;
  /**
   * Its states before its first read, as honest unknowns in the entities' own shape: what a start's
   * first pass publishes for a feature kept for later (its rows all say PlanRow.notAtStart) on a first run.
   */
  unknown?(): SourceResult['states'];
  /** The states recomputed for a new day without asking the portal (when not due). */
  restate?(ctx: SourceContext): SourceResult["states"];
  /**
   * The next instant after `now` at which restate would show something else (a lesson starts or
   * ends); the runner then calls restate, without a poll. Null when nothing moves before the next poll.
   */
  nextBoundary?(now: number): number | null;
}
