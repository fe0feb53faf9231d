// A few generated worlds (interface 18.1) through the real bridge, the simulator over HTTP and the real broker: the
// states the broker holds and the events it carried are those the in-process run of the same world told its doors
// (test/helpers/worlds/drive.ts, which the 300 worlds of test/unit/worlds/ read without a broker). So the worlds' doors
// driven directly stand for the bridge as Home Assistant sees it.
//
// Budget: three worlds with news, each a start, a first pass and a refresh over HTTP and MQTT beside its in-process
// run, about 10 s of CPU.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PortalSimulator } from '../../src/simulator/index.js';
import { FakeClock } from '../helpers/clock.js';
import { startHarness } from '../helpers/app.js';
import { enterNews, serve } from '../helpers/worlds/records.js';
import { SEED, Worlds } from '../helpers/worlds/suite.js';
import { worldArb } from '../helpers/worlds/world.js';

/** Three worlds with news, each child on a login of its own (the harness takes logins). */
const WORLDS = fc.sample(
  worldArb.filter((w) => !w.family && w.children.some((c) => c.news.length > 0)),
  { seed: SEED, numRuns: 3 },
);

/** Values that are the moment of a pass or a read, which two runs of one world need not share. */
const MOMENTS = /^(last_update|last_read|.*_at)$/;

const inProcess = new Worlds();
beforeAll(() => inProcess.start());
afterAll(() => inProcess.stop());

describe('generated worlds through the bridge, the simulator over HTTP and the broker', () => {
  for (const [i, world] of WORLDS.entries())
    it(`world ${i + 1} (${world.children.map((c) => c.kind).join(', ')}, ${world.language}): the broker holds what the doors were told`, async () => {
      const doors = await inProcess.doors(world);
      const clock = new FakeClock(`${world.date}T${world.time}:00+01:00`);
      const sim = new PortalSimulator({ now: () => clock.now(), accounts: [] });
      await sim.start();
      const { children: served } = serve(sim, world, `b${i}`);
      const h = await startHarness({
        sim,
        portal: 'http', // the worlds' in-process run is the other side of this comparison
        clock,
        accounts: served.map(({ init }) => ({ login: init.login, password: init.password })),
        language: world.language,
      });
      try {
        const ids = doors.children.map((c) => c.run.id);
        await h.runUntil(() => ids.every((id) => h.state(id, 'timetable_today') !== undefined), 'the first passes');
        enterNews(sim, world, served);
        for (const runner of h.app.runners) if (doors.children.find((c) => c.run.id === runner.id)?.run.refreshed) await runner.refresh();
        await h.advanceMinutes(0);
        for (const c of doors.children) {
          const told = (base: string) => (topic: string) => topic.slice(base.length + 1);
          const mine = [...doors.retained].filter(([topic]) => topic.startsWith(`${doors.run.base}/${c.run.id}/`) && !topic.endsWith('/attributes'));
          expect(mine.length, c.run.id).toBeGreaterThan(20);
          for (const [topic, payload] of mine) {
            const key = told(`${doors.run.base}/${c.run.id}`)(topic);
            if (MOMENTS.test(key)) continue;
            expect([c.run.id, key, h.state(c.run.id, key)]).toEqual([c.run.id, key, payload]);
          }
          const eventTopics = new Set(
            c.run.device?.entities.filter((e) => e.platform === 'event').map((e) => `${h.base}/${c.run.id}/event/${e.key}`),
          );
          const carried = h.rec.messages
            .filter((m) => eventTopics.has(m.topic))
            .map((m) => withoutIds(JSON.parse(m.text) as Record<string, unknown>));
          // Each event the doors were told, carried once, and none besides.
          expect(carried.sort(byText), c.run.id).toEqual(c.run.events.map((e) => withoutIds(e.payload)).sort(byText));
        }
      } finally {
        await h.stop();
        await sim.stop();
      }
    });
});

const byText = (a: unknown, b: unknown): number => JSON.stringify(a).localeCompare(JSON.stringify(b));

/** An event's payload without what the simulator makes up anew in each run (an announcement's id). */
function withoutIds(payload: Record<string, unknown>): Record<string, unknown> {
  const { id, ...rest } = payload;
  return typeof id === 'string' && id.startsWith('LID-') ? rest : payload;
}
