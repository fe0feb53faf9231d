// What `check` is run with: its own file, so that check.ts and check-family.ts both read it and neither imports the other's.
import type { Config } from '../config/schema.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';

export interface CheckOptions {
  config: Config;
  out: { write(text: string): unknown };
  log: Logger;
  clock?: Clock;
  /** Print the addresses with the access token (`check --show-token`); else without it. */
  showToken?: boolean;
  /** `check --trace FILE`: write each account's login and first reads there (no secrets, no child data). */
  trace?: string;
}
