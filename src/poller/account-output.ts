// What the account runner publishes about its child: the device with its entities, the states a poll
// or a command computed, the calendar feeds, a poll's events (through the event gate), `last_update`
// and `problem`, and whether the child is available. The runner decides when; this decides what goes out, in which order.
import { isoWarsaw } from '../util/time.js';
import { lastUpdate, problem } from '../features/status.js';
import type { Publisher } from '../ha/publisher.js';
import type { EntityDef } from '../feature-kit/entities.js';
import type { EntityState } from '../feature-kit/state.js';
import type { Tier } from '../feature-kit/source.js';
import type { LoginAdvice } from '../portal/session.js';
import type { RoadName } from '../portal/roads.js';
import { publishFeeds, type CycleOutcome } from './account-features.js';
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

  /** A poll that ran: what it found, then `last_update`, `problem` and the availability that follow. */
  async polled(tiers: Tier[], outcome: CycleOutcome, now: number): Promise<void> {
    const { health, gate } = this.options;
    const lastGood = health.lastSucceeded(tiers);
    health.succeeded(tiers, outcome.problem, now);
    // New entities are announced before their first states, so Home Assistant has them to update.
    if (outcome.entitiesChanged) this.announce();
    this.states(outcome.states);
    publishFeeds(this.options.publisher, this.options.child.id, outcome.feeds);
    await gate.pass(outcome.events, { now, lastGood });
    health.lastUpdate = now;
    this.states({ [lastUpdate.key]: { state: isoWarsaw(now) }, [problem.key]: this.problem(now) });
    this.availability(now);
  }

  /** A poll that could not run at all: `problem` says why, and the child may go offline. */
  failed(tiers: Tier[], error: unknown, now: number): void {
    const { health } = this.options;
    health.failed(tiers, error);
    this.states({ [problem.key]: this.problem(now) });
    this.availability(now);
  }

  /** The child's id changed (its name became known): the old device goes, and the new id's event memory is loaded. */
  async renamed(before: string): Promise<void> {
    this.options.publisher.removeChild(before);
    await this.options.gate.load(this.options.child.id);
  }

  /** `problem` as health says it, with the road a child on both roads is read through. */
  private problem(now: number): EntityState {
    const state = this.options.health.problem(now, this.options.advice());
    const road = this.options.road?.();
    return road === undefined ? state : { ...state, attributes: { ...state.attributes, road } };
  }

  private availability(now: number): void {
    const { publisher, child, health } = this.options;
    const changed = health.updateOnline(now);
    if (changed !== undefined) publisher.setAvailability(child.id, changed);
  }
}
