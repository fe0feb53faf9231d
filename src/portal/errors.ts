// One error class per way a portal call can fail. Each has a literal name, the context a log line
// needs (never a secret) and the cause. The pass runner maps them to the `problem` entity's reason.

import { SWITCHED_OFF_CODES } from './schemas/common.js';
import { redact } from '../util/redact.js';
import { errorText } from '../util/text.js';

interface ErrorContext {
  account?: string;
  url?: string;
  cause?: unknown;
  portalMessage?: string;
}

abstract class PortalError extends Error {
  abstract override readonly name: string;
  readonly account: string | undefined;
  readonly url: string | undefined;
  /** The portal's own words on a refused login (a wrong password, a locked account), when it gave any. */
  readonly portalMessage: string | undefined;
  /** The login step that failed, when the error came from a password login (check names it). */
  loginStep: LoginStep | undefined;

  constructor(message: string, context: ErrorContext = {}) {
    super(redact(message), context.cause === undefined ? undefined : { cause: context.cause });
    this.account = context.account;
    // Without its query: a query may hold a key or a token.
    this.url = context.url === undefined ? undefined : redact(context.url.replace(/\?.*/s, ''));
    // The portal's words are shown (problem, check) and kept (a login's pause): masked as any text from outside.
    this.portalMessage = context.portalMessage === undefined ? undefined : redact(context.portalMessage);
  }
}

/** The steps of a password login, as `check` and the transcript name them. */
export type LoginStep = 'entry' | 'login page' | 'password' | 'redirects' | 'required actions' | 'session check';

/** Marks an error with the login step it came from (once: the innermost step wins). */
export function atLoginStep(error: unknown, step: LoginStep): unknown {
  if (error instanceof PortalError && error.loginStep === undefined) error.loginStep = step;
  return error;
}

/** The login step an error came from, if it came from a login. */
export function loginStepOf(error: unknown): LoginStep | undefined {
  return error instanceof PortalError ? error.loginStep : undefined;
}

/** The portal refused the login with words about the login, the password or the account. */
export class WrongCredentialsError extends PortalError {
  readonly name = 'WrongCredentialsError';
}

/** The login pages asked for a captcha: a person must log in once in a browser. */
export class CaptchaRequiredError extends PortalError {
  readonly name = 'CaptchaRequiredError';
}

/**
 * The family portal lists the child, but its link needs the family's action there (live-notes 23). Its
 * portalMessage is the link's state as the portal says it ("requiring_an_action", "need-activation").
 */
export class LinkNeedsActionError extends PortalError {
  readonly name = 'LinkNeedsActionError';
}

/** The session died and one fresh login did not bring it back. */
export class SessionExpiredError extends PortalError {
  readonly name = 'SessionExpiredError';
}

/** The portal answered, but not as the spec says (a status, a body or a redirect we do not accept). */
export class UnexpectedResponseError extends PortalError {
  readonly name: 'UnexpectedResponseError' | 'LoginChangedError' = 'UnexpectedResponseError';
  readonly status: number;
  /** The gateway's error Code (e.g. InvalidRequest), when its body said one. */
  readonly code: string | undefined;
  /** The gateway resource that answered so (e.g. LuckyNumbers), for a family to report it. */
  readonly resource: string | undefined;

  constructor(status: number, message: string, context: ErrorContext & { code?: string; resource?: string } = {}) {
    super(message, context);
    this.status = status;
    this.code = context.code;
    this.resource = context.resource;
  }

  /**
   * 403/404/405, 401 Insufficient scopes, and a module the school switched off (live-notes 8, 9): the
   * module is not available to this account.
   */
  get refused(): boolean {
    return this.status === 403 || this.status === 404 || this.status === 405 || this.status === 401 || this.switchedOff;
  }

  /** The school switched the module off: 200 {"Status":"Disabled"} or a known "not active" Code. */
  get switchedOff(): boolean {
    return this.code !== undefined && SWITCHED_OFF_CODES.includes(this.code);
  }
}

/**
 * The login ended in a way the bridge does not know (an answer without `status`, not JSON, a hop
 * refused, too many hops, no session at the end, a refusal whose words are not about the password):
 * the portal's login has most likely changed again. Never a wrong password.
 */
export class LoginChangedError extends UnexpectedResponseError {
  override readonly name = 'LoginChangedError';

  /** `portalMessage`: the portal's words, when it refused with words the bridge does not take for a wrong password. */
  constructor(step: LoginStep, message: string, context: ErrorContext & { status?: number } = {}) {
    super(context.status ?? 200, `login step "${step}": ${message}`, context);
    this.loginStep = step;
  }

  /** A login that changed is never a module the school switched off. */
  override get refused(): boolean {
    return false;
  }
}

export { DISABLED_CODE } from './schemas/common.js';

/** The portal is down or unreachable: a network error, a timeout or a 5xx. Never a wrong password. */
export class ConnectionError extends PortalError {
  readonly name = 'ConnectionError';
  readonly status: number | undefined;
  /**
   * A login page the login does not know (a maintenance page with status 200): the portal down for now,
   * the changed login this is once the same answer has lasted SessionPolicy.unknownLoginPageMs.
   */
  readonly changedLogin: LoginChangedError | undefined;

  constructor(message: string, context: ErrorContext & { status?: number; changedLogin?: LoginChangedError } = {}) {
    super(message, context);
    this.status = context.status;
    this.changedLogin = context.changedLogin;
  }
}

/** A page that is not the login's (a maintenance page with status 200): the portal down for now, `changed` once it lasts. */
export function unknownLoginPage(changed: LoginChangedError): ConnectionError {
  return new ConnectionError(`login: ${changed.message}`, {
    account: changed.account,
    url: changed.url,
    status: changed.status,
    changedLogin: changed,
  });
}

/** A change feed request the portal answered with an error status (and its Code, when it said one). */
abstract class ChangeFeedAnswerError extends PortalError {
  readonly status: number;
  /** The portal's Code (InvalidRequest, AccessDeny, DeviceRegistered, FilterInvalidValue, ...), when it said one. */
  readonly code: string | undefined;

  constructor(status: number, message: string, context: ErrorContext & { code?: string } = {}) {
    super(message, context);
    this.status = status;
    this.code = context.code;
  }
}

/**
 * The change feed is not on this road (live-notes 28): a registration refused (400, 403 as without the
 * paid add-on, 404; `DeviceRegistered` without an id), or the change feed's reads refused (403/404/405, 401
 * Insufficient scopes, a module switched off). Never a session problem.
 */
export class ChangeFeedRefusedError extends ChangeFeedAnswerError {
  readonly name = 'FeedRefusedError';
}

/** The portal does not know the change feed's device (any more): `UnableToGetPushDevice` (live-notes 29). Register a new one. */
export class ChangeFeedDeviceLostError extends PortalError {
  readonly name = 'FeedDeviceLostError';
}

/** The portal refused a change feed request's parameters: `FilterInvalidValue` (no usable pushDevice, live-notes 29) or another 400 (an acknowledgement it would not take). */
export class ChangeFeedInvalidError extends ChangeFeedAnswerError {
  readonly name = 'FeedInvalidError';
}

/** Sending a message failed: sent=false means nothing went out, sent=null means unknown. */
export class MessageSendError extends PortalError {
  readonly name = 'MessageSendError';
  readonly sent: false | null;

  constructor(sent: false | null, message: string, context: ErrorContext = {}) {
    super(message, context);
    this.sent = sent;
  }
}

/** Login is paused for this account (after wrong credentials or a captcha) until the given time. */
export class LoginPausedError extends PortalError {
  readonly name = 'LoginPausedError';
  readonly until: number;
  readonly reason: ProblemReason;

  /** `portalMessage`: the portal's words on the refusal that started the pause. */
  constructor(reason: ProblemReason, until: number, context: ErrorContext = {}) {
    super(`login paused (${reason}) until ${new Date(until).toISOString()}`, context);
    this.until = until;
    this.reason = reason;
  }
}

/** The portal's own words on a refused login, if the error carries them. */
export function portalMessageOf(error: unknown): string | undefined {
  return error instanceof PortalError ? error.portalMessage : undefined;
}

/** data_dir cannot be written (read-only, full): the bridge keeps reading, events wait. */
export class StorageError extends PortalError {
  readonly name = 'StorageError';

  constructor(cause: unknown) {
    super(`cannot write in data_dir: ${errorText(cause)}`, { cause });
  }
}

export type ProblemReason =
  | 'wrong_credentials'
  | 'login_changed'
  | 'captcha_required'
  | 'link_needs_action'
  | 'service_down'
  | 'session_expired'
  | 'unexpected_response'
  | 'storage_error';

/** The `problem` entity's reason for an error. */
export function problemReason(error: unknown): ProblemReason {
  // A source may wrap a network failure so it does not fail the whole account; the reason is still
  // the network's (the messaging host down in a maintenance window is not "please report it").
  if (error instanceof UnexpectedResponseError && error.cause instanceof PortalError) return problemReason(error.cause);
  if (error instanceof LoginPausedError) return error.reason;
  if (error instanceof WrongCredentialsError) return 'wrong_credentials';
  if (error instanceof LoginChangedError) return 'login_changed';
  if (error instanceof CaptchaRequiredError) return 'captcha_required';
  if (error instanceof LinkNeedsActionError) return 'link_needs_action';
  if (error instanceof SessionExpiredError) return 'session_expired';
  if (error instanceof ConnectionError) return 'service_down';
  if (error instanceof StorageError) return 'storage_error';
  return 'unexpected_response';
}

/** The family portal answered, and links no child to the e-mail (the bridge's own `problem`: `no_children`). */
export class NoChildrenError extends Error {
  override readonly name = 'NoChildrenError';

  constructor(label: string) {
    super(`${label}: the family portal links no child to this e-mail`);
  }
}
