// What a feature declares in one place: its entities, what it reads and how it computes, the other
// features whose outputs it reads (by name), the handlers of the commands its buttons send, and its
// parts of the board, the dashboard and `check` (features/screens/parts.ts) and Assist's (features/screens/ask.ts).
import type { KnownItems } from '../once/memory.js';
import type { AccountConfig, Averaging } from '../config/schema.js';
import type { CalendarFeedContents } from '../rules/calendar-feeds.js';
import type { EntityDef } from './kit/entities.js';
import type { DeclaredStates } from '../engine/state.js';
import type { CommandRequest } from './kit/commands.js';
import type { Gateway } from '../portal/gateway.js';
import type { ResourceCache } from '../engine/cache.js';
import type { Copies, Resource, Want } from '../engine/resource.js';
import type { MessagesApi } from '../portal/messaging-api.js';
import type { SendGuard } from './messaging/guard.js';
import type { Downloads } from '../portal/attachments/background.js';
import type { Identity } from '../engine/identity.js';
import type { AskFacts, Source } from '../engine/source.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import type { Language } from '../config/language.js';
import type { BoardPart, CheckProbe, DashboardPart } from './screens/parts.js';
import type { AskPart } from './screens/ask.js';

/** What one account gives its features when it makes their per-account state. */
export interface FeatureAccess {
  account: AccountConfig;
  /** The account's copies (what a feature reads outside its computation, a command's, it reads through their declarations). */
  cache: ResourceCache;
  messages: MessagesApi;
  /** The account's one way to send a message: every kind of send goes through its guards. */
  sendGuard: SendGuard;
  /** The child's downloader (downloads on only), for the child's id as it is now. */
  downloads: () => Downloads | undefined;
  /** The child as last learned (undefined before the first identity). */
  identity: () => Identity | undefined;
  /** The child's id in topics and URLs as the account knows it now (configured, else the first name's slug). */
  childId: () => string;
  dataDir: string;
  /** The language of the words a feature puts in a state (the config's `language`). */
  language: Language;
  /** The config's grading.thresholds: the average from which each grade 2..6 is given. */
  thresholds: readonly number[];
  /** The config's grading.average: a subject's average by the categories' weights, or a plain mean. */
  averaging: Averaging;
  clock: Clock;
  log: Logger;
  /** What the child's event memory holds of an event kind (the gate's): what a feature's own record, lost, is rebuilt from. */
  events?: { known(kind: string): KnownItems | undefined };
}

/**
 * What a command handler may do with the account beside its own feature's state. A handler runs in the
 * account's queue, after whatever the account was doing and never at the same time as a pass, unless
 * its command is `concurrent` (it only waits for the account: a refresh).
 */
export interface CommandAccount {
  gateway: Gateway;
  /** The account's copies: what a command reads, it reads through their declarations (`cache.read(want)`). */
  cache: ResourceCache;
  /**
   * Publishes states computed outside a pass (by the feature's declarations, statesOf), with what the feature keeps
   * for Assist when that moved too (`ask`, by feature name: SourceResult.ask).
   */
  publishStates(states: DeclaredStates, ask?: AskFacts): void;
  /** Reads everything a person's asking reads, now; resolves when done. */
  refresh(): Promise<void>;
  /**
   * Reads again what the command changed on the portal (`moved`: the counters after an open, the sent box
   * after a send): marked moved, it is read by a pass right after the command, with what else is due.
   */
  readAgain(moved: Resource): void;
}

/**
 * A command handler, given its own feature's state. (Declared as a method so that a feature with a
 * narrower state still fits in the list of features.)
 */
export type FeatureCommand<S> = {
  handle(request: CommandRequest, account: CommandAccount, state: S): Promise<Record<string, unknown>>;
}['handle'];

/** A feature's per-account state: its computation (`pass`) and what it needs at start. */
export interface FeatureState extends Partial<Source> {
  /** Restores what the feature keeps in data_dir, before the first pass. */
  prepare?(): Promise<void>;
  /**
   * Entities that follow the data (one per subject): what the feature has now, after its last pass or
   * as restored by prepare(). The child is announced again whenever their keys change.
   */
  dynamic?(): EntityDef[];
  /** Calendar feeds the last run served, restored by prepare(): published before the first read. */
  restoredCalendarFeeds?(): CalendarFeedContents | undefined;
}

export interface Feature<S extends FeatureState = FeatureState> {
  readonly name: string;
  /** Every entity the feature may publish for a child, events and buttons included. */
  readonly entities: readonly EntityDef[];
  /** Entities that follow the account's configuration (the fixed messages' buttons). */
  readonly configured?: (account: AccountConfig) => EntityDef[];
  /**
   * Entities its state makes from the data (FeatureState.dynamic), as documentation lists them: one
   * standing for all, e.g. `average_<subject>`.
   */
  readonly dynamicExamples?: readonly EntityDef[];
  /** Its entities that follow the data as the last run saved them in data_dir, read without moving anything (`dashboard`). */
  readonly savedEntities?: (dataDir: string, login: string) => Promise<EntityDef[]>;
  /**
   * The copies it computes from, now: static for most, from the date, the child and the copies held
   * where it depends on them (next week's timetable, the kinds of grade the school uses, a lookup that
   * lacks an id). The scheduler reads what is due among them; the feature runs when one moved. A
   * feature without reads computes from other features' outputs, when one of them moved.
   */
  readonly reads?: (ctx: ReadsContext) => readonly Want[];
  /**
   * Its states move with the clock beyond its inputs (the briefing's next school day, once the lessons
   * end): it computes at every pass. Without, a feature computes when what it takes in moved.
   */
  readonly everyPass?: true;
  /** It saves files while downloads are on: it computes at every pass then (a file asked for, one found saved). */
  readonly downloads?: true;
  /** Features whose pass must run first in the same cycle, because this one reads their outputs. */
  readonly inputs?: readonly string[];
  /** Makes the feature's state for one account. */
  readonly create: (access: FeatureAccess) => S;
  /** Handlers of the commands its buttons send, by command key. */
  readonly commands?: Readonly<Record<string, FeatureCommand<S>>>;
  /** Commands that only wait for the account (a refresh): they do not hold up the child's other commands. */
  readonly concurrent?: readonly string[];
  /** Commands whose payload may be larger than the usual 1 KB (a message's text), with their limit in bytes. */
  readonly payloadBytes?: Readonly<Record<string, number>>;
  /** Its boxes on the family board's card (or its items of a list box), from the child's published states. */
  readonly board?: BoardPart;
  /** Its cards in the dashboard's views: a banner, a summary fact, cards in the family view, the child's view and diagnostics. */
  readonly dashboard?: DashboardPart;
  /** Its line among `check`'s modules. */
  readonly check?: CheckProbe;
  /** What Assist may ask of it (interface 17.1), from the facts its computation keeps for Assist (SourceResult.ask). */
  readonly ask?: AskPart<unknown>;
}

/** Declares a feature (infers its state type from `create`). */
export function feature<S extends FeatureState>(declared: Feature<S>): Feature<S> {
  return declared;
}

/** What a feature's reads are decided from. */
export interface ReadsContext {
  /** The copies held (their last good values). */
  copies: Copies;
  identity: Identity;
  account: AccountConfig;
  /** Today's date in Warsaw (YYYY-MM-DD). */
  today: string;
  /**
   * The copies a person asked for on demand (Assist, engine/on-demand.ts), each marked `onDemand`: a feature names
   * those of its own resources among its reads to compute from them; no pass reads them.
   */
  onDemand: readonly Want[];
}

/**
 * Whether a start's first pass leaves the feature for later: all it reads waits (Schedule.notAtStart).
 * It publishes what the last run kept of its states meanwhile.
 */
export function keptForLater(wants: readonly Want[]): boolean {
  return wants.length > 0 && wants.every((w) => w.res.notAtStart === true);
}
