// undici's pool for one address stays bounded (issue 64, point 6). Without a bound the pool adds a client
// (a connection) whenever all of its own are busy and keeps it for good: a simulated month grew the portal's
// from 60 to 83. Now a burst of every child's reads shares at most CONNECTIONS_PER_ADDRESS connections, the
// rest waiting their turn, and however many passes run, no more than that are open: counted where the
// portal sees them, at the server (the bound is the Agent's public `connections` option, src/portal/http.ts).
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTIONS_PER_ADDRESS, HttpClient } from '../../../src/portal/http.js';
import { systemClock } from '../../../src/util/clock.js';

let server: Server;
let origin: string;
/** Connections open at once, and the most seen. */
let open = 0;
let most = 0;

beforeAll(async () => {
  // Answers held until no new request came in one turn of the event loop: each wave of the burst is
  // in flight together, as a pass's reads are while the portal thinks.
  let held: ServerResponse[] = [];
  let waiting = false;
  const release = (count: number): void => {
    if (held.length !== count) {
      setImmediate(() => release(held.length));
      return;
    }
    waiting = false;
    for (const res of held.splice(0)) res.end('{}');
  };
  server = createServer((_req, res) => {
    held.push(res);
    if (!waiting) {
      waiting = true;
      setImmediate(() => release(held.length));
    }
  });
  server.on('connection', (socket) => {
    most = Math.max(most, ++open);
    socket.on('close', () => open--);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  held = [];
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the connections to one address', () => {
  it('are bounded through many passes of bursts, every request still answered', async () => {
    // Four children's clients, each with its own jar, sharing the bridge's Agent as the bridge's do.
    const children = Array.from({ length: 4 }, (_, i) => new HttpClient({ account: `child${i}`, clock: systemClock }));
    let answered = 0;
    for (let pass = 0; pass < 10; pass++) {
      await Promise.all(
        Array.from({ length: 40 }, async (_, i) => {
          const res = await children[i % children.length]!.send({ url: `${origin}/gateway/api/2.0/read/${pass}/${i}` });
          if (res.status === 200) answered++;
        }),
      );
    }
    expect(answered).toBe(10 * 40);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(CONNECTIONS_PER_ADDRESS);
    expect(open).toBeLessThanOrEqual(CONNECTIONS_PER_ADDRESS);
  });
});
