// The learned lifetime of a messaging session (spec 5.4): the age at which the last one was seen
// rejected. A session that old is renewed before the call instead of after a rejected one, which saves
// the rejected request; every `relearnAfter` renewals one session is let run into its rejection, in case
// the portal now keeps them longer.
import type { MessagingPolicy } from './messaging-policy.js';

export class LearnedLifetime {
  private learned: { ageMs: number; renewed: number } | undefined;

  constructor(private readonly policy: Pick<MessagingPolicy, 'minLearnedLifetimeMs' | 'relearnAfter'>) {}

  /** A rejection at `ageMs`: an age this session type is known to reach dead. True when it was learned. */
  rejectedAt(ageMs: number): boolean {
    if (ageMs < this.policy.minLearnedLifetimeMs) return false;
    this.learned = { ageMs, renewed: 0 };
    return true;
  }

  /** Whether a session of this age is to be renewed before the call (and counts the renewal). */
  outlived(ageMs: number): boolean {
    const learned = this.learned;
    if (!learned || ageMs < learned.ageMs) return false;
    if (learned.renewed >= this.policy.relearnAfter) {
      this.learned = undefined;
      return false;
    }
    learned.renewed++;
    return true;
  }
}
