// The `problem` entity's state from what went wrong: a fixed `reason` for automations, the advice in the
// configured language, the portal's own words, and the portal's advice to change the password, even while OFF.
import { LoginPausedError, UnexpectedResponseError, portalMessageOf, problemReason } from '../../portal/errors.js';
import { isoWarsaw, warsawTimeOfDay } from '../../util/time.js';
import { passwordChangeAdvice, portalSays, problemAdvice } from '../../i18n/problem-advice.js';
import type { Language } from '../../config/language.js';
import type { LoginAdvice } from '../../portal/session.js';
import type { ProblemFacts, ProblemState } from './entities.js';

/**
 * OFF; with the portal's advice to change the password (live-notes 19) as `advice` and its words as
 * `advice_message`: worth knowing, but the register is read, so no problem.
 */
export function problemOff(advice?: LoginAdvice, language: Language = 'en'): ProblemState {
  return { state: 'OFF', attributes: { reason: null, message: undefined, ...adviceAttributes(advice, language) } };
}

function adviceAttributes(advice: LoginAdvice | undefined, language: Language): Pick<ProblemFacts, 'advice' | 'advice_message'> {
  return advice === undefined ? {} : { advice, advice_message: passwordChangeAdvice(language) };
}

/** `message` is in the configured language; `reason` is a fixed code for automations. */
export function problemOn(error: unknown, now: number, language: Language, detail?: string, advice?: LoginAdvice): ProblemState {
  const reason = problemReason(error);
  const words = portalMessageOf(error);
  const help = problemAdvice(reason, language);
  const message = words === undefined ? help : `${portalSays(words, language)}. ${help}`;
  const attributes: ProblemFacts = { reason, message, since: isoWarsaw(now), ...adviceAttributes(advice, language) };
  if (words !== undefined) attributes.portal_message = words;
  if (error instanceof LoginPausedError) attributes.retry_at = warsawTimeOfDay(error.until);
  if (detail) attributes.detail = detail;
  // An answer nobody has seen yet: the resource it came from, so that a family can report it.
  if (error instanceof UnexpectedResponseError && error.resource !== undefined) attributes.resource = error.resource;
  return { state: 'ON', attributes };
}
