// The messaging session's rules (spec 5.4) as data with the spec's defaults, the decisions made from
// them, and the one error of this subsystem that is not a failure: the school has no messages module.
import { MINUTE } from '../util/duration.js';

/** The messaging session's rules as data, with the spec's defaults. */
export const DEFAULT_MESSAGING_POLICY = {
  /** Wait before asking again after one of the first `absentShortRechecks` "Brak dostępu" answers in a row. */
  absentRecheckMs: 5 * MINUTE,
  absentShortRechecks: 3,
  /** Wait after every later "Brak dostępu" in a row. */
  absentLongRecheckMs: 60 * MINUTE,
  /** After a recovery that reached the password login and still failed: calls fail at once this long. */
  failureWindowMs: 10 * MINUTE,
  /** Redirects followed by the /wiadomosci3 bootstrap (portal and messaging hosts only). */
  maxBootstrapHops: 5,
  /**
   * A messaging session seen to die at this age or older teaches the client its lifetime (a younger
   * death has another cause, such as a new login elsewhere, and teaches nothing).
   */
  minLearnedLifetimeMs: 10 * MINUTE,
  /** After this many bootstraps ahead of the learned lifetime, one session is let run until it dies (the lifetime may have grown). */
  relearnAfter: 6,
};

/** The messaging session's rules as data (its fields, DEFAULT_MESSAGING_POLICY's). */
export type MessagingPolicy = typeof DEFAULT_MESSAGING_POLICY;

/** When to ask /wiadomosci3 again after the `streak`-th "Brak dostępu" in a row (1-based). */
export function absentRecheckAt(streak: number, now: number, policy: MessagingPolicy): number {
  return now + (streak <= policy.absentShortRechecks ? policy.absentRecheckMs : policy.absentLongRecheckMs);
}

/**
 * What a messaging answer's status asks for: 'ok' (2xx), 'recover' (401, 403 and the other 4xx but
 * 404 and 429: the messaging session may be gone), or 'raise' (404, 429, 5xx and anything else,
 * which a new bootstrap or login cannot fix).
 */
export function statusAction(status: number): 'ok' | 'recover' | 'raise' {
  if (status >= 200 && status < 300) return 'ok';
  if (status >= 400 && status < 500 && status !== 404 && status !== 429) return 'recover';
  return 'raise';
}

/** The bootstrap page's marker for a school without the messages module (or, mid-recovery, a dead session). */
export function saysNoAccess(body: string): boolean {
  return /brak\s+dost(ę|e|&#281;|&#x119;)pu/i.test(body);
}

/** The school has no messages module (a normal answer, spec 5.4.2); asked again from `nextCheckAt`. */
export class MessagesUnavailableError extends Error {
  override readonly name = 'MessagesUnavailableError';

  constructor(
    readonly account: string,
    readonly nextCheckAt: number,
  ) {
    super(`the school has no messages module (asked again at ${new Date(nextCheckAt).toISOString()})`);
  }
}
