// The real bridge (App) for the fault suite: the ordinary harness, with every log line kept and the
// secrets a test must never see in any output gathered in one place.
import { Agent, type Dispatcher } from 'undici';
import { LogSink, leakedSecrets, savedCookieValues, type Secret } from './faults.js';
import type { SimTap } from './faults-sim.js';
import { startHarness, type Harness, type HarnessAccount, type HarnessOptions } from './app.js';

export type FaultAccount = HarnessAccount;

export interface FaultAppOptions extends Omit<HarnessOptions, 'log' | 'logLevel' | 'roots'> {
  tap: SimTap;
}

export interface FaultApp extends Harness {
  logs: LogSink;
  /** Names of secrets found in any MQTT message or log line so far (and in `more`). */
  leaks(more?: Iterable<string>): Promise<string[]>;
}

/**
 * A dispatcher whose requests time out after `cut(ms)` (the App has no timeout option of its own), and as the App's own
 * before it and after `cut(undefined)`. Only while the portal is slow: a real-time limit of a second over every pass
 * would cut an ordinary answer of a busy machine (the first pass failed so beside a full suite's lint).
 * undici counts a headers timeout in ticks of its own half-second timer, not in real time: a 1 s cut fires 1 to 1.5 s
 * after the request on an idle machine, and later on a busy one, each tick late in turn; an answer meant to be cut
 * must come long after that.
 */
export function cuttingDispatcher(): { dispatcher: Dispatcher; cut(ms: number | undefined): void } {
  let limit: number | undefined;
  const dispatcher = new Agent().compose(
    (dispatch) => (opts, handler) => dispatch(limit === undefined ? opts : { ...opts, headersTimeout: limit, bodyTimeout: limit }, handler),
  );
  return { dispatcher, cut: (ms) => (limit = ms) };
}

export async function startFaultApp(options: FaultAppOptions): Promise<FaultApp> {
  const logs = new LogSink();
  const harness = await startHarness({ ...options, log: logs.logger(), logLevel: 'trace' });
  // The harness's own properties, its `app` getter included, plus what the fault suite adds.
  const fa = Object.defineProperties({}, Object.getOwnPropertyDescriptors(harness)) as FaultApp;
  fa.logs = logs;
  fa.leaks = async (more = []) => {
    const secrets: Secret[] = [
      ...options.accounts.map((a) => ({ name: `password of ${a.login}`, value: a.password })),
      ...(options.mqttAuth ? [{ name: 'MQTT password', value: options.mqttAuth.password }] : []),
      ...options.tap.secrets(),
      ...(await savedCookieValues(harness.dataDir)),
    ];
    const texts = [...harness.rec.messages.map((m) => `${m.topic} ${m.text}`), ...logs.lines, ...more];
    return leakedSecrets(texts, secrets);
  };
  return fa;
}
