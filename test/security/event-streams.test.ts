// The board's event streams of the running bridge under attack: at most 16 open at once (the 17th
// gets 503 and its page fetches `api/board`), and a reader that stops reading while the states change pass after
// pass is dropped once 256 KB wait for it in the bridge, with the bridge's memory watched. The old
// code took any number of streams and kept every event for a reader that never read.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { MAX_STREAM_BUFFER, MAX_STREAMS } from '../../src/outputs/web/streams.js';
import { createLogger } from '../../src/util/log.js';
import { freePort } from '../helpers/ports.js';
import { simulatedSchool } from '../helpers/school.js';
import { waitUntil } from '../helpers/mqtt.js';
import { StalledReader, StreamReader, getFrom, tokenIn } from '../helpers/security-web.js';

const accounts = DEMO_ACCOUNTS.map((a) => ({ login: a.login, password: a.password }));
const school = simulatedSchool('2026-11-18T06:30:00+01:00');

/** Each reader from an address of its own: 16 tablets, not one device over its connection share. */
const device = (n: number): string => `127.0.0.${10 + n}`;

describe('event streams', () => {
  it('takes 16 streams, refuses the 17th with 503, and takes one again when a place is free', async () => {
    const port = await freePort();
    const h = await school.start({ accounts: accounts.slice(0, 1), http: { port } });
    await h.runUntil(() => h.state('ania', 'lucky_number') !== undefined, 'the first pass');
    const target = `/api/events?token=${await tokenIn(h.dataDir)}`;
    const readers: StreamReader[] = [];
    try {
      for (let i = 0; i < MAX_STREAMS; i++) readers.push(await StreamReader.open(device(i), port, target));
      expect(MAX_STREAMS).toBe(16);
      expect(readers.map((r) => r.status)).toEqual(readers.map(() => 200));
      await waitUntil(() => readers.every((r) => r.events === 1), 'every stream to get the board');
      const refused = await getFrom(device(16), port, target);
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('60');
      // The page's other requests still work (it fetches `api/board` instead).
      expect((await getFrom(device(16), port, target.replace('events', 'board'))).status).toBe(200);
      // A board leaves: its place is free as soon as the bridge has seen the connection close.
      readers.pop()?.close();
      let again = await StreamReader.open(device(16), port, target);
      for (let tries = 0; again.status === 503 && tries < 50; tries++) again = await StreamReader.open(device(16), port, target);
      readers.push(again);
      expect(again.status).toBe(200);
    } finally {
      for (const r of readers) r.close();
    }
  });

  it('drops a stalled reader past 256 KB while the states change, and the live boards go on', { timeout: 120_000 }, async () => {
    const port = await freePort();
    const lines: string[] = [];
    const log = createLogger('warn', { write: (line: string) => void lines.push(line) }, { format: 'json' });
    // A family of four (the demo's two, twice): a bigger board, so fewer events fill the backlog.
    const twins = DEMO_ACCOUNTS.map((a, i) => ({ login: `${a.login}${i}`, password: a.password, profile: a.profile }));
    for (const twin of twins) school.sim.addAccount(twin);
    const family = [...accounts, ...twins.map((t, i) => ({ login: t.login, password: t.password, id: `twin${i}` }))];
    const h = await school.start({ accounts: family, http: { port }, log });
    await h.runUntil(() => ['ania', 'jan', 'twin0', 'twin1'].every((c) => h.state(c, 'lucky_number') !== undefined), 'the first passes');
    const target = `/api/events?token=${await tokenIn(h.dataDir)}`;
    const rssBefore = process.memoryUsage().rss;

    // The live board first: every version of the board the stalled reader is sent, the live one is sent too (each
    // stream is sent the versions it lacks). The stalled one opened first was sent a version the live one never
    // was when the board changed between the two openings (the clock's next step sends it the newer board the live
    // one opened with): its backlog then looked an event short of the limit (255,955 bytes, one run in four).
    const live = await StreamReader.open(device(2), port, target);
    const stalled = await StalledReader.open(device(1), port, target);
    try {
      await waitUntil(() => live.events >= 1, 'the live board to get the board');
      // A school day, ten minutes at a time: every pass changes the board ("updated 10:40", the lesson
      // now), so each step sends every reader an event of several KB.
      let steps = 0;
      let rssPeak = 0;
      while (!lines.some((l) => l.includes('event stream dropped')) && steps < 120) {
        const seen = live.events;
        await h.advanceMinutes(10);
        await waitUntil(() => live.events > seen, `an event after step ${steps}`);
        rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
        steps++;
      }
      const sentToLive = live.bytes;
      const drops = lines.filter((l) => l.includes('event stream dropped')).map((l) => JSON.parse(l) as { waiting_bytes: number });
      expect(drops).toHaveLength(1);
      // What waited in the bridge when it dropped the stream, as its log says: past the limit by the one event whose
      // write crossed it at most (with its chunk's framing). Measured where it waited: the live board's bytes less
      // the stalled reader's (as before) counted what the live board was sent after the drop in the same step of the
      // clock, and what the kernel held that a reset then threw away, and came within 14 KB of its bound.
      const waiting = drops[0]!.waiting_bytes;
      expect(waiting).toBeGreaterThan(MAX_STREAM_BUFFER);
      // It took more than the limit to get there, and the live board was sent all of it.
      expect(sentToLive).toBeGreaterThan(waiting);

      // The stalled reader finds its stream ended after what reached it (what the kernel took on its way).
      const { end, bytes } = await stalled.read();
      expect(['eof', 'ConnectionResetError']).toContain(end);
      // The process's RSS is watched and said, not bounded: in this process it moves with four
      // children's passes, the simulator and the test (40-55 MB over the run), far more than the backlog;
      // the backlog above is what the stalled reader costs.
      console.log('stalled reader', { steps, sentToLive, bytes, waiting, largestEvent: live.largestEvent, rssGrowth: rssPeak - rssBefore });
      // The live board was never dropped, and gets the next change too.
      expect(live.ended).toBe(false);
      const seen = live.events;
      await h.advanceMinutes(10);
      await waitUntil(() => live.events > seen, 'an event after the drop');
      // The event whose write crossed the limit was sent to the live board too, before the stalled one: begun
      // reading a later one, the live board has all of it, so the largest it saw is at least that one.
      expect(waiting).toBeLessThan(MAX_STREAM_BUFFER + live.largestEvent + 1024);
      // The dropped device can open a stream again.
      const back = await StreamReader.open(device(1), port, target);
      expect(back.status).toBe(200);
      back.close();
    } finally {
      stalled.close();
      live.close();
    }
  });
});
