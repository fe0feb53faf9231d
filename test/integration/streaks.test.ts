// Streaks and achievements (interface 16.3) through the real bridge, the simulated portal and the real broker:
// the first pass only records what is already true (Ania's first 6 of October, her five good grades in a
// row and her fifth 6 of the year, Jan's seven school days without an absence), then a new 6 that makes Ania's tenth good grade in a row
// fires exactly one `achievement` event, her streak counts it, the board shows its badge beside her name, and
// nothing fires again at the next passes.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import type { Harness } from '../helpers/app.js';
import { firedEvents, simulatedSchool } from '../helpers/school.js';
import { freePort } from '../helpers/ports.js';
import { send } from '../helpers/web.js';

const [ANIA, JAN] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!];
// A Wednesday in the first semester, during the second lesson.
const NOW = '2026-11-18T09:10:00+01:00';
const school = simulatedSchool(NOW);

type Fact = { look: string; label: string; value: string; mark: string | null };

async function badges(h: Harness, port: number, child: string): Promise<Fact[]> {
  const token = (await readFile(join(h.dataDir, 'http-token'), 'utf8')).trim();
  const board = JSON.parse((await send(port, `/api/board?token=${token}`)).body) as { model: { children: { id: string; facts: Fact[] }[] } };
  return (board.model.children.find((c) => c.id === child)?.facts ?? []).filter(
    (f) => f.look === 'badge' && f.mark !== null && f.label !== 'Szczęśliwy numerek',
  );
}

/** Moves the clock 10 minutes at a time until Ania's streak is `run` (the grades are read hourly at most). */
async function streakReaches(h: Harness, run: number): Promise<void> {
  for (let i = 0; i < 24 && h.state('ania', 'streaks') !== String(run); i++) await h.advanceMinutes(10);
  expect(h.state('ania', 'streaks')).toBe(String(run));
}

describe('streaks and achievements', () => {
  it('record what was true at the first start, then fire one achievement for a new 6, shown on the board', async () => {
    const port = await freePort();
    const h = await school.start({
      accounts: [ANIA, JAN].map((a) => ({ login: a.login, password: a.password })),
      http: { port },
      poll: { fast_interval: '20m', school_interval: '20m' },
    });
    await h.runUntil(() => h.state('jan', 'streaks') !== undefined && h.state('ania', 'streaks') !== undefined, 'the streaks of both');
    await h.advanceMinutes(40);
    expect(await badges(h, port, 'jan')).toEqual([]);

    // Already true at the first start: listed with their days, never fired.
    const ania = h.attributes('ania', 'streaks') as { good_grades: number; achievements: { kind: string; count: number; date: string }[] };
    expect(h.state('ania', 'streaks')).toBe('6');
    expect(ania.good_grades).toBe(6);
    expect(ania.achievements).toEqual(
      expect.arrayContaining([
        { kind: 'first_six', count: 1, date: '2026-10-22', announced: false },
        { kind: 'good_grades', count: 5, date: '2026-10-27', announced: false },
      ]),
    );
    const jan = h.attributes('jan', 'streaks') as { achievements: { kind: string }[] };
    expect(jan.achievements.map((a) => a.kind)).toContain('no_absence');
    expect([...firedEvents(h, 'achievement', 'ania'), ...firedEvents(h, 'achievement', 'jan')]).toEqual([]);
    // The discovery announces the event entity and the sensor.
    const device = h.rec.json(`${h.prefix}/device/${h.base}_ania/config`) as { cmps: Record<string, Record<string, unknown>> };
    expect(device.cmps.achievement).toMatchObject({ p: 'event', event_types: ['achievement'], default_entity_id: 'event.ania_achievement' });
    expect(device.cmps.streaks).toMatchObject({ p: 'sensor', default_entity_id: 'sensor.ania_streaks' });
    // Her fifth 6 of the year (of six) came in the last 7 days: listed as never announced, so no badge beside her
    // name celebrates it; her progress counts it.
    const sixes = ania.achievements.find((a) => a.kind === 'sixes');
    expect(sixes).toMatchObject({ count: 5, announced: false });
    expect(sixes!.date >= '2026-11-12').toBe(true);
    expect(await badges(h, port, 'ania')).toEqual([]);
    expect((h.attributes('ania', 'streaks') as { progress: Record<string, unknown> }).progress.sixes).toEqual({ count: 6, next: 10 });

    // Three more good grades, the ninth in a row: no count reached, nothing fires.
    const account = school.sim.account(ANIA.login);
    for (const grade of ['5', '4+', '5-']) account.addGrade({ subject: 5012, category: 301, grade });
    await streakReaches(h, 9);
    expect(firedEvents(h, 'achievement', 'ania')).toEqual([]);

    // A new 6, her tenth in a row: one event, good_grades 10 (her first 6 was true at the start: never fired).
    account.addGrade({ subject: 5012, category: 301, grade: '6' });
    await streakReaches(h, 10);
    await h.runUntil(() => firedEvents(h, 'achievement', 'ania').length > 0, 'the achievement event');
    expect(firedEvents(h, 'achievement', 'ania')).toEqual([
      { event_type: 'achievement', child: 'ania', child_name: 'Ania', kind: 'good_grades', count: 10, date: '2026-11-18' },
    ]);
    expect(await badges(h, port, 'ania')).toEqual([{ look: 'badge', label: 'dobrych ocen z rzędu', value: '10', mark: 'Brawo!' }]);

    // The next passes: nothing fires again, for her or for Jan.
    await h.advanceMinutes(3 * 60);
    expect(firedEvents(h, 'achievement', 'ania')).toHaveLength(1);
    expect(firedEvents(h, 'achievement', 'jan')).toEqual([]);
  });
});
