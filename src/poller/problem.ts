// The `problem` entity: what went wrong, in words a parent can act on.
import { LoginPausedError, UnexpectedResponseError, portalMessageOf, problemReason } from '../portal/errors.js';
import { isoWarsaw, warsawTimeOfDay } from '../util/time.js';
import type { Published } from '../feature-kit/contract.js';
import type { problem, ProblemFacts } from '../features/status.js';
import { portalSays, problemAdvice } from '../i18n/problem-advice.js';
import type { Language } from '../config/language.js';

export function problemOff(): Published<typeof problem> {
  return { state: 'OFF', attributes: { reason: null } };
}

/** `message` is in the configured language; `reason` is a fixed code for automations. */
export function problemOn(error: unknown, now: number, language: Language, detail?: string): Published<typeof problem> {
  const reason = problemReason(error);
  const words = portalMessageOf(error);
  const advice = problemAdvice(reason, language);
  const message = words === undefined ? advice : `${portalSays(words, language)}. ${advice}`;
  const attributes: ProblemFacts = { reason, message, since: isoWarsaw(now) };
  if (words !== undefined) attributes.portal_message = words;
  if (error instanceof LoginPausedError) attributes.retry_at = warsawTimeOfDay(error.until);
  if (detail) attributes.detail = detail;
  // An answer nobody has seen yet: the resource it came from, so that a family can report it.
  if (error instanceof UnexpectedResponseError && error.resource !== undefined) attributes.resource = error.resource;
  return { state: 'ON', attributes };
}
