// The `problem` entity: what went wrong, in words a parent can act on.
import { LoginPausedError, problemReason } from '../portal/errors.js';
import { isoWarsaw, warsawTimeOfDay } from '../util/time.js';
import type { Published } from '../feature-kit/contract.js';
import type { problem, ProblemFacts } from '../features/status.js';
import { problemAdvice } from '../i18n/problem-advice.js';
import type { Language } from '../config/language.js';

export function problemOff(): Published<typeof problem> {
  return { state: 'OFF', attributes: { reason: null } };
}

/** `message` is in the configured language; `reason` is a fixed code for automations. */
export function problemOn(error: unknown, now: number, language: Language, detail?: string): Published<typeof problem> {
  const reason = problemReason(error);
  const attributes: ProblemFacts = { reason, message: problemAdvice(reason, language), since: isoWarsaw(now) };
  if (error instanceof LoginPausedError) attributes.retry_at = warsawTimeOfDay(error.until);
  if (detail) attributes.detail = detail;
  return { state: 'ON', attributes };
}
