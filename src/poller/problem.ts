// The `problem` entity: what went wrong, in words a parent can act on.
import { LoginPausedError, problemReason, type ProblemReason } from '../portal/errors.js';
import { isoWarsaw, warsawTimeOfDay } from '../util/time.js';
import type { EntityState } from '../ha/state.js';

const ADVICE: Record<ProblemReason, string> = {
  wrong_credentials:
    'The portal did not accept the login or password. Parents log in with the numeric register login (like 1234567u), not with the e-mail of the family portal account. Fix the config; the bridge will not try again for an hour unless the config changes.',
  captcha_required:
    'The portal asked for a captcha. Log in once in a web browser from the same network (this clears it); the bridge waits 30 minutes before trying again.',
  service_down: 'The portal is not answering (daily maintenance or a network problem). The last good data is kept; the bridge tries again at the next poll.',
  session_expired: 'The portal ended the session and did not accept a fresh one. The bridge tries again at the next poll.',
  unexpected_response: 'A part of the portal answered in a way the bridge does not understand. The other data is still updated.',
  messages_unavailable: 'The messages module of this school does not answer.',
  storage_error:
    'The bridge cannot write its files in data_dir (the disk is full or read-only). It keeps polling; new events wait until it can write again.',
};

export function problemOff(): EntityState {
  return { state: 'OFF', attributes: { reason: null } };
}

export function problemOn(error: unknown, now: number, detail?: string): EntityState {
  const reason = problemReason(error);
  const attributes: Record<string, unknown> = { reason, message: ADVICE[reason], since: isoWarsaw(now) };
  if (error instanceof LoginPausedError) attributes.retry_at = warsawTimeOfDay(error.until);
  if (detail) attributes.detail = detail;
  return { state: 'ON', attributes };
}
