// How an account's polls went, and what follows from it: the `problem` state, the backoff of a
// failing tier and whether the child's entities stay available (the 3-day rule).
import { StorageError } from '../portal/errors.js';
import { problemOff, problemOn } from './problem.js';
import type { EntityState } from '../feature-kit/state.js';
import type { Language } from '../config/language.js';
import type { Tier } from '../feature-kit/source.js';
import type { LoginAdvice } from '../portal/session.js';

const DAY = 24 * 60 * 60_000;
/**
 * How long a child's entities keep their last good values on show, available, without a successful
 * poll, whatever the reason (a maintenance night, the network, a changed password, a captcha): a wall
 * tablet should not blank for a fault `problem` already explains. After that the child goes offline;
 * `problem` and `last_update` stay readable (they follow the bridge's availability only).
 */
export const OFFLINE_AFTER_MS = 3 * DAY;

/** A feature that answered unexpectedly in its tier's last poll. */
export interface FeatureProblem {
  error: unknown;
  feature: string;
}

interface TierHealth {
  failures: number;
  error?: unknown;
  feature?: FeatureProblem;
  succeededAt?: number;
}

export class AccountHealth {
  private readonly tiers = new Map<Tier, TierHealth>();
  /** Set while data_dir cannot be written (the event memory or the identity could not be saved). */
  storageError: unknown;
  /**
   * When the last run last fetched the child's identity, which only a working login does: after a
   * restart it stands in for the last good poll (never later than it), so an outage that spans a
   * restart neither blanks the child at once nor keeps it available beyond OFFLINE_AFTER_MS.
   */
  restoredSuccessAt: number | undefined;
  private problemState: EntityState | undefined;
  /** Whether the child's entities are available; undefined before the first poll. */
  private isOnline: boolean | undefined;
  /** The `last_update` entity's time: the last successful poll of this run, of any tier. */
  lastUpdate: number | undefined;

  constructor(private readonly language: Language) {}

  /** The tier's consecutive failures and the last error (for the backoff). */
  tier(tier: Tier): Readonly<TierHealth> {
    let health = this.tiers.get(tier);
    if (!health) {
      health = { failures: 0 };
      this.tiers.set(tier, health);
    }
    return health;
  }

  /** The oldest of the tiers' last good polls this run (undefined when one has had none yet). */
  lastSucceeded(tiers: readonly Tier[]): number | undefined {
    const times = tiers.map((tier) => this.tiers.get(tier)?.succeededAt);
    return times.some((t) => t === undefined) ? undefined : Math.min(...(times as number[]));
  }

  succeeded(tiers: readonly Tier[], feature: FeatureProblem | undefined, now: number): void {
    for (const tier of tiers) Object.assign(this.tier(tier), { failures: 0, error: undefined, feature, succeededAt: now });
  }

  failed(tiers: readonly Tier[], error: unknown): void {
    for (const tier of tiers) {
      const health = this.tier(tier) as TierHealth;
      health.failures++;
      health.error = error;
    }
  }

  /**
   * problem is ON while any tier's last poll failed (a gateway outage must not flap OFF because the
   * fast tier still reaches the messages), while data_dir cannot be written, or while a feature
   * answered in an unexpected way.
   */
  problem(now: number, advice?: LoginAdvice): EntityState {
    const failing = [...this.tiers.values()].find((h) => h.error !== undefined);
    const feature = [...this.tiers.values()].find((h) => h.feature !== undefined)?.feature;
    let state = problemOff(advice, this.language);
    if (failing) state = problemOn(failing.error, now, this.language, undefined, advice);
    else if (this.storageError !== undefined) state = problemOn(new StorageError(this.storageError), now, this.language, undefined, advice);
    else if (feature) state = problemOn(feature.error, now, this.language, `source ${feature.feature}`, advice);
    this.problemState = state;
    return state;
  }

  /** The reason `problem` gave last, null while it is OFF. */
  get reason(): string | null {
    return (this.problemState?.attributes?.reason as string | null | undefined) ?? null;
  }

  /**
   * Returns the availability when it changed (else undefined). Online while the normal tier (the bulk of the data) succeeded within OFFLINE_AFTER_MS; a fast tier
   * that still reaches the messages host does not make stale grades and timetables fresh again.
   */
  updateOnline(now: number): boolean | undefined {
    const lastGood = this.tiers.get('normal')?.succeededAt ?? this.restoredSuccessAt;
    const online = lastGood !== undefined && now - lastGood < OFFLINE_AFTER_MS;
    if (this.isOnline === online) return undefined;
    this.isOnline = online;
    return online;
  }

  /** Whether the child's entities are available (see OFFLINE_AFTER_MS); false before any poll. */
  get available(): boolean {
    return this.isOnline === true;
  }
}
