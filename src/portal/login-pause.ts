// The pause after a refused password login (spec 5.3.5): why it pauses (a wrong password, a captcha, a
// login this version does not know), how long each reason's pause lasts, and the salted digest that
// ties a pause to the credentials it was for, so that changing the config ends it.
import { createHash, randomBytes } from 'node:crypto';
import { CaptchaRequiredError, LoginChangedError, WrongCredentialsError } from './errors.js';
import type { PersistedSession } from '../store/session-store.js';
import type { SessionPolicy } from './session-policy.js';

export type Pause = NonNullable<PersistedSession['pause']>;

/** The errors after which password logins pause, and the reason the pause shows. */
export function pauseReason(error: unknown): Pause['reason'] | undefined {
  if (error instanceof WrongCredentialsError) return 'wrong_credentials';
  if (error instanceof CaptchaRequiredError) return 'captcha_required';
  if (error instanceof LoginChangedError) return 'login_changed';
  return undefined;
}

/** How long a pause of this reason lasts. */
export function pauseLength(reason: Pause['reason'], policy: SessionPolicy): number {
  if (reason === 'wrong_credentials') return policy.wrongCredentialsPauseMs;
  if (reason === 'login_changed') return policy.loginChangedPauseMs;
  return policy.captchaPauseMs;
}

/**
 * The pause, ending no later than its reason's policy allows from now: one restored from a file
 * written under a clock years ahead, or kept while the clock was set back, is cut to that.
 */
export function boundedPause(pause: Pause, now: number, policy: SessionPolicy): Pause {
  const longest = now + pauseLength(pause.reason, policy);
  return pause.until > longest ? { ...pause, until: longest } : pause;
}

/** Identifies the credentials without storing them: a salted digest, salt kept beside it. */
export function credentialsDigest(login: string, password: string | undefined, salt = randomBytes(8).toString('hex')): string {
  const digest = createHash('sha256').update(`${salt}\0${login}\0${password}`).digest('hex').slice(0, 32);
  return `${salt}:${digest}`;
}

/** Whether a saved pause was for these credentials (its salt is kept in it). */
export function pauseIsFor(pause: Pause, login: string, password: string | undefined): boolean {
  return pause.credentials === credentialsDigest(login, password, pause.credentials.split(':')[0] ?? '');
}

/** The pause a refused login starts, or undefined when the error is no refusal (the portal down, say). */
export function pauseAfter(error: unknown, now: number, policy: SessionPolicy, login: string, password: string | undefined): Pause | undefined {
  const reason = pauseReason(error);
  if (reason === undefined) return undefined;
  const words = error instanceof WrongCredentialsError || error instanceof LoginChangedError ? error.portalMessage : undefined;
  return {
    reason,
    until: now + pauseLength(reason, policy),
    credentials: credentialsDigest(login, password),
    ...(words === undefined ? {} : { portal_message: words }),
  };
}
