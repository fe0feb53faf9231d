// The simulator's shared state as the host handlers see it: clock, addresses, sessions, accounts and
// the switches tests flip. PortalSimulator implements it; handlers depend only on this interface.
import type { SimAccount } from './account.js';
import type { SimMessaging } from './messaging-state.js';
import type { SimDownloads } from './download-state.js';
import type { SimFamilies } from './family-state.js';
import type { SessionStore } from './sessions.js';
import type { SimUrls } from './types.js';
import type { LiveLoginSwitch } from './auth-live.js';

export type CaptchaWhere = 'login' | 'redirect';

/**
 * A login the portal refuses at step 3 whatever the password (a locked account), with its words as
 * a string item or an {message} object of `errors` (live-notes 13).
 */
export interface LoginRefusal {
  message: string;
  as: 'string' | 'object';
}

export interface World {
  now(): number;
  /** The simulated today, YYYY-MM-DD. */
  today(): string;
  urls(): SimUrls;
  readonly sessions: SessionStore;
  /** Mailboxes, messaging sessions and the messaging switches. */
  readonly messaging: SimMessaging;
  account(login: string): SimAccount | undefined;
  /** Where a captcha is demanded for this login, if anywhere. */
  captcha(login: string): CaptchaWhere | false;
  redirectLoop(): boolean;
  /** Whether a switch of the live login (live-notes 16-19) is on. */
  loginSwitch(name: LiveLoginSwitch): boolean;
  /** The refusal set for this login, if any. */
  loginRefusal(login: string): LoginRefusal | undefined;
  /** A broken refresh: 200 without a new oauth_token. */
  refreshWithoutToken(): boolean;
  /** Called when login step 3 accepts a password. */
  loginSucceeded(login: string): void;
  /** Download keys, links and their test switches (spec 4.6). */
  readonly downloads: SimDownloads;
  /** The family portal's accounts, sessions, bearer tokens and switches (live-notes 21-26). */
  readonly families: SimFamilies;
}
