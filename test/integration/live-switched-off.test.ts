// Schools that do not run a module (live-notes 8 and 9), against the real bridge and broker: the lucky
// number in each "not in use" form, and any gateway module answering 200 {"Status":"Disabled"}. The
// child stays quiet (problem OFF, one info line), the portal is asked once a day, a refresh asks at once.
// Slow on purpose: about 8 s of CPU alone (12 s before its days were read every 20 minutes, see POLL).
// "Once a day" is only shown by a simulated day of passes, each a real HTTP exchange with the simulator and
// real MQTT messages, in three tests; the fake clock already skips every wait between them. A CPU profile
// of the Notes test: a quarter is idle, waiting on the HTTP and MQTT round trips; the rest is the simulator
// answering and the bridge reading, none of it one hot spot.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, type LuckyForm } from '../../src/simulator/index.js';
import { rm } from 'node:fs/promises';
import { buildConfig } from '../../src/config/load.js';
import { runCheck } from '../../src/app/commands/check.js';
import { createLogger, silentLogger } from '../../src/util/log.js';
import { tempDir } from '../helpers/portal.js';
import { simulatedSchool } from '../helpers/school.js';
import type { Harness } from '../helpers/app.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// A Wednesday in the first semester, during the second lesson.
const NOW = '2026-11-18T09:10:00+01:00';

const school = simulatedSchool(NOW);
const reads = (endpoint: string): number => school.sim.count({ path: `/gateway/api/2.0/${endpoint}` });

/**
 * Every tier read every 20 minutes, for the tests that walk a day to show "once a day": a module the
 * school does not run is asked again a day later however often the passes come (still some 50 by day,
 * each one a chance to ask too early), and the default 3- and 4-minute passes were most of their CPU.
 */
const INTERVALS = { fast_interval: '20m', school_interval: '20m' };

/** The bridge with Ania, its info lines kept, after the first passes. */
async function start(keys: string[], poll?: typeof INTERVALS): Promise<{ h: Harness; lines: string[] }> {
  const lines: string[] = [];
  const log = createLogger('info', { write: (chunk: string) => void lines.push(...chunk.split('\n').filter(Boolean)) }, { format: 'json' });
  const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password }], log, ...(poll ? { poll } : {}) });
  await h.runUntil(() => keys.every((key) => h.state('ania', key) !== undefined), 'the first passes');
  return { h, lines };
}

/** Presses refresh and waits for its result (sent once every tier has read). */
const refresh = async (h: Harness): Promise<void> => {
  const results = `${h.base}/ania/refresh/result`;
  const before = h.rec.on(results).length;
  await h.rec.publish(`${h.base}/ania/refresh/set`, '');
  await h.runUntil(() => h.rec.on(results).length > before, 'the refresh result');
};

describe('a school without the lucky number', () => {
  it.each<[LuckyForm, string]>([
    ['null', 'the school does not use the lucky number'],
    ['disabled', 'the school does not use this module'],
    ['not_active', 'the school does not use this module'],
  ])(
    'answers %s: None with in_use false, lucky_today None, problem OFF, asked once a day, at once on a refresh',
    async (form, line) => {
      school.sim.account(ANIA.login).setLuckyForm(form);
      const { h, lines } = await start(['lucky_number', 'problem'], INTERVALS);
      await h.advanceMinutes(60); // three fast passes
      expect(h.state('ania', 'lucky_number')).toBe('None');
      expect(h.attributes('ania', 'lucky_number')).toMatchObject({ in_use: false, day: null });
      // A flag of a module the school does not run is unknown, never OFF (interface 12.2).
      expect(h.state('ania', 'lucky_today')).toBe('None');
      expect(h.state('ania', 'problem')).toBe('OFF');
      expect(reads('LuckyNumbers')).toBe(1);
      // One line for the lucky number (the demo school has no averages either: another line, of its own).
      expect(lines.filter((l) => l.includes(line) && !l.includes('Grades/Averages'))).toHaveLength(1);

      await refresh(h); // a user's refresh asks at once
      expect(reads('LuckyNumbers')).toBe(2);
      // And otherwise once a day. The Code LuckyNumberIsNotActive and 200 Disabled are one refusal from
      // the gateway on (errors.ts SWITCHED_OFF_CODES: the same `switchedOff`, remembered alike), so the
      // simulated day that shows it runs for null and Disabled, not a third time.
      if (form !== 'not_active') {
        await h.advanceMinutes(24 * 60);
        expect(reads('LuckyNumbers')).toBe(3);
        expect(h.state('ania', 'problem')).toBe('OFF');
      } else await h.advanceMinutes(1); // a refresh runs a pass at most once a minute

      // The school starts it: the next daily look shows the number.
      school.sim.account(ANIA.login).setLuckyForm('object');
      school.sim.account(ANIA.login).setLuckyNumber(7);
      await refresh(h);
      expect(h.state('ania', 'lucky_number')).toBe('7');
      expect(h.attributes('ania', 'lucky_number')).toMatchObject({ in_use: true });
    },
    90_000,
  ); // a simulated day of passes

  it('reads the list form like the object form', async () => {
    const account = school.sim.account(ANIA.login);
    account.setLuckyForm('list');
    account.setLuckyNumber(12, '2026-11-18'); // Ania's register number
    const { h } = await start(['lucky_number', 'problem']);
    expect(h.state('ania', 'lucky_number')).toBe('12');
    expect(h.state('ania', 'lucky_today')).toBe('ON');
    expect(h.attributes('ania', 'lucky_number')).toMatchObject({ in_use: true, day: '2026-11-18' });
    expect(h.state('ania', 'problem')).toBe('OFF');
  });

  it('still reports an answer nobody has seen, naming the resource, while the rest updates', async () => {
    school.sim.account(ANIA.login).setResource('LuckyNumbers', { LuckyNumber: 'many', Draw: [] });
    const { h } = await start(['problem', 'timetable_today']);
    await h.advanceMinutes(20);
    expect(h.state('ania', 'problem')).toBe('ON');
    expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'unexpected_response', detail: 'source lucky', resource: 'LuckyNumbers' });
    expect(h.state('ania', 'timetable_today')).not.toBe('None');
  });
});

describe('a module the school switched off (200 Status Disabled)', () => {
  it('is asked once a day, shows its empty value and leaves problem OFF', async () => {
    school.sim.account(ANIA.login).setModuleStatus('Notes', 'disabled');
    const { h, lines } = await start(['newest_note', 'problem'], INTERVALS);
    await h.advanceMinutes(3 * 60); // nine passes; Notes is read hourly otherwise
    expect(h.state('ania', 'newest_note')).toBe('None');
    expect(h.state('ania', 'problem')).toBe('OFF');
    expect(reads('Notes')).toBe(1);
    const info = lines.filter((l) => l.includes('the school does not use this module') && l.includes('"Notes"'));
    expect(info).toHaveLength(1);
    expect(JSON.parse(info[0]!)).toMatchObject({ level: 'info', endpoint: 'Notes', code: 'Disabled' });

    await h.advanceMinutes(22 * 60);
    expect(reads('Notes')).toBe(2);
    expect(h.state('ania', 'problem')).toBe('OFF');
  }, 90_000); // a simulated day of passes
});

describe('check, for a school without the lucky number', () => {
  it.each<LuckyForm>(['null', 'disabled', 'not_active'])(
    'says %s is "not used by the school" (in Polish: "szkoła z niego nie korzysta")',
    async (form) => {
      school.sim.account(ANIA.login).setLuckyForm(form);
      const dir = await tempDir();
      try {
        const config = await buildConfig(
          { portal: school.sim.urls, accounts: [{ login: ANIA.login, password: ANIA.password }], data_dir: dir, http: { port: 0 }, language: 'pl' },
          'test',
          { env: {} },
        );
        let text = '';
        const code = await runCheck({ config, out: { write: (t: string) => (text += t) }, log: silentLogger(), clock: school.clock });
        expect(code).toBe(0);
        expect(text).toContain('szczęśliwy numerek: szkoła z niego nie korzysta');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});
