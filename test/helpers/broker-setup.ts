// Vitest global setup for the tests that talk to a real broker: one probe of MQTT_URL before any file
// runs, so a missing Mosquitto stops the run at once with one line on how to start one, instead of
// every test waiting out its own timeout.
import net from 'node:net';
import { connect } from 'mqtt';
import { MQTT_URL } from './mqtt.js';

/** No broker answered at the URL the tests would use; the message is the whole advice, on one line. */
export class BrokerUnreachableError extends Error {
  constructor(url: string, why: string) {
    super(
      `No MQTT broker at ${url} (${why}): the integration and fault tests need one. ` +
        'Start Mosquitto (apt-get install mosquitto, then mosquitto -d) or set MQTT_URL to a broker you have.',
    );
    this.name = 'BrokerUnreachableError';
  }
}

/** A TCP connect to the broker's host and port, then an MQTT CONNECT; throws BrokerUnreachableError. */
export async function probeBroker(url: string, timeoutMs = 3_000): Promise<void> {
  const parsed = new URL(url);
  const port = Number(parsed.port || (parsed.protocol === 'mqtts:' ? 8883 : 1883));
  await tcpConnect(parsed.hostname, port, timeoutMs).catch((err: unknown) => {
    throw new BrokerUnreachableError(url, reason(err));
  });
  // Something listens; make sure it speaks MQTT and lets an anonymous client in, as the tests assume.
  const client = connect(url, { reconnectPeriod: 0, connectTimeout: timeoutMs });
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no CONNACK within ${timeoutMs} ms`)), timeoutMs);
      client.once('connect', () => {
        clearTimeout(timer);
        resolve();
      });
      const fail = (err?: Error): void => {
        clearTimeout(timer);
        reject(err ?? new Error('connection closed before CONNACK'));
      };
      client.once('error', fail);
      client.once('close', () => fail());
    });
  } catch (err) {
    throw new BrokerUnreachableError(url, `no MQTT answer: ${reason(err)}`);
  } finally {
    await client.endAsync(true);
  }
}

function tcpConnect(host: string, port: number, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', reject);
  });
}

function reason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code ?? (err instanceof Error ? err.message : String(err));
}

export default async function setup(): Promise<void> {
  try {
    await probeBroker(MQTT_URL);
  } catch (err) {
    if (!(err instanceof BrokerUnreachableError)) throw err;
    // Thrown, vitest would bury the line under "No test files found" and its filters: say it, and stop.
    process.stderr.write(`\n${err.message}\n`);
    process.exit(1);
  }
}
