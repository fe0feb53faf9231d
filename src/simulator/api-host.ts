// The API host of the family road (live-notes 24-26), served by the authorization host's address
// (interface 9.1): `/3.0/<Resource>` and `/2.0/<Resource>` by a child's bearer token, with the same data
// and shapes as the gateway; `POST /2.0/AutoLoginToken` for the one-time token that opens the child's
// register web session; the change feed (change-feed-routes.ts, live-notes 28-30). A bearer never opens the
// cookie gateway, and `Messages` answers 403 here.
import { answers, type DataResult } from './answers.js';
import { dataAnswer } from './gateway.js';
import { json } from './reply.js';
import type { Call, Reply } from './types.js';
import type { World } from './world.js';

const API_PATH = /^\/(2\.0|3\.0)\/(.+?)\/?$/;

export function isApiPath(path: string): boolean {
  return API_PATH.test(path);
}

/** The child whose bearer token a request carries, live or not (for the request log). */
export function bearerLogin(world: World, call: Call): string | undefined {
  return world.families.bearer(bearerOf(call))?.login;
}

export function handleApi(world: World, call: Call): Reply {
  const [, version = '3.0', endpoint = ''] = API_PATH.exec(call.path) ?? [];
  const bearer = world.families.bearer(bearerOf(call));
  const account = bearer ? world.account(bearer.login) : undefined;
  if (!bearer || !account) return toReply(answers.deadSession());
  if (endpoint === 'AutoLoginToken') {
    if (call.method !== 'POST') return toReply(answers.methodNotAllowed(), bearer.login);
    return json(200, { Token: world.families.issueOneTime(bearer.login) }, { login: bearer.login });
  }
  if (world.families.isForbidden(bearer.login, endpoint)) return toReply(answers.forbidden(), bearer.login);
  return toReply(dataAnswer(world, call, account, endpoint, `${world.urls().auth_url}/${version}`), bearer.login);
}

/**
 * The API's own answer in a maintenance window: JSON `{"Status": "Maintenance"}` (live-notes 29), with
 * the 503 of the portal's maintenance windows (live-notes 3). Other failures as every host answers them.
 */
export function apiFault(status: number): Reply | undefined {
  if (status !== 503) return undefined;
  return json(503, { Status: 'Maintenance', Message: 'Trwa przerwa techniczna' }, { headers: { 'Cache-Control': 'no-store', 'Retry-After': '120' } });
}

function bearerOf(call: Call): string | undefined {
  const header = call.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer (\S+)$/.exec(header) : null;
  return match?.[1];
}

function toReply(result: DataResult, login?: string): Reply {
  return {
    status: result.status,
    headers: {
      'Content-Type': result.html === undefined ? 'application/json; charset=utf-8' : 'text/html; charset=UTF-8',
      'Cache-Control': 'no-store',
    },
    body: result.html ?? (result.body === undefined ? '' : JSON.stringify(result.body)),
    ...(login === undefined ? {} : { login }),
  };
}
