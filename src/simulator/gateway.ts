// The data gateway, {base_url}/gateway/api/2.0/<Endpoint>: cookie authentication by oauth_token, the
// per-account overrides tests set, the change feed (change-feed-routes.ts), the fixed quirks of spec 4.7, then
// the data routes. Every answer is no-store, and a live session gets its oauth_token re-sent.
import type { SimAccount } from './account.js';
import { answers } from './answers.js';
import type { DataResult } from './answers.js';
import { setCookie } from './cookies.js';
import type { DataContext } from './data/context.js';
import { resolve } from './data/routes.js';
import { warsawNow } from './dates.js';
import { expand } from './expand.js';
import { changeFeedAnswer } from './change-feed-routes.js';
import { quirkFor } from './quirks.js';
import { TOKEN_MAX_AGE } from './sessions.js';
import type { PortalSession } from './sessions.js';
import type { Call, Reply } from './types.js';
import type { World } from './world.js';

export const GATEWAY_PREFIX = '/gateway/api/2.0';

export function isGatewayPath(path: string): boolean {
  return path === GATEWAY_PREFIX || path.startsWith(`${GATEWAY_PREFIX}/`);
}

export function handleGateway(world: World, call: Call): Reply {
  const session = world.sessions.liveByToken(call.cookies.get('oauth_token'));
  const account = session ? world.account(session.login) : undefined;
  const endpoint = call.path.slice(GATEWAY_PREFIX.length).replace(/^\/+|\/+$/g, '');
  const result = session && account ? dataAnswer(world, call, account, endpoint, `${world.urls().base_url}${GATEWAY_PREFIX}`) : answers.deadSession();
  return toReply(result, session && account ? session : undefined);
}

/** A data resource of an account, with the resources' `Url`s under `api` (the gateway's, or the API host's). */
export function dataAnswer(world: World, call: Call, account: SimAccount, endpoint: string, api: string): DataResult {
  const forced = forcedStatus(account, endpoint, `${api}/${endpoint}`);
  if (forced) return forced;
  const { base_url } = world.urls();
  const now = world.now();
  // A new school year begun since the last request moves the child up before anything is answered.
  account.year.settle(world.today());
  const ctx: Omit<DataContext, 'params'> = {
    account,
    today: world.today(),
    nowMs: now,
    recordsDay: account.recordsHeldOn,
    clock: warsawNow(now).time,
    api,
    base: base_url,
    vars: {
      childLid: account.childLid,
      parentLid: account.parentLid,
      userId: account.data.account.userId,
      login: account.login,
    },
    method: call.method,
    query: call.query,
    body: call.body,
  };
  const override = account.overrides.get(endpoint);
  if (override !== undefined) return answers.ok(expand(override, ctx));
  const read = (list: string): unknown => resolve(list, { ...ctx, method: 'GET', query: new URLSearchParams(), body: '' }).body;
  return changeFeedAnswer(world, call, account, endpoint, api, read) ?? quirkFor(endpoint, api) ?? resolve(endpoint, ctx);
}

/** A status set with setModuleStatus, for the endpoint itself or through a 'Prefix/*' entry. */
function forcedStatus(account: SimAccount, endpoint: string, url: string): DataResult | undefined {
  for (const [key, status] of account.moduleStatus) {
    const hit = key === endpoint || (key.endsWith('/*') && endpoint.startsWith(key.slice(0, -1)));
    if (!hit) continue;
    if (status === 'insufficient_scopes') return answers.insufficientScopes();
    if (status === 'disabled') return answers.disabled(url);
    if (status === 403) return answers.forbidden();
    if (status === 404) return answers.notFound();
    return answers.methodNotAllowed();
  }
  return undefined;
}

function toReply(result: DataResult, session: PortalSession | undefined): Reply {
  const reply: Reply = {
    status: result.status,
    headers: {
      'Content-Type': result.html === undefined ? 'application/json; charset=utf-8' : 'text/html; charset=UTF-8',
      'Cache-Control': 'no-store',
    },
    body: result.html ?? (result.body === undefined ? '' : JSON.stringify(result.body)),
  };
  if (session) {
    reply.cookies = [setCookie('oauth_token', session.token, { maxAge: TOKEN_MAX_AGE })];
    reply.login = session.login;
  }
  return reply;
}
