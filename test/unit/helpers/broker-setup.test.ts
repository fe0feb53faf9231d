// The global setup of the broker tests: without a broker at MQTT_URL it must fail at once with one line
// that says how to get one, whether nothing listens or something that is not MQTT does.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerUnreachableError, probeBroker } from '../../helpers/broker-setup.js';
import { freePort } from '../../helpers/ports.js';

const servers: net.Server[] = [];
const sockets: net.Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const s of servers.splice(0)) await new Promise((resolve) => s.close(resolve));
});

/** A TCP server on 127.0.0.1 that does `onSocket` with every connection; returns its port. */
async function tcpServer(onSocket: (socket: net.Socket) => void): Promise<number> {
  const server = net.createServer((socket) => {
    sockets.push(socket);
    onSocket(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

async function failure(url: string): Promise<BrokerUnreachableError> {
  const err = await probeBroker(url, 500).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BrokerUnreachableError);
  return err as BrokerUnreachableError;
}

describe('the broker probe before the integration tests', () => {
  it('names the URL, the cause and how to start a broker, in one line, when the port is closed', async () => {
    const url = `mqtt://127.0.0.1:${await freePort()}`;
    const { message } = await failure(url);
    expect(message).not.toContain('\n');
    expect(message).toContain(`No MQTT broker at ${url} (ECONNREFUSED)`);
    expect(message).toMatch(/mosquitto -d/);
    expect(message).toMatch(/apt-get install mosquitto/);
    expect(message).toMatch(/MQTT_URL/);
  });

  it('fails when something listens that never answers the MQTT CONNECT', async () => {
    const port = await tcpServer(() => undefined); // accepts and stays silent
    const { message } = await failure(`mqtt://127.0.0.1:${port}`);
    expect(message).toMatch(/no MQTT answer/);
    expect(message).not.toContain('\n');
  });

  it('fails when the listener hangs up at once', async () => {
    const port = await tcpServer((socket) => socket.destroy());
    expect((await failure(`mqtt://127.0.0.1:${port}`)).message).toMatch(/no MQTT answer/);
  });
});
