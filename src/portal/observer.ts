// What an observer of one account's portal access is told (the diagnostics' figures, the metrics):
// every answer of a resource with its outcome, every password login with its requests and outcome,
// every messaging bootstrap. Never a value: resource names have their ids masked, outcomes are codes.
import { ConnectionError, LoginChangedError, UnexpectedResponseError, problemReason } from './errors.js';
import type { HttpExchange } from './http.js';

export interface PortalObserver {
  /** A resource answered (or did not): `resource` with ids masked, `status` "ok", an HTTP status and code, or "no answer". */
  answered(resource: string, status: string): void;
  /** A password login begins: what it returns sees each of its requests, then its outcome ("ok" or a problem reason). */
  login(): { exchange(exchange: HttpExchange): void; ended(outcome: string): void };
  /** A messaging session was bootstrapped. */
  bootstrapped(): void;
}

/** Runs one request and tells `observer` how it ended as `resource` (by default "ok" once it resolves). */
export async function observed<T>(
  observer: PortalObserver | undefined,
  resource: string,
  work: () => Promise<T>,
  outcome: (result: T) => string = () => 'ok',
): Promise<T> {
  if (!observer) return work();
  try {
    const result = await work();
    observer.answered(resource, outcome(result));
    return result;
  } catch (error) {
    observer.answered(resource, failedStatus(error));
    throw error;
  }
}

/** An endpoint as counters name it: a last segment holding a digit (a record's id) becomes <id>. */
export function maskedEndpoint(endpoint: string): string {
  return endpoint.replace(/\/[^/]*\d[^/]*$/, '/<id>');
}

/** A messaging path as counters name it: every number becomes <id>. */
export function maskedMessagingPath(path: string): string {
  return `messages:${path.replace(/\/\d+/g, '/<id>')}`;
}

/**
 * How an answer that failed is counted: "403", "200 Disabled" (the status and the gateway's code, a
 * word of at most 40 letters), "200 unexpected" (an answer of a shape not known), "no answer" for the network, else the problem reason (a login that failed).
 */
export function failedStatus(error: unknown): string {
  if (error instanceof UnexpectedResponseError && !(error instanceof LoginChangedError)) {
    const code = error.code !== undefined && /^[A-Za-z_]{1,40}$/.test(error.code) ? ` ${error.code}` : '';
    // A 2xx answer refused for what it held (not JSON, an unexpected shape).
    const unexpected = code === '' && error.status >= 200 && error.status < 300 ? ' unexpected' : '';
    return `${error.status}${code}${unexpected}`;
  }
  if (error instanceof ConnectionError) return 'no answer';
  return problemReason(error);
}
