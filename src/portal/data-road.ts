// The roads to the portal's data: the register's cookie gateway (registerRoad), or the family road's API
// host by bearer token (family.ts), each with the hosts of the services beside the API. The gateway
// (gateway.ts) reads the same resources, shapes and parsing over either.
import type { HttpRequest, HttpResponse } from './http.js';
import { isInsufficientScopes } from './http-answers.js';
import type { PortalSession } from './session.js';
import type { PortalUrls } from '../config/schema.js';

const GATEWAY_PATH = '/gateway/api/2.0/';

/**
 * How data resources are reached: the register road's cookie gateway (the default), or the family
 * road's API host by bearer token (family.ts). Same resources, same shapes, same parsing.
 */
export interface DataRoad {
  /** The resource's address on this road (`endpoint` with its query). */
  url(endpoint: string): string;
  /** Sends inside the road's session, renewed once when the answer says it has ended. */
  send(request: HttpRequest): Promise<HttpResponse>;
  /** Where a service beside the API (the kindergarten's, `ms/...`, live-notes 34) can be asked on this road, in the order to try. */
  services?: readonly ServiceRoute[];
}

/** A host of the services beside the API: the register's gateway path, or the API host's. */
export type ServiceHost = 'gateway' | 'api';

/** One host a service is asked at, and how a request goes there. */
export interface ServiceRoute {
  host: ServiceHost;
  /** The address of `path` (such as `ms/kindergartens/activities-types`, with its query) there. */
  url(path: string): string;
  send(request: HttpRequest): Promise<HttpResponse>;
}

/** The register road: {base_url}/gateway/api/2.0 with the session's cookies (spec 4.1). */
export function registerRoad(session: PortalSession, urls: Pick<PortalUrls, 'base_url'>): DataRoad {
  const send = (request: HttpRequest) =>
    session.request(
      () => session.http.send(request),
      (r) => r.status === 401 && !isInsufficientScopes(r),
    );
  return {
    url: (endpoint) => `${urls.base_url}${GATEWAY_PATH}${endpoint}`,
    send,
    services: [{ host: 'gateway', url: (path) => `${urls.base_url}/gateway/${path}`, send }],
  };
}
