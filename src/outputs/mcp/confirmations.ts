// The send_message confirmations (interface 16.4): a preview gets a code, and only that code, within 5 minutes and
// once, sends what was previewed. A code is taken out before the message goes, so a second use (a retry, a model
// that calls twice) finds nothing and sends nothing.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../util/clock.js';

export const CONFIRM_VALID_MS = 5 * 60_000;
/** More previews waiting than a conversation makes: the oldest is dropped first. */
const MAX_WAITING = 32;

/** The message a preview showed: to whom (the recipient list's option, and the person's name), from whose account, its subject and text. */
export interface Draft {
  child: string;
  to: string;
  person: string;
  subject: string;
  text: string;
}

export class Confirmations {
  private readonly waiting = new Map<string, { draft: Draft; until: number }>();

  constructor(private readonly clock: Pick<Clock, 'now'>) {}

  /** A new code for `draft`, valid CONFIRM_VALID_MS from now. */
  issue(draft: Draft): string {
    this.forgetOld();
    while (this.waiting.size >= MAX_WAITING) this.waiting.delete(this.waiting.keys().next().value as string);
    const code = randomBytes(9).toString('base64url');
    this.waiting.set(code, { draft, until: this.clock.now() + CONFIRM_VALID_MS });
    return code;
  }

  /** The draft a code stands for, taken out (a code works once); undefined for an unknown, used or expired one. */
  take(code: string): Draft | undefined {
    this.forgetOld();
    const found = this.waiting.get(code);
    this.waiting.delete(code);
    return found?.draft;
  }

  private forgetOld(): void {
    const now = this.clock.now();
    for (const [code, { until }] of this.waiting) if (until <= now) this.waiting.delete(code);
  }
}
