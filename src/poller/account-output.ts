// What the account runner publishes about its child: the device with its entities, the states a poll
// or a command computed, the calendar feeds, a poll's events (through the event gate), `last_update`
// and `problem`, and whether the child is available. The runner decides when; this decides what goes out, in which order.
import { isoWarsaw } from '../util/time.js';
import { lastUpdate, passwordChangeAdvised, problem, type ProblemFacts } from '../features/status.js';
import type { AccountFigures } from './figures.js';
import type { Publisher } from '../ha/publisher.js';
import type { EntityDef } from '../feature-kit/entities.js';
import type { EntityState } from '../feature-kit/state.js';
import type { Host } from '../feature-kit/resource.js';
import type { LoginAdvice } from '../portal/session.js';
import type { RoadName } from '../portal/roads.js';
import type { CycleOutcome } from './feature-runs.js';
import { FEED_NAMES, type FeedContents } from '../school/calendar-feeds.js';
import type { AccountChild } from './child.js';
import type { EventGate } from './event-gate.js';
import type { AccountHealth } from './health.js';

export interface AccountOutputOptions {
  publisher: Publisher;
  child: AccountChild;
  health: AccountHealth;
  gate: EventGate;
  /** The child's entities now: the fixed ones, the configured ones and those that follow the data. */
  entities: () => EntityDef[];
  /** What the portal session advises about logging in, for `problem`. */
  advice: () => LoginAdvice | undefined;
  /** The account's figures: its diagnostic entities, and the problems they note. */
  figures: AccountFigures;
  /** A child on both roads: the one it is read through now, for `problem` (undefined on one road). */
  road?: () => RoadName | undefined;
}

export class AccountOutput {
  constructor(private readonly options: AccountOutputOptions) {}

  /** Announces the child's device with every entity it has now. */
  announce(): void {
    const { publisher, child, entities } = this.options;
    publisher.setChild(child.device(entities()));
  }

  states(states: Record<string, EntityState>): void {
    const { publisher, child } = this.options;
    for (const [key, state] of Object.entries(states)) publisher.publishState(child.id, key, state);
  }

  /** A pass that ran: what it found, then `last_update`, `problem` and the availability that follow. */
  async polled(hosts: readonly Host[], outcome: CycleOutcome, now: number): Promise<void> {
    const { health, gate } = this.options;
    const lastGood = health.lastSucceeded(hosts);
    health.succeeded(hosts, outcome.problem, now);
    // New entities are announced before their first states, so Home Assistant has them to update.
    if (outcome.entitiesChanged) this.announce();
    this.states(outcome.states);
    this.feeds(outcome.feeds);
    await gate.pass(outcome.events, { now, lastGood });
    health.lastUpdate = now;
    this.states({ [lastUpdate.key]: { state: isoWarsaw(now) }, ...this.loginStates(now), ...this.options.figures.states(now) });
    this.availability(now);
  }

  /** A pass that could not read a host (or the child at all): `problem` says why, and the child may go offline. */
  failed(hosts: readonly Host[], error: unknown, now: number): void {
    const { health } = this.options;
    health.failed(hosts, error);
    this.states({ ...this.loginStates(now), ...this.options.figures.states(now) });
    this.availability(now);
  }

  /** `problem` (noted in the figures' week of problems), and whether the portal advises changing the password (which `problem` carries too). */
  private loginStates(now: number): Record<string, EntityState> {
    const advice = this.options.advice();
    const health = this.options.health.problem(now, advice);
    // A child on both roads: `problem` says which one it is read through.
    const road = this.options.road?.();
    let state = road === undefined ? health : { ...health, attributes: { ...health.attributes, road } };
    // `since` is when the problem began, which the figures keep (through a restart too), not this poll.
    const since = this.options.figures.noteProblem(now, state.state === 'ON' ? (state.attributes as ProblemFacts) : undefined);
    if (since !== undefined) state = { ...state, attributes: { ...state.attributes, since: isoWarsaw(since) } };
    return { [problem.key]: state, [passwordChangeAdvised.key]: { state: advice !== undefined ? 'ON' : 'OFF' } };
  }

  /** Whether the broker accepted every state and event handed to it so far (a publisher without one: yes). */
  delivered(): Promise<boolean> {
    return this.options.publisher.delivered?.() ?? Promise.resolve(true);
  }

  /** Calendar feeds: a pass's, or those the last run served (at a start). */
  feeds(feeds: FeedContents): void {
    publishFeeds(this.options.publisher, this.options.child.id, feeds);
  }

  /** The child's id changed (its name became known): the old device goes, and the new id's event memory is loaded. */
  async renamed(before: string): Promise<void> {
    this.options.publisher.removeChild(before);
    await this.options.gate.load(this.options.child.id);
  }

  private availability(now: number): void {
    const { publisher, child, health } = this.options;
    const changed = health.updateOnline(now);
    if (changed !== undefined) publisher.setAvailability(child.id, changed);
  }
}

/** Publishes calendar feeds, as states are (the publisher keeps or drops them). */
export function publishFeeds(publisher: Publisher, childId: string, feeds: FeedContents): void {
  for (const name of FEED_NAMES) {
    const content = feeds[name];
    if (content !== undefined) publisher.publishFeed(childId, name, content);
  }
}
