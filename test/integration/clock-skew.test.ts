// A machine whose clock is off the portal's (issue 64, point 4): a small machine before its time sync runs
// minutes ahead, one set by hand an hour off. The portal writes each cookie's Expires by its own clock
// beside a Max-Age; a bridge that judged the Expires by its own clock took the token for deleted, and every
// login ended in `problem` ON with login_changed. Now the cookies are kept by the portal's time (RFC 6265:
// Max-Age over Expires) on both roads, and the difference is said once in the log and in the diagnostics.
import { describe, expect, it, type TestContext } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_FAMILY, PortalSimulator } from '../../src/simulator/index.js';
import { FakeClock } from '../helpers/clock.js';
import { LogSink } from '../helpers/faults.js';
import { startHarness, type Harness } from '../helpers/app.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const MIN = 60_000;
// A Wednesday in the first semester, during the second lesson, by the portal's clock.
const PORTAL_NOW = '2026-11-18T09:10:00+01:00';
/** The messaging session's life on the portal (shortened from its 40 minutes, see bridgeApart). */
const MESSAGING_LIFETIME = 10 * MIN;

const ROADS = {
  register: { login: ANIA.login, password: ANIA.password },
  family: { email: DEMO_FAMILY.email, password: DEMO_FAMILY.password },
} as const;

/** The bridge on `road`, its clock `aheadMs` ahead of the portal's (negative: behind), after its first passes. */
async function bridgeApart(
  ctx: TestContext,
  road: keyof typeof ROADS,
  aheadMs: number,
): Promise<{ h: Harness; logs: LogSink; sim: PortalSimulator }> {
  const clock = new FakeClock(Date.parse(PORTAL_NOW) + aheadMs);
  const sim = new PortalSimulator({ now: () => clock.now() - aheadMs });
  // The messaging session dies after 10 minutes instead of 40, so that its refresh, which goes through the portal's
  // session and cookies (the register's messages page opens a new one), falls 12 minutes after the first passes, not
  // 42: a quarter of an hour shows what three quarters did.
  sim.messaging.sessionLifetimeMs = MESSAGING_LIFETIME;
  await sim.start();
  ctx.onTestFinished(() => sim.stop());
  const logs = new LogSink();
  // Over HTTP: the cookies as the portal's Date and Set-Cookie headers carry them are this file's subject.
  const h = await startHarness({ sim, clock, accounts: [ROADS[road] as never], log: logs.logger('info'), portal: 'http' });
  ctx.onTestFinished(() => h.stop());
  await h.runUntil(() => h.state('ania', 'lucky_number') !== undefined, 'the first passes');
  return { h, logs, sim };
}

const skewLines = (logs: LogSink): string[] => logs.matching(/clock_skew_s/);

describe.concurrent('a host clock off the portal’s', () => {
  for (const road of ['register', 'family'] as const) {
    for (const aheadMs of [20 * MIN, 60 * MIN, -20 * MIN, -60 * MIN]) {
      const said = `${Math.abs(aheadMs / MIN)} minutes ${aheadMs > 0 ? 'ahead' : 'behind'}`;
      it(`${road} road, ${said}: logs in and reads, never login_changed, the skew said once`, async (ctx) => {
        const { h, logs, sim } = await bridgeApart(ctx, road, aheadMs);
        expect(h.state('ania', 'problem')).toBe('OFF');
        const bootstraps = sim.count({ host: 'messages', path: '/bootstrap' });
        // Past the token's Max-Age (10 minutes) and the messaging session's refresh (the first fast pass after its
        // 10 minutes): the passes go on, on one login.
        await h.advanceMinutes(15);
        expect(sim.count({ host: 'messages', path: '/bootstrap' })).toBeGreaterThan(bootstraps);
        expect(h.state('ania', 'problem')).toBe('OFF');
        expect(h.attributes('ania', 'problem')?.reason ?? null).toBeNull();
        expect(road === 'register' ? sim.logins() : sim.families.loginCount()).toBe(1);

        const lines = skewLines(logs);
        expect(lines).toHaveLength(1);
        const seconds = aheadMs / 1000;
        expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'warn', msg: expect.stringContaining(aheadMs > 0 ? 'ahead of' : 'behind') });
        const bundle = JSON.parse(await h.app.diagnostics()) as { bridge: { clock_skew_s?: number } };
        // The Date header counts whole seconds: the machine reads up to a second more.
        expect(bundle.bridge.clock_skew_s).toBeGreaterThanOrEqual(seconds);
        expect(bundle.bridge.clock_skew_s).toBeLessThanOrEqual(seconds + 1);
      }, 60_000);
    }
  }
});
