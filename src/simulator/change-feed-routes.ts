// The change feed's routes (live-notes 28-30), on the API host by bearer token and, when a test grants it,
// on the cookie gateway: POST ChangeRegister registers a device, GET PushChanges?pushDevice= lists its
// changes, DELETE PushChanges/<id>,<id>,...?pushDevice= acknowledges at most 30 of them. Where the notes
// give no status, the portal's usual one is used: 400 with a Code, as FilterInvalidValue has.
import type { SimAccount } from './account.js';
import { answers, type DataResult } from './answers.js';
import type { SimChange } from './change-feed-state.js';
import type { Call } from './types.js';
import type { World } from './world.js';

/** The most change ids one DELETE may name (live-notes 30). */
export const MAX_DELETE_IDS = 30;

const DELETE_PATH = /^PushChanges\/([^/]+)$/;

/** The change feed's answer to a request, or undefined when it is not one of the change feed's routes. */
export function changeFeedAnswer(
  world: World,
  call: Call,
  account: SimAccount,
  endpoint: string,
  api: string,
  read: (endpoint: string) => unknown,
): DataResult | undefined {
  const deleting = DELETE_PATH.exec(endpoint);
  const route =
    endpoint === 'ChangeRegister' && call.method === 'POST'
      ? register
      : endpoint === 'PushChanges' && call.method === 'GET'
        ? list
        : deleting && call.method === 'DELETE'
          ? remove(deleting[1] ?? '')
          : undefined;
  if (!route) return undefined;
  // The gateway refuses a request it can read, unless a test granted the change feed there (live-notes 28).
  const refused = call.host === 'portal' && !account.changeFeed.gatewayGranted;
  // What the clock revealed since the last look is named before the change feed answers (change-feed-records.ts).
  if (!refused) account.reveal(read);
  return route({ world, call, account, api, refused });
}

interface ChangeFeedCall {
  world: World;
  call: Call;
  account: SimAccount;
  /** The address resources' Urls start with (the API host's, or the gateway's). */
  api: string;
  /** The road does not serve the change feed: a well-formed request is answered 403. */
  refused: boolean;
}

function register({ call, account, api, refused }: ChangeFeedCall): DataResult {
  const body = registration(call.body);
  if (!body) return answers.invalidRequest();
  if (refused) return answers.forbidden();
  const result = account.changeFeed.register(body.sendPush);
  if ('refused' in result) return result.refused === 403 ? answers.forbidden() : answers.invalidRequest();
  if ('already' in result) {
    if (result.already === undefined) return answers.deviceRegistered();
    return answers.ok({ ChangeRegister: device(api, result.already), Code: 'DeviceRegistered' });
  }
  return answers.ok({ ChangeRegister: device(api, result.device) });
}

function list({ world, call, account, api, refused }: ChangeFeedCall): DataResult {
  const id = pushDevice(call);
  if (id === undefined) return answers.filterInvalid();
  if (refused) return answers.forbidden();
  if (!account.changeFeed.knows(id)) return answers.unknownPushDevice();
  return answers.ok({
    Changes: account.changeFeed.listed(id, account.stamp()).map((change) => shown(change, api)),
    ChangesTimestamp: Math.floor(world.now() / 1000),
  });
}

function remove(ids: string): (changeFeed: ChangeFeedCall) => DataResult {
  return ({ call, account, refused }) => {
    const id = pushDevice(call);
    if (id === undefined) return answers.filterInvalid();
    if (refused) return answers.forbidden();
    if (!account.changeFeed.knows(id)) return answers.unknownPushDevice();
    const parts = ids.split(',').map((part) => safeDecode(part));
    if (parts.some((part) => !/^\d+$/.test(part))) return answers.badRequest('[212] Invalid request params');
    if (parts.length > MAX_DELETE_IDS) return answers.badRequest(`Too many ids: at most ${MAX_DELETE_IDS}`);
    account.changeFeed.remove(id, parts.map(Number));
    return { status: 204 };
  };
}

/** The JSON body `{"sendPush": 0, "appVersion": "..."}` (a numeric string for sendPush is taken too). */
function registration(text: string): { sendPush: 0 | 1 } | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { sendPush, appVersion } = body as { sendPush?: unknown; appVersion?: unknown };
  if (typeof appVersion !== 'string' || appVersion.trim() === '') return undefined;
  if (sendPush === 0 || sendPush === '0') return { sendPush: 0 };
  if (sendPush === 1 || sendPush === '1') return { sendPush: 1 };
  return undefined;
}

function pushDevice(call: Call): number | undefined {
  const value = call.query.get('pushDevice');
  return value !== null && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

function device(api: string, id: number): { Id: number; Url: string } {
  return { Id: id, Url: `${api}/ChangeRegister/${id}` };
}

/**
 * A change as PushChanges lists it. The portal is inconsistent about id types (live-notes 29): here
 * every change with an even id carries it as a string, the others as a number; a record's id is a string.
 */
function shown(change: SimChange, api: string): Record<string, unknown> {
  return {
    Id: change.id % 2 === 0 ? String(change.id) : change.id,
    Resource: { Id: change.recordId, Type: change.type, Url: `${api}/${change.type}/${change.recordId}` },
    Type: change.kind,
    AddDate: change.addDate,
    extraData: change.extraData,
  };
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
