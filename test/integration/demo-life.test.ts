// Demo life: the simulator adds a grade, a message, a plan change and an announcement on its clock,
// and the real bridge (real broker, fake clock) announces each as an event at its next passes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PortalSimulator, DEMO_ACCOUNTS, SimLife, type LifeRound } from '../../src/simulator/index.js';
import { FakeClock } from '../helpers/clock.js';
import { startHarness, type Harness } from '../helpers/app.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const JANEK = DEMO_ACCOUNTS[1]!;
// A Wednesday in the first semester, during the second lesson.
const NOW = '2026-11-18T09:10:00+01:00';
const MINUTE = 60_000;

let sim: PortalSimulator;
let clock: FakeClock;
let life: SimLife | undefined;
let h: Harness | undefined;

beforeEach(async () => {
  clock = new FakeClock(NOW);
  sim = new PortalSimulator({ now: () => clock.now() });
  await sim.start();
});

afterEach(async () => {
  life?.stop();
  life = undefined;
  await h?.stop();
  h = undefined;
  await sim.stop();
});

describe('demo life', () => {
  it('adds a grade, a message, an announcement and a plan change to each child in turn, on its clock', async () => {
    const rounds: LifeRound[] = [];
    life = new SimLife({
      simulator: sim,
      logins: [ANIA.login, JANEK.login],
      clock,
      firstAfterMs: MINUTE,
      everyMs: 3 * MINUTE,
      onRound: (r) => rounds.push(r),
    });
    const ania = sim.account(ANIA.login);
    const grades = (): number => (ania.resources.get('Grades') as { Grades: unknown[] }).Grades.length;
    const before = {
      grades: grades(),
      notices: ania.notices.length,
      inbox: sim.messaging.box(ANIA.login, 'inbox').length,
      changes: ania.data.changes.length,
    };
    life.start();
    expect(rounds).toHaveLength(0);
    await clock.advance(MINUTE);
    expect(rounds.map((r) => r.child)).toEqual(['Ania']);
    expect(grades()).toBe(before.grades + 1);
    expect(ania.notices.length).toBe(before.notices + 1);
    expect(sim.messaging.box(ANIA.login, 'inbox').length).toBe(before.inbox + 1);
    expect(ania.data.changes.length).toBe(before.changes + 1);
    // The change falls on a coming school day, on a lesson the plan really has.
    const change = rounds[0]!.planChange!;
    expect(change.date > '2026-11-18').toBe(true);
    expect(
      sim
        .schoolDays(ANIA.login)
        .lessonsOn(change.date)
        .find((l) => l.lessonNo === change.lessonNo)?.cancelled,
    ).toBe(true);

    await clock.advance(3 * MINUTE);
    expect(rounds.map((r) => r.child)).toEqual(['Ania', 'Jan']);
    await clock.advance(3 * MINUTE);
    expect(rounds.map((r) => r.child)).toEqual(['Ania', 'Jan', 'Ania']);
    // Ania's second change is another lesson, so the bridge sees it as news too.
    expect(rounds[2]!.planChange).not.toMatchObject({ date: change.date, lessonNo: change.lessonNo });
    expect(rounds[2]!.planChange?.kind).toBe('substitution');
    life.stop();
    await clock.advance(10 * MINUTE);
    expect(rounds).toHaveLength(3);
  });

  // Jan (class 1a) starts with no grades at all: his first one must fire too.
  it.each([
    { account: ANIA, child: 'ania' },
    { account: JANEK, child: 'jan' },
  ])(
    'makes the bridge fire a grade, a message, a notice and a plan_change event for $child',
    async ({ account, child }) => {
      h = await startHarness({ sim, clock, accounts: [{ login: account.login, password: account.password }] });
      const harness = h;
      await harness.runUntil(() => harness.state(child, 'last_update') !== undefined, 'the first full pass');
      const rounds: LifeRound[] = [];
      // One round within the window: the first a minute from now, the next only after the normal pass.
      life = new SimLife({
        simulator: sim,
        logins: [account.login],
        clock,
        firstAfterMs: MINUTE,
        everyMs: 60 * MINUTE,
        onRound: (r) => rounds.push(r),
      });
      life.start();
      const event = (kind: string): Record<string, unknown>[] =>
        harness.rec.on(`${harness.base}/${child}/event/${kind}`).map((m) => JSON.parse(m.text) as Record<string, unknown>);
      expect(['grade', 'message', 'notice', 'plan_change'].map((k) => event(k).length)).toEqual([0, 0, 0, 0]);

      await harness.advanceMinutes(21);
      expect(rounds).toHaveLength(1);
      const round = rounds[0]!;
      expect(event('grade')).toEqual([expect.objectContaining({ event_type: 'grade', grade: round.grade!.grade, subject: round.grade!.subject })]);
      expect(event('message')).toEqual([expect.objectContaining({ event_type: 'message', topic: round.message.topic })]);
      expect(event('notice')).toEqual([expect.objectContaining({ event_type: 'notice', subject: round.notice.subject })]);
      expect(event('plan_change')).toEqual([
        expect.objectContaining({
          event_type: 'plan_change',
          date: round.planChange!.date,
          lesson_no: round.planChange!.lessonNo,
          kind: 'cancelled',
        }),
      ]);
    },
    60_000,
  );

  // A parent tries the demo after the children are asleep: its school is in lessons at every hour, so the
  // news comes within the banner's minutes (its first round after a minute, then the next passes: every 2
  // minutes, every 30 s for messages), as at 10:00. With the night's ages the grade waited an hour.
  it.each(['2026-11-18T23:00:00+01:00', '2026-11-19T03:00:00+01:00'])(
    'fires its news within 5 minutes when started at %s',
    async (at) => {
      clock.set(Date.parse(at));
      h = await startHarness({ sim, clock, accounts: [{ login: ANIA.login, password: ANIA.password }], demo: true });
      const harness = h;
      await harness.runUntil(() => harness.state('ania', 'last_update') !== undefined, 'the first full pass');
      const rounds: LifeRound[] = [];
      life = new SimLife({ simulator: sim, logins: [ANIA.login], clock, firstAfterMs: MINUTE, everyMs: 3 * MINUTE, onRound: (r) => rounds.push(r) });
      life.start();
      const fired = (kind: string): number => harness.rec.on(`${harness.base}/ania/event/${kind}`).length;
      await harness.advanceUntil(() => ['grade', 'message', 'notice', 'plan_change'].every((k) => fired(k) > 0), 'every kind of news', 5);
      expect(rounds.length).toBeGreaterThanOrEqual(1);
    },
    60_000,
  );
});
