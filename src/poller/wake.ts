// When an account's scheduler wakes, as pure functions of what is known at the end of a pass: the
// scheduler (scheduler.ts) and the pass (account-pass.ts) ask these, and a table test covers them.
// A tier is due again at the soonest copy its rows say must be read (readBy: a row's age, a moved
// signal, a refusal that ends), never past the next change of moment nor six polls' worth of
// `interval`, never sooner than a minute, and within `interval` while one of its features failed; a
// pass that failed backs off 1, 2, 4 ... minutes, at most that interval, or until a login pause ends.
// The wake is the soonest of the tiers' and the next lesson start or end.
import { retryDelay } from './schedule.js';

const MINUTE = 60_000;

export interface TierAfterPass {
  /** When the pass ended. */
  now: number;
  /** The soonest instant the tier's rows say a copy must be read by (Infinity: none). */
  readBy: number;
  /** The next change of moment (the first lesson after a quiet night). */
  nextMoment: number;
  /** poll.interval at this moment (the normal knob). */
  normalMs: number;
  /** poll.interval as configured: the bound while a feature failed, and of a failed pass's backoff. */
  intervalMs: number;
  /** A feature of the tier failed in the pass (its read is due again at the next look). */
  featureFailed?: boolean;
  /** The pass failed as a whole: how many times in a row, and why (a login pause says until when). */
  passFailed?: { failures: number; error: unknown };
}

/** How long after a pass the tier is due again. */
export function tierDelay(t: TierAfterPass): number {
  const by = Math.min(t.readBy, t.nextMoment, t.now + t.normalMs * 6);
  const every = Math.max(MINUTE, by - t.now);
  return afterFailure(t.featureFailed ? Math.min(every, t.intervalMs) : every, t.passFailed, t.now);
}

/** A good pass's delay as it is; a failed pass's the backoff of its failures in a row, at most that delay. */
export function afterFailure(delay: number, failed: TierAfterPass['passFailed'], now: number): number {
  return failed === undefined ? delay : retryDelay(failed.failures, delay, failed.error, now);
}

/** The instant the scheduler wakes: the soonest tier due, or the next lesson start or end. */
export function nextWake(dueAt: Iterable<number>, boundaryAt: number | undefined): number {
  return Math.min(...dueAt, boundaryAt ?? Infinity);
}
