// A portal that is down is not asked in a loop: while it fails, both hosts back off 1, 2, 4 ... minutes to
// poll.interval (20 minutes by default), together while the login fails, so the portal is tried about three
// times an hour, not at every 3-minute look at the unread counters; a refresh still tries at once, and once
// the portal is back the next good pass comes within poll.interval. The messaging host down alone backs
// off the same way while the register is read on.
import { describe, expect, it } from 'vitest';
import { clearSimFaults } from '../helpers/faults-sim.js';
import { MIN, worldFor, type PortalWorld } from '../helpers/faults-world.js';
import type { FaultApp } from '../helpers/faults-app.js';

const HOURS = 6;
/** poll.interval by default: the longest a failing host waits. */
const INTERVAL_MIN = 20;
/**
 * Tries at most: 3 an hour, and a few more (1 + 2 + 4 + 8 + 16 minutes reach poll.interval within the first
 * hour; a host that finds the outage later, or a session refresh due on a working host's read, tries once more).
 */
const MOST_TRIES = (HOURS * 60) / INTERVAL_MIN + 8;
const LOGIN_PAGE = /^\/loguj\//;

type Arrival = PortalWorld['tap']['arrivals'][number] & { minute: number };

/** Moves the clock `minutes` a minute at a time: every request the simulated hosts received, with the clock's minute. */
async function watch(h: FaultApp, w: PortalWorld, minutes: number): Promise<Arrival[]> {
  const seen: Arrival[] = [];
  for (let step = 0; step < minutes; step++) {
    const from = w.tap.arrivals.length;
    await h.advanceMinutes(1);
    const minute = Math.floor(w.clock.now() / MIN);
    seen.push(...w.tap.arrivals.slice(from).map((r) => ({ ...r, minute })));
  }
  return seen;
}

/** The minutes in which a request `asked` went out: the tries. */
function tries(seen: readonly Arrival[], asked: (r: Arrival) => boolean = () => true): number {
  return new Set(seen.filter(asked).map((r) => r.minute)).size;
}

const loginPage = (r: Arrival): boolean => r.host === 'portal' && LOGIN_PAGE.test(r.path);
/** The messaging host's reads: its own host, and the portal page that opens a messaging session. */
const messaging = (r: Arrival): boolean => r.host === 'messages' || r.path.startsWith('/wiadomosci');

/** Clears the faults; asserts the next good pass (problem OFF, a new last_update) comes within poll.interval. */
async function backWithinInterval(h: FaultApp, w: PortalWorld): Promise<void> {
  clearSimFaults(w.sim);
  const back = w.clock.now();
  const lastUpdate = h.state('ania', 'last_update');
  await h.advanceUntil(
    () => h.state('ania', 'problem') === 'OFF' && h.state('ania', 'last_update') !== lastUpdate,
    'a good pass after the portal is back',
    INTERVAL_MIN + 1,
  );
  expect(w.clock.now() - back).toBeLessThanOrEqual(INTERVAL_MIN * MIN);
  expect(h.state('ania', 'availability')).toBe('online');
}

describe.concurrent('a portal that is down', { timeout: 180_000 }, () => {
  it(`every host answering 503 for ${HOURS} hours: tried about 3 times an hour, a refresh tries at once, back within poll.interval`, async (ctx) => {
    const w = await worldFor(ctx);
    const h = await w.firstPass();
    w.sim.failNext(1_000_000_000, 503);
    const down = await watch(h, w, HOURS * 60);
    expect(h.state('ania', 'problem')).toBe('ON');
    expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'service_down' });
    expect(tries(down)).toBeGreaterThan(0);
    expect(tries(down)).toBeLessThanOrEqual(MOST_TRIES);

    // A person asking does not wait for the backoff.
    const before = w.tap.arrivals.length;
    await w.refresh();
    expect(w.tap.arrivals.length).toBeGreaterThan(before);
    await backWithinInterval(h, w);
  });

  it(`the portal's pages 503 for ${HOURS} hours, the session gone: each host tries it about 3 times an hour`, async (ctx) => {
    const w = await worldFor(ctx);
    const h = await w.firstPass();
    // The messages host answers, but a new messaging session is opened through the portal's login too.
    w.sim.expireSessions(w.login);
    w.sim.failNext(1_000_000_000, 503, { host: 'portal' });
    const down = await watch(h, w, HOURS * 60);
    expect(h.state('ania', 'problem')).toBe('ON');
    expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'service_down' });
    // Each host backs off to poll.interval on the portal: the register's API, and the page that opens the
    // messaging host's sessions (the messages host itself answers); the login page is asked about once a try.
    const portal = down.filter((r) => r.host === 'portal');
    expect(tries(portal, messaging)).toBeGreaterThan(0);
    expect(tries(portal, messaging)).toBeLessThanOrEqual(MOST_TRIES);
    expect(tries(portal, (r) => r.path.startsWith('/gateway/'))).toBeLessThanOrEqual(MOST_TRIES);
    expect(portal.filter(loginPage).length).toBeLessThanOrEqual(MOST_TRIES);
    await backWithinInterval(h, w);
  });

  it('the messaging host down alone: asked about 3 times an hour, the register read on meanwhile', async (ctx) => {
    const w = await worldFor(ctx);
    const h = await w.firstPass();
    w.sim.failNext(1_000_000_000, 503, { host: 'messages' });
    const first = await watch(h, w, 60);
    // The register's reads go on: a new grade shows within poll.interval.
    w.addGrade();
    const grade = await watch(h, w, INTERVAL_MIN + 3);
    expect(h.state('ania', 'newest_grade')).toBe('3');
    const rest = await watch(h, w, HOURS * 60 - 60 - INTERVAL_MIN - 3);
    expect(h.state('ania', 'problem')).toBe('ON');
    expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'service_down' });
    const seen = [...first, ...grade, ...rest];
    expect(tries(seen, messaging)).toBeGreaterThan(0);
    expect(tries(seen, messaging)).toBeLessThanOrEqual(MOST_TRIES);
    await backWithinInterval(h, w);
  });
});
