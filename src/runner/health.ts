// How an account's passes went, host by host, and what follows from it: the `problem` state (what went
// wrong: features/status/problem.ts words it), the backoff of a failing host (retryDelay: when each copy is
// read is the planner's, engine/plan.ts, handed the waits this gives as data) and whether the child's
// entities stay available (the 3-day rule).
import { LoginPausedError, StorageError } from '../portal/errors.js';
import { problemOff, problemOn } from '../features/status/problem.js';
import type { ProblemState } from '../features/status/entities.js';
import type { Language } from '../config/language.js';
import type { Host } from '../engine/resource.js';
import type { LoginAdvice } from '../portal/session.js';
import { DAY, MINUTE } from '../util/duration.js';

/**
 * How long a child's entities keep their last good values on show, available, without a successful
 * pass, whatever the reason (a maintenance night, the network, a changed password, a captcha): a wall
 * tablet should not blank for a fault `problem` already explains. After that the child goes offline;
 * `problem` and `last_update` stay readable (they follow the bridge's availability only).
 */
export const OFFLINE_AFTER_MS = 3 * DAY;

/** A feature that answered unexpectedly in the last pass that read its host. */
export interface FeatureProblem {
  error: unknown;
  feature: string;
}

/** A host's passes: its consecutive failures and the last error (the backoff), its last good pass, and a feature that answered unexpectedly in it. */
interface HostHealth {
  failures: number;
  error?: unknown;
  feature?: FeatureProblem;
  succeededAt?: number;
}

export class AccountHealth {
  private readonly hosts = new Map<Host, HostHealth>();
  /** Set while data_dir cannot be written (the event memory or the identity could not be saved). */
  storageError: unknown;
  /**
   * When the last run last fetched the child's identity, which only a working login does: after a
   * restart it stands in for the last good pass (never later than it), so an outage that spans a
   * restart neither blanks the child at once nor keeps it available beyond OFFLINE_AFTER_MS.
   */
  restoredSuccessAt: number | undefined;
  /** The reason `problem` gave last, null while it is OFF. */
  reason: string | null = null;
  /** Whether the child's entities are available; undefined before the first pass. */
  private isOnline: boolean | undefined;
  /** The `last_update` entity's time: the last successful pass of this run, of any host. */
  lastUpdate: number | undefined;

  constructor(private readonly language: Language) {}

  host(host: Host): HostHealth {
    const health = this.hosts.get(host) ?? { failures: 0 };
    this.hosts.set(host, health);
    return health;
  }

  /** The oldest of the hosts' last good passes this run (undefined when one has had none yet). */
  lastSucceeded(hosts: readonly Host[]): number | undefined {
    const times = hosts.map((host) => this.hosts.get(host)?.succeededAt);
    return times.some((t) => t === undefined) ? undefined : Math.min(...(times as number[]));
  }

  succeeded(hosts: readonly Host[], feature: FeatureProblem | undefined, now: number): void {
    for (const host of hosts) this.hosts.set(host, { failures: 0, feature, succeededAt: now });
  }

  /** The hosts whose last try failed and that no pass has read since (a retry the night put off to 06:00 included). */
  down(): Host[] {
    return [...this.hosts].filter(([, health]) => health.failures > 0).map(([host]) => host);
  }

  failed(hosts: readonly Host[], error: unknown): void {
    for (const host of hosts) {
      const health = this.host(host);
      health.failures++;
      health.error = error;
    }
  }

  /**
   * problem is ON while any host's last pass failed (a gateway outage must not flap OFF because the
   * messaging host still answers), while data_dir cannot be written, or while a feature answered in an
   * unexpected way.
   */
  problem(now: number, advice?: LoginAdvice): ProblemState {
    const hosts = [...this.hosts.values()];
    const failing = hosts.find((h) => h.error !== undefined);
    const feature = hosts.find((h) => h.feature !== undefined)?.feature;
    const on = (error: unknown, detail?: string) => problemOn(error, now, this.language, detail, advice);
    let state = problemOff(advice, this.language);
    if (failing) state = on(failing.error);
    else if (this.storageError !== undefined) state = on(new StorageError(this.storageError));
    else if (feature) state = on(feature.error, `source ${feature.feature}`);
    this.reason = state.attributes?.reason ?? null;
    return state;
  }

  /**
   * Returns the availability when it changed (else undefined). Online while the register (the bulk of
   * the data) answered within OFFLINE_AFTER_MS; a messaging host that still answers does not make
   * stale grades and timetables fresh again.
   */
  updateOnline(now: number): boolean | undefined {
    const lastGood = this.hosts.get('register')?.succeededAt ?? this.restoredSuccessAt;
    const online = lastGood !== undefined && now - lastGood < OFFLINE_AFTER_MS;
    if (this.isOnline === online) return undefined;
    this.isOnline = online;
    return online;
  }

  /** Whether the child's entities are available (see OFFLINE_AFTER_MS); false before any pass. */
  get available(): boolean {
    return this.isOnline === true;
  }
}

/**
 * The delay before the next attempt after `failures` failed cycles in a row: 1, 2, 4 ... minutes, never
 * more than the tier's interval; a paused login waits until the pause ends.
 */
export function retryDelay(failures: number, intervalMs: number, error: unknown, now: number): number {
  if (error instanceof LoginPausedError) return Math.max(MINUTE, error.until - now);
  return Math.min(intervalMs, MINUTE * 2 ** Math.max(0, failures - 1));
}
