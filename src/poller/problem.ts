// The `problem` entity: what went wrong, in words a parent can act on.
import { LoginPausedError, UnexpectedResponseError, portalMessageOf, problemReason } from '../portal/errors.js';
import { isoWarsaw, warsawTimeOfDay } from '../util/time.js';
import type { EntityState } from '../ha/state.js';
import { portalSays, problemAdvice } from '../i18n/problem-advice.js';
import type { Language } from '../i18n/language.js';

export function problemOff(): EntityState {
  return { state: 'OFF', attributes: { reason: null } };
}

/** `message` is in the configured language; `reason` is a fixed code for automations. */
export function problemOn(error: unknown, now: number, language: Language, detail?: string): EntityState {
  const reason = problemReason(error);
  const words = portalMessageOf(error);
  const advice = problemAdvice(reason, language);
  const message = words === undefined ? advice : `${portalSays(words, language)}. ${advice}`;
  const attributes: Record<string, unknown> = { reason, message, since: isoWarsaw(now) };
  if (words !== undefined) attributes.portal_message = words;
  if (error instanceof LoginPausedError) attributes.retry_at = warsawTimeOfDay(error.until);
  if (detail) attributes.detail = detail;
  // An answer nobody has seen yet: the resource it came from, so that a family can report it.
  if (error instanceof UnexpectedResponseError && error.resource !== undefined) attributes.resource = error.resource;
  return { state: 'ON', attributes };
}
