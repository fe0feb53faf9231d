// What a feature declares in one place: its entities, its tier and poll, the other features whose
// outputs it reads (by name), and the handlers of the commands its buttons send.
import type { FeedContents } from '../school/calendar-feeds.js';
import type { EntityDef } from '../feature-kit/entities.js';
import type { EntityState } from '../feature-kit/state.js';
import type { CommandRequest } from '../feature-kit/commands.js';
import type { Gateway } from '../portal/gateway.js';
import type { ResourceCache } from '../feature-kit/resources.js';
import type { MessagesApi } from '../portal/messaging-api.js';
import type { Outbox } from '../messaging/guard.js';
import type { Downloads } from '../feature-kit/files.js';
import type { AccountConfig } from '../config/schema.js';
import type { Identity } from '../feature-kit/identity.js';
import type { Source, Tier } from '../feature-kit/source.js';
import type { PlanRow } from '../feature-kit/plan.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import type { Language } from '../config/language.js';

/** What one account gives its features when it makes their per-account state. */
export interface FeatureAccess {
  account: AccountConfig;
  /** The account's copies of the register, by the table's rows (what a feature reads outside its poll, it reads through them). */
  cache: ResourceCache;
  messages: MessagesApi;
  /** The account's one way to send a message: every kind of send goes through its guards. */
  outbox: Outbox;
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
  clock: Clock;
  log: Logger;
}

/**
 * What a command handler may do with the account beside its own feature's state. A handler runs in the
 * account's queue, after whatever the account was doing and never at the same time as a poll, unless
 * its command is `concurrent` (it only waits for the account: a refresh).
 */
export interface CommandAccount {
  gateway: Gateway;
  /** The account's copies: what a command reads, it reads through the table's rows. */
  cache: ResourceCache;
  /** Publishes states computed outside a poll. */
  publishStates(states: Record<string, EntityState>): void;
  /** Polls every tier now; resolves when done. */
  refresh(): Promise<void>;
  /**
   * Reads again what the command changed on the portal: a pass of the tier right after the command
   * (its due rows, and what the command marked: the counters after an open, the sent box after a send).
   */
  readAgain(tier: Tier): void;
}

/**
 * A command handler, given its own feature's state. (Declared as a method so that a feature with a
 * narrower state still fits in the list of features.)
 */
export type FeatureCommand<S> = {
  handle(request: CommandRequest, account: CommandAccount, state: S): Promise<Record<string, unknown>>;
}['handle'];

/** A feature's per-account state: its poll (when it has a tier) and what it needs at start. */
export interface FeatureState extends Partial<Source> {
  /** Restores what the feature keeps in data_dir, before the first poll. */
  prepare?(): Promise<void>;
  /**
   * Entities that follow the data (one per subject): what the feature has now, after its last poll or
   * as restored by prepare(). The child is announced again whenever their keys change.
   */
  dynamic?(): EntityDef[];
  /** Calendar feeds the last run served, restored by prepare(): published before the first read. */
  restoredFeeds?(): FeedContents | undefined;
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
  /** The tier its poll runs in; a feature without one is never polled. */
  readonly tier?: Tier;
  /** Its rows of the fetch plan: when each resource it reads is read (docs/polling.md is generated from them). */
  readonly plan?: readonly PlanRow[];
  /** Features whose poll must run first in the same cycle, because this one reads their outputs. */
  readonly inputs?: readonly string[];
  /** Makes the feature's state for one account. */
  readonly create: (access: FeatureAccess) => S;
  /** Handlers of the commands its buttons send, by command key. */
  readonly commands?: Readonly<Record<string, FeatureCommand<S>>>;
  /** Commands that only wait for the account (a refresh): they do not hold up the child's other commands. */
  readonly concurrent?: readonly string[];
  /** Commands whose payload may be larger than the usual 1 KB (a message's text), with their limit in bytes. */
  readonly payloadBytes?: Readonly<Record<string, number>>;
}

/** Declares a feature (infers its state type from `create`). */
export function feature<S extends FeatureState>(declared: Feature<S>): Feature<S> {
  return declared;
}

/**
 * Whether a start's first pass leaves the feature for later: every row it reads says so
 * (PlanRow.notAtStart). It publishes what the last run kept of its states meanwhile.
 */
export function keptForLater(feature: Feature): boolean {
  const rows = feature.plan ?? [];
  return rows.length > 0 && rows.every((row) => row.notAtStart === true);
}
