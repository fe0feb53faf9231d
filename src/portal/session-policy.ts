// The session policy of spec 5.3.5 as data with its defaults, and the one function that decides what
// the session needs before the next request.
import { HOUR, MINUTE } from '../util/duration.js';

/** The session policy as data, with the spec's defaults. */
export interface SessionPolicy {
  /** Assumed lifetime of a session from its password login. */
  lifetimeMs: number;
  /** Age (since login or the last good refresh) at which refreshToken is called. */
  refreshAfterMs: number;
  /** No refreshToken again for this long after a failed one. */
  refreshPauseMs: number;
  /** No login again for this long after wrong credentials (or until they change). */
  wrongCredentialsPauseMs: number;
  /** No login again for this long after a captcha. */
  captchaPauseMs: number;
  /** No password login again for this long after a login the bridge did not understand (login_changed). */
  loginChangedPauseMs: number;
  /** A login page it does not know (HTML, status 200) is the portal down until it has lasted this long; then login_changed. */
  unknownLoginPageMs: number;
  /** The advice to change the password is logged at most this often. */
  adviceLogEveryMs: number;
}

export const DEFAULT_SESSION_POLICY: SessionPolicy = {
  lifetimeMs: 20 * HOUR,
  refreshAfterMs: 2 * HOUR,
  refreshPauseMs: 30 * MINUTE,
  wrongCredentialsPauseMs: HOUR,
  captchaPauseMs: 30 * MINUTE,
  loginChangedPauseMs: HOUR,
  unknownLoginPageMs: 30 * MINUTE,
  adviceLogEveryMs: 24 * HOUR,
};

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
