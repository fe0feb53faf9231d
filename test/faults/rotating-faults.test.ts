// The fault suite, six rotating minutes (issue 36, item 0): a new user's portal misbehaves for six
// minutes, one fault every 20 s in turn, while the school adds a grade, a message or an announcement
// every 20 s and the parent presses refresh every 20 s (poll.interval 5m, poll.fast_interval 1m). Once
// the faults are gone, every new item must have fired its event exactly once and `problem` must be
// OFF within the normal interval, whichever resource failed last.
import { describe, expect, it } from 'vitest';
import { clearSimFaults } from '../helpers/faults-sim.js';
import { waitUntil } from '../helpers/mqtt.js';
import { GATEWAY, MIN, addGrade, problemReasons, repeatedEvents, worldFor, type PortalWorld } from '../helpers/faults-world.js';

// Over HTTP (`portal: 'http'`): among the faults are connection resets on the socket (the tap's resetNext).

const SLOT_MS = 20_000;
const SLOTS = 18; // six minutes
const MESSAGING_API = /^\/api\//;

/** The faults, one per 20-second slot in turn; each is undone by clearing the simulator's and the tap's rules. */
const FAULTS: [name: string, start: (w: PortalWorld) => void][] = [
  ['six 503s on the gateway', (w) => w.sim.failNext(6, 503, { host: 'portal', path: GATEWAY })],
  ['messaging sessions expired', (w) => w.sim.messaging.expireSessions(w.login)],
  ['portal sessions expired', (w) => w.sim.expireSessions(w.login)],
  ['2 s of latency', (w) => w.sim.setLatency(2_000, { host: 'portal', path: GATEWAY })],
  ['four connection resets', (w) => w.tap.resetNext(4, { host: 'portal', path: GATEWAY })],
  ['HTML instead of JSON on Grades twice', (w) => w.tap.bodyFault(2, 'html', { host: 'portal', path: '/gateway/api/2.0/Grades' })],
  ['three 429s on the messaging API', (w) => w.sim.failNext(3, 429, { host: 'messages', path: MESSAGING_API })],
];

/** The news, one per slot in turn: a grade, a message, an announcement. */
const NEWS: ((w: PortalWorld, n: number) => void)[] = [
  (w) => addGrade(w.sim),
  (w, n) => w.sim.messaging.addMessage(w.login, { topic: `Informacja ${n}`, body: `Wiadomość numer ${n}.`, from: 162001 }),
  (w, n) => w.sim.account(w.login).addNotice({ Subject: `Ogłoszenie ${n}`, Content: `Treść ogłoszenia ${n}.` }),
];

/**
 * Presses refresh without waiting for its pass: inside the minute after the last forced pass the bridge
 * holds the press until the minute ends (a timer on the fake clock), and a press while one is held
 * joins it. Resolves once the bridge has taken it (its pass answered, or a forced pass is held).
 */
async function press(w: PortalWorld): Promise<void> {
  const h = w.h;
  const results = (): number => h.rec.on(`${h.base}/ania/refresh/result`).length;
  // The refresh gate keeps its forced passes private; reading its fields is the only way to see a press was taken.
  const gate = (): { next?: unknown; last?: unknown } => (h.app.runners[0] as unknown as { refreshes: { next?: unknown; last?: unknown } }).refreshes;
  const [n, last] = [results(), gate().last];
  await h.rec.publish(`${h.base}/ania/refresh/set`, '');
  await waitUntil(() => results() > n || gate().next !== undefined || gate().last !== last, 'the bridge to take the refresh', 10_000);
}

describe.concurrent('six minutes of rotating faults', () => {
  it('then quiet: every new grade, message and announcement fired once, problem OFF', async (ctx) => {
    const w = await worldFor(ctx, { portal: 'http' });
    const h = await w.firstPass({ poll: { interval: '5m', fast_interval: '1m' } });
    const events = (kind: string): number => h.rec.on(`${h.base}/ania/event/${kind}`).length;
    const before = { grade: events('grade'), message: events('message'), notice: events('notice') };
    const problems = w.problemCount();
    for (let slot = 0; slot < SLOTS; slot++) {
      w.sim.setLatency(0); // the latency lasts its 20 s; a burst lasts until its requests came
      FAULTS[slot % FAULTS.length]![1](w);
      NEWS[slot % NEWS.length]!(w, slot);
      await press(w);
      await h.advanceMinutes(SLOT_MS / MIN);
    }
    // The faults met the bridge: problem told the portal was down, and the messaging ladder logged in again.
    expect(problemReasons(h, problems).account).toContain('service_down');
    expect(w.sim.logins(w.login)).toBeGreaterThan(1);
    clearSimFaults(w.sim);
    w.tap.clear();
    // Quiet: two refreshes a minute apart.
    await press(w);
    await h.advanceMinutes(1);
    await press(w);
    await h.advanceMinutes(1);
    expect({
      grade: events('grade') - before.grade,
      message: events('message') - before.message,
      notice: events('notice') - before.notice,
      problem: h.state('ania', 'problem'),
      reason: h.attributes('ania', 'problem')?.reason ?? null,
      detail: h.attributes('ania', 'problem')?.detail ?? null,
    }).toEqual({ grade: 6, message: 6, notice: 6, problem: 'OFF', reason: null, detail: null });
    expect(repeatedEvents(h)).toEqual([]);
    expect(await h.leaks()).toEqual([]);
  }, 240_000);

  it('a sent box that failed on a refresh is read again within poll.interval; problem stays ON until it is', async (ctx) => {
    const w = await worldFor(ctx, { portal: 'http' });
    const h = await w.firstPass({ poll: { interval: '5m', fast_interval: '1m' } });
    const sentLists = (): number => w.sim.count({ host: 'messages', path: '/api/outbox/messages' });
    await h.runUntil(() => sentLists() > 0, 'the sent box read at the second normal pass', 5 * MIN);
    await h.advanceMinutes(1);
    w.sim.failNext(1, 503, { host: 'messages', path: '/api/outbox/messages' });
    await w.refresh();
    // The messaging host down (it backs off 1, 2, 4 ... minutes, as the register does): the portal is not answering.
    expect(h.state('ania', 'problem')).toBe('ON');
    expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'service_down' });
    const failedAt = sentLists();
    // Minute by minute through poll.interval: the problem clears only with the sent box read again.
    const seen: { read: boolean; problem: string | undefined }[] = [];
    for (let minute = 0; minute < 5; minute++) {
      await h.advanceMinutes(1);
      seen.push({ read: sentLists() > failedAt, problem: h.state('ania', 'problem') });
    }
    expect(seen.at(-1)).toEqual({ read: true, problem: 'OFF' });
    expect(seen.filter((s) => s.problem === 'OFF' && !s.read)).toEqual([]);
  }, 60_000);
});
