// The portal's change feed for one child (live-notes 28-32): a device registered once, the changes listed
// for it, and their acknowledgement. Built on the child's gateway, so each request goes the road the data
// reads go (the register road's cookie gateway, the family road's API host by bearer token, or whichever
// of the two holds) and a dead session or token is renewed exactly as for a data read. The change feed is a
// signal, not the truth (live-notes 32): a caller keeps a slow safety read of each list, and deletes a
// change only once what it caused has been handled (live-notes 30).
import { capLists, type ListCut } from './list-caps.js';
import {
  ConnectionError,
  DISABLED_CODE,
  ChangeFeedDeviceLostError,
  ChangeFeedInvalidError,
  ChangeFeedRefusedError,
  UnexpectedResponseError,
} from './errors.js';
import type { Gateway } from './gateway.js';
import { isDisabled, type JsonAnswer } from './http.js';
import { CHANGE_ID, changeRegisterAnswer, pushChange, pushChangesAnswer, type ChangeFeedChange } from './schemas/change-feed.js';

export type { ChangeFeedChange } from './schemas/change-feed.js';

/** The change feed's two endpoints (live-notes 28-30): a device's registration, and its changes (read, and deleted by id). */
export const CHANGE_FEED_ENDPOINTS = { register: 'ChangeRegister', changes: 'PushChanges' } as const;
const { register: REGISTER, changes: CHANGES } = CHANGE_FEED_ENDPOINTS;

/** The app version a registration names; the notes' example (live-notes 28). */
export const CHANGE_FEED_APP_VERSION = '6.1.5';
/** The most change ids one acknowledgement may name (live-notes 30). */
const MAX_ACK_IDS = 30;
/** The most changes read at once (interface 19.2, docs/cost-and-faults.md). */
export const CHANGES_MAX = 1_000;
/** A device or change id the client sends back: the portal's are numbers, given as numbers or strings. */

export interface ChangeFeedOptions {
  /** The child's gateway: its road is the change feed's road. */
  gateway: Gateway;
  /** The label errors name the child by (never a secret). */
  account: string;
  /** What `appVersion` the registration names (default CHANGE_FEED_APP_VERSION). */
  appVersion?: string;
}

/** What one read of the change feed found. */
export interface ChangeFeedRead {
  /** The changes listed, each once, in the portal's order. */
  changes: ChangeFeedChange[];
  /** ChangesTimestamp: the portal's time of the answer, in unix seconds. */
  timestamp?: number;
  /** Listed items the client could not read (no usable id): they cannot be acknowledged, the safety reads cover them. */
  unreadable: number;
}

export class ChangeFeed {
  constructor(private readonly options: ChangeFeedOptions) {}

  /**
   * Registers a device for the child and resolves to its id (`pushDevice`), sendPush 0 as the bots did.
   * `DeviceRegistered` with an id is that id; without one, a refusal: the portal keeps a device whose
   * id this client does not have. Throws FeedRefusedError (400, 403, 404, ...: not on this road),
   * ConnectionError (maintenance, 5xx, 429, network), a session's or token's error as a data read does,
   * UnexpectedResponseError for an answer without an id.
   */
  async register(): Promise<string> {
    const body = { sendPush: 0, appVersion: this.options.appVersion ?? CHANGE_FEED_APP_VERSION };
    const answer = await this.options.gateway.answer('POST', REGISTER, { body });
    const parsed = changeRegisterAnswer.safeParse(answer.json).data;
    this.maintenance(REGISTER, answer.status, parsed?.Status);
    const id = parsed?.ChangeRegister !== undefined && CHANGE_ID.test(parsed.ChangeRegister) ? parsed.ChangeRegister : undefined;
    if (parsed?.Code === 'DeviceRegistered') {
      if (id !== undefined) return id;
      throw new ChangeFeedRefusedError(answer.status, `${REGISTER}: the portal has a device registered already and gives no id`, {
        account: this.options.account,
        code: parsed.Code,
      });
    }
    if (isSuccess(answer.status) && !isDisabled(parsed)) {
      if (id !== undefined) return id;
      throw new UnexpectedResponseError(answer.status, `${REGISTER}: no device id in the answer`, {
        account: this.options.account,
        resource: REGISTER,
      });
    }
    throw this.refused(REGISTER, answer, parsed?.Code ?? (isDisabled(parsed) ? DISABLED_CODE : undefined));
  }

  /**
   * The changes listed for the device (live-notes 29); they stay listed until acknowledged. Throws
   * FeedDeviceLostError (UnableToGetPushDevice), FeedInvalidError (FilterInvalidValue, another 400),
   * FeedRefusedError (403/404/405, a module switched off), ConnectionError, UnexpectedResponseError. `cut`: told of
   * a list cut at CHANGES_MAX.
   */
  async changes(device: string, cut?: ListCut): Promise<ChangeFeedRead> {
    const answer = await this.options.gateway.answer('GET', CHANGES, { query: { pushDevice: device } });
    // At most CHANGES_MAX at once: the rest stay listed until acknowledged, and come at the next read.
    const parsed = pushChangesAnswer.safeParse(capLists(answer.json, CHANGES_MAX, (at, listed) => cut?.(at, listed))).data;
    this.judge(CHANGES, answer, parsed);
    if (!parsed || !Array.isArray(parsed.Changes)) {
      throw new UnexpectedResponseError(answer.status, `${CHANGES}: no Changes list in the answer`, {
        account: this.options.account,
        code: parsed?.Code,
        resource: CHANGES,
      });
    }
    const changes = new Map<string, ChangeFeedChange>();
    let unreadable = 0;
    for (const item of parsed.Changes) {
      const change = pushChange.safeParse(item);
      if (!change.success) unreadable++;
      else if (!changes.has(change.data.id)) changes.set(change.data.id, change.data);
    }
    return { changes: [...changes.values()], ...(parsed.ChangesTimestamp === undefined ? {} : { timestamp: parsed.ChangesTimestamp }), unreadable };
  }

  /**
   * Deletes changes from the device's list (live-notes 30): at most 30 ids a call, one call after
   * another; ids given twice are sent once, none sends nothing. A failed call throws as changes() does,
   * the calls before it done (deleting again is harmless). An id that is not one the portal gives is
   * refused before any request (FeedInvalidError, status 0).
   */
  async acknowledge(device: string, ids: readonly string[]): Promise<void> {
    const unique = [...new Set(ids)];
    if (unique.some((id) => !CHANGE_ID.test(id))) {
      throw new ChangeFeedInvalidError(0, `${CHANGES}: an acknowledgement names something that is not a change id`, {
        account: this.options.account,
      });
    }
    for (let at = 0; at < unique.length; at += MAX_ACK_IDS) {
      const batch = unique
        .slice(at, at + MAX_ACK_IDS)
        .map(encodeURIComponent)
        .join(',');
      const answer = await this.options.gateway.answer('DELETE', `${CHANGES}/${batch}`, { query: { pushDevice: device } });
      this.judge(CHANGES, answer, pushChangesAnswer.safeParse(answer.json).data);
    }
  }

  /** A read's or an acknowledgement's answer: nothing when it is a success, else its error. */
  private judge(what: string, answer: JsonAnswer, parsed: { Status?: string; Code?: string } | undefined): void {
    const { account } = this.options;
    this.maintenance(what, answer.status, parsed?.Status);
    // The Code decides whatever the status (the notes give UnableToGetPushDevice none).
    if (parsed?.Code === 'UnableToGetPushDevice')
      throw new ChangeFeedDeviceLostError(`${what}: the portal does not know the device (UnableToGetPushDevice)`, { account });
    if (parsed?.Code === 'FilterInvalidValue')
      throw new ChangeFeedInvalidError(answer.status, `${what}: FilterInvalidValue`, { account, code: parsed.Code });
    if (isSuccess(answer.status) && !isDisabled(parsed)) return;
    if (answer.status === 400) throw new ChangeFeedInvalidError(400, `${what}: ${parsed?.Code ?? 'status 400'}`, { account, code: parsed?.Code });
    throw this.refused(what, answer, parsed?.Code ?? (isDisabled(parsed) ? DISABLED_CODE : undefined));
  }

  /** `{"Status": "Maintenance"}` at any status is the portal's maintenance (live-notes 3, 29): the portal is down. */
  private maintenance(what: string, status: number, said: string | undefined): void {
    if (said?.toLowerCase() === 'maintenance')
      throw new ConnectionError(`${what}: ${status} (the portal is in maintenance)`, { account: this.options.account, status });
  }

  /** A 4xx (or a module switched off) refuses the change feed on this road; anything else is not an answer the notes know. */
  private refused(what: string, { status }: JsonAnswer, code: string | undefined): Error {
    const { account } = this.options;
    if ((status >= 400 && status < 500) || code === 'Disabled')
      return new ChangeFeedRefusedError(status, `${what}: ${code ?? `status ${status}`}`, { account, code });
    return new UnexpectedResponseError(status, `${what}: ${code ?? `status ${status}`}`, { account, code, resource: what });
  }
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}
