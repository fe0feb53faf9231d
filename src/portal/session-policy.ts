// The session policy of spec 5.3.5 as data with its defaults, and the one function that decides what
// the session needs before the next request.
import { HOUR, MINUTE } from '../util/duration.js';

/** The session policy as data, with the spec's defaults. */
export const DEFAULT_SESSION_POLICY = {
  /** Assumed lifetime of a session from its password login. */
  lifetimeMs: 20 * HOUR,
  /** Age (since login or the last good refresh) at which refreshToken is called. */
  refreshAfterMs: 2 * HOUR,
  /** No refreshToken again for this long after a failed one. */
  refreshPauseMs: 30 * MINUTE,
  /** No login again for this long after wrong credentials (or until they change). */
  wrongCredentialsPauseMs: HOUR,
  /** No login again for this long after a captcha. */
  captchaPauseMs: 30 * MINUTE,
  /** No password login again for this long after a login the bridge did not understand (login_changed). */
  loginChangedPauseMs: HOUR,
  /** A login page it does not know (HTML, status 200) is the portal down until it has lasted this long; then login_changed. */
  unknownLoginPageMs: 30 * MINUTE,
  /** The advice to change the password is logged at most this often. */
  adviceLogEveryMs: 24 * HOUR,
};

/** The session policy as data (its fields, DEFAULT_SESSION_POLICY's). */
export type SessionPolicy = typeof DEFAULT_SESSION_POLICY;

export interface SessionState {
  loggedInAt?: number;
  refreshedAt?: number;
  refreshFailedAt?: number;
}

export type SessionAction = 'login' | 'refresh' | 'none';

/** The one place that decides what the session needs before the next request. */
export function nextSessionAction(state: SessionState, now: number, policy: SessionPolicy): SessionAction {
  if (state.loggedInAt === undefined || now - state.loggedInAt >= policy.lifetimeMs) return 'login';
  const age = now - Math.max(state.loggedInAt, state.refreshedAt ?? 0);
  if (age < policy.refreshAfterMs) return 'none';
  if (state.refreshFailedAt !== undefined && now - state.refreshFailedAt < policy.refreshPauseMs) return 'none';
  return 'refresh';
}
