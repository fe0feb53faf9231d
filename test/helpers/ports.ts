// A TCP port nobody listens on right now, for servers a test starts on a fixed port. It is taken below
// the kernel's ephemeral range (ip_local_port_range, 32768-60999 on Linux), from which every outgoing
// connection and every listen(0) of the files running beside this one take their ports: a port that
// range handed out and that was then let go could be taken again before the test's server listened on
// it (EADDRINUSE in demo.test.ts once, with three files running side by side). A port is never handed
// out twice by one process, and it is checked free on every address, as a server on 0.0.0.0 needs.
import type { Server } from 'node:http';
import net from 'node:net';

const FIRST = 20_000;
const LAST = 32_000;
const handedOut = new Set<number>();

function listens(port: number): Promise<boolean> {
  const server = net.createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 200; tries++) {
    const port = FIRST + Math.floor(Math.random() * (LAST - FIRST));
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await listens(port)) return port;
  }
  throw new Error(`no free port between ${FIRST} and ${LAST}`);
}

/** Starts `server` listening on a port the kernel picks on 127.0.0.1 (the helpers' own servers); its port. */
export async function listenOnLoopback(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

/** Closes an HTTP server with the connections it still holds (a kept-alive one would hold close() open). */
export async function closeHttp(server: Server | undefined): Promise<void> {
  if (server === undefined) return;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}
