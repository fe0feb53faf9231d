// Creating the mqtt.js client: options (last will, credentials only when given), the wait for the first
// connection with its timeout, a time limit for shutdown steps, and the broker URL made safe to log.
import { randomBytes } from 'node:crypto';
import { connect, type IClientOptions, type MqttClient } from 'mqtt';
import type { MqttConfig } from '../config/schema.js';
import type { Clock } from '../util/clock.js';

/** The broker refused the connection, or did not accept it in time. */
export class MqttConnectionError extends Error {
  override readonly name = 'MqttConnectionError';
  constructor(
    readonly url: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`cannot connect to the MQTT broker at ${url}: ${reason}`, options);
  }
}

export interface ClientSettings {
  mqtt: MqttConfig;
  will: { topic: string; payload: string };
  reconnectPeriodMs: number;
}

/** The URL without user name or password, for log lines and errors. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    parsed.username = '';
    return parsed.toString();
  } catch {
    return '[invalid url]';
  }
}

export function createClient(settings: ClientSettings): MqttClient {
  const { url, username, password } = settings.mqtt;
  const options: IClientOptions = {
    clientId: `dziennik2mqtt_${randomBytes(4).toString('hex')}`,
    clean: true,
    reconnectPeriod: settings.reconnectPeriodMs,
    // Retained things are republished after every connect, so only QoS 1 (events, results) is queued offline.
    queueQoSZero: false,
    will: { topic: settings.will.topic, payload: Buffer.from(settings.will.payload), qos: 1, retain: true },
  };
  // Only set when given: an explicit undefined would wipe credentials written in the URL.
  if (username) options.username = username;
  if (password) options.password = password;
  return connect(url, options);
}

/** CONNACK codes that no retry can fix: bad user name or password, not authorised (MQTT 3 and 5). */
const FATAL_CONNACK = new Set([4, 5, 134, 135]);

/** Resolves on the first connection; rejects on refused credentials, on `end`, or after timeoutMs. */
export function waitForConnect(client: MqttClient, url: string, timeoutMs: number, clock: Clock): Promise<void> {
  return new Promise((resolve, reject) => {
    const cleanup = (): void => {
      timer.cancel();
      client.off('connect', onConnect);
      client.off('error', onError);
      client.off('end', onEnd);
    };
    const fail = (reason: string, cause?: unknown): void => {
      cleanup();
      reject(new MqttConnectionError(url, reason, { cause }));
    };
    const onConnect = (): void => {
      cleanup();
      resolve();
    };
    const onError = (err: Error & { code?: unknown }): void => {
      if (typeof err.code === 'number' && FATAL_CONNACK.has(err.code)) fail('not authorised (check mqtt.username and mqtt.password)', err);
    };
    const onEnd = (): void => fail('stopped before connecting');
    const timer = clock.setTimer(() => fail(`no connection after ${Math.round(timeoutMs / 1000)} s`), timeoutMs);
    client.on('connect', onConnect);
    client.on('error', onError);
    client.on('end', onEnd);
  });
}

/** Settles with the promise, or rejects once ms have passed (for shutdown steps that must not hang). */
export async function within(promise: Promise<unknown>, ms: number, clock: Clock, what: string): Promise<void> {
  const abort = new AbortController();
  const timeout = clock.sleep(ms, abort.signal).then(() => {
    throw new Error(`timed out ${what}`);
  });
  try {
    await Promise.race([promise, timeout]);
  } finally {
    abort.abort();
    void timeout.catch(() => undefined);
  }
}
