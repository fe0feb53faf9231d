// The gateway's error bodies in one place. The spec shows Code and Message for some of them; where it
// says "not shown" (the dead-session 401, most 403/404/405) these are plausible guesses, written in the
// same {Status, Code, Message} shape, and the dead-session one deliberately never says "scopes".

export interface DataResult {
  status: number;
  /** JSON body; omitted for an empty body. */
  body?: unknown;
  /** Instead of JSON: an HTML (or other non-JSON) body. */
  html?: string;
}

function error(status: number, code: string, message: string, extra: Record<string, unknown> = {}): DataResult {
  return { status, body: { Status: 'Error', Code: code, Message: message, ...extra } };
}

export const answers = {
  ok: (body: unknown): DataResult => ({ status: 200, body }),
  deadSession: (): DataResult => error(401, 'TokenIsExpired', 'Access token is invalid or has expired'),
  insufficientScopes: (): DataResult => error(401, 'Unauthorized', 'Insufficient scopes'),
  forbidden: (message = 'Account not have access to resource'): DataResult => error(403, 'AccessDeny', message),
  notFound: (): DataResult => error(404, 'NotFound', 'Resource not found'),
  /** Modules that only list their sub-resources answer 405 with that list. */
  methodNotAllowed: (resources?: Record<string, { Url: string }>): DataResult =>
    error(405, 'MethodNotAllowed', 'Method not allowed', resources ? { Resources: resources } : {}),
  invalidRequest: (): DataResult => error(400, 'InvalidRequest', '[212] Invalid request params'),
  filterInvalid: (): DataResult => error(400, 'FilterInvalidValue', 'Invalid value of filter'),
  badRequest: (message: string): DataResult => error(400, 'InvalidRequest', message),
  /** The change feed's device is unknown, forgotten or another account's (live-notes 29). */
  unknownPushDevice: (): DataResult => error(400, 'UnableToGetPushDevice', 'Unable to get push device'),
  /** A second registration of the change feed when the portal keeps the first (live-notes 28). */
  deviceRegistered: (): DataResult => error(400, 'DeviceRegistered', 'Device is already registered'),
  /**
   * A module the school switched off: HTTP 200 with Status Disabled and the index metadata instead of
   * the resource's root key (live-notes 9; Grades/Averages answers so on a school without averages).
   */
  disabled: (url: string, resources: Record<string, { Url: string }> = {}): DataResult => ({
    status: 200,
    body: { Status: 'Disabled', Resources: resources, Url: url },
  }),
};
