// A feature's computation: from the copies of the portal's resources it says it reads (its `reads`,
// features/feature.ts), the outputs of the features it names and the date, it makes one part of the
// register into entity states and events. When each copy is read is its declaration's (src/engine/resources/),
// never the feature's.
import type { DeclaredStates } from './state.js';
import type { NewsItem } from '../rules/news.js';
import type { Tracking } from '../once/tracked.js';
import type { Identity } from './identity.js';
import type { Logger } from '../util/log.js';
import type { Copies, Want } from './resource.js';
import type { Downloads } from '../portal/attachments/background.js';
import type { CalendarFeedContents } from '../rules/calendar-feeds.js';
import type { YearSeries } from './series.js';

/** What an event carries beside its type: the fields an automation reads. */
export type EventFields = Record<string, unknown>;

/**
 * The outputs features hand to the features that read them, by feature name. Each feature with an
 * output adds its own entry where it declares it (`declare module './source.js' {
 * interface FeatureOutputs { timetable: TimetableOutput } }`), so a reader that misspells a name or
 * reads a field the output lacks fails to compile.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the features (declaration merging)
export interface FeatureOutputs {}

/** A feature's inputs: the last output of each feature it names (none before that one's first good pass). */
export type Inputs = { readonly [N in keyof FeatureOutputs]?: FeatureOutputs[N] };

export interface SourceContext {
  /** The copies of what the feature says it reads: it computes from them and never asks the portal. */
  cache: Copies;
  /**
   * The last outputs of the features this one declares as inputs, by feature name (their passes ran
   * earlier in the same cycle; a failed one leaves its previous output).
   */
  inputs: Inputs;
  identity: Identity;
  now: number;
  /** Today's date in Warsaw (YYYY-MM-DD). */
  today: string;
  /** A person asked for this pass (a refresh). */
  asked: boolean;
  /** Present when the account has downloads on. */
  downloads?: Downloads;
  /** The copies read on demand that it names among its reads (ReadsContext.onDemand): a person asked for them. */
  onDemand?: readonly Want[];
  log: Logger;
}

export interface SourceResult {
  /** The states its entities' declarations made of this pass's view; none: what was published stays. */
  states?: DeclaredStates;
  /** New-item candidates by event kind; the seen memory decides which ones fire. */
  events?: Record<string, NewsItem<EventFields>[]>;
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
  calendarFeeds?: CalendarFeedContents;
  /** Its figures of the school year day by day (the averages, the attendance), for the sinks that keep the year. */
  year?: YearSeries;
  /**
   * What the feature keeps for Assist of this pass's view (its `ask` part reads it: features/screens/ask.ts), typed
   * where it is made (`… satisfies TimetableAsk`); none: what it kept stands.
   */
  ask?: unknown;
}

/** What the features kept for Assist in a pass, by feature name (SourceResult.ask). */
export type AskFacts = Readonly<Record<string, unknown>>;

export interface Source {
  compute(ctx: SourceContext): Promise<SourceResult>;
  /**
   * Its states before its first read, as honest unknowns in the entities' own shape: what a start's
   * first pass publishes for a feature kept for later (all it reads waits: Schedule.notAtStart) on a first run.
   */
  unknown?(): DeclaredStates;
  /** The states recomputed for a new day without asking the portal (when not due). */
  restate?(ctx: SourceContext): DeclaredStates | undefined;
  /**
   * The next instant after `now` at which restate would show something else (a lesson starts or
   * ends); the runner then calls restate, without a pass. Null when nothing moves before the next pass.
   */
  nextBoundary?(now: number): number | null;
}
