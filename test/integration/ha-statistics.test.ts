// The school year in Home Assistant's statistics (interface 16.3): the real bridge against the simulated
// school, a real broker and the model of Home Assistant's WebSocket (src/bench/home-assistant-socket.ts,
// strict as core's recorder/import_statistics is). Each child's statistics imported once after the first
// pass, today's row the sensor's own state, nothing again at a restart, a new grade today's row only, a
// back-dated one from its day on, a WebSocket away then back imported once, the token in no log line; the
// dashboard's graphs of the year (interface 17.2) naming exactly the statistics imported.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { createLogger } from '../../src/util/log.js';
import { addDays, warsawDate } from '../../src/util/time.js';
import { HomeAssistantModel } from '../helpers/home-assistant.js';
import { simulatedSchool } from '../helpers/school.js';
import type { Harness, HarnessOptions } from '../helpers/app.js';
import { runDashboard } from '../../src/app/commands/dashboard.js';
import { waitUntil } from '../helpers/mqtt.js';
import { tempDir } from '../helpers/temp.js';
import { HOME_ASSISTANT_STATISTICS } from '../../src/outputs/homeassistant/output.js';

const [ANIA, JAN] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!];
const NOW = '2026-11-18T09:11:30+01:00';
const TODAY = '2026-11-18';
const school = simulatedSchool(NOW);
const TOKEN = 'ha-long-lived-token-Zq8w3Lx0Vb7n';

let ha: HomeAssistantModel;
let lines: string[];
beforeEach(async () => {
  ha = new HomeAssistantModel(TOKEN);
  await ha.start();
  lines = [];
});
afterEach(() => ha.stop());

const login = ({ login: l, password }: { login: string; password: string }) => ({ login: l, password });

/** The bridge with the children given, after its first passes reached Home Assistant's statistics. */
async function bridge(children = [ANIA, JAN], options: Partial<HarnessOptions> = {}): Promise<Harness> {
  const h = await school.start({
    ...options,
    accounts: children.map(login),
    homeassistant: { url: ha.url, token: TOKEN },
    log: createLogger('debug', { write: (l: string) => void lines.push(l) }),
  });
  // Ania has grades; Jan, in the first class, descriptive grades only: his attendance alone.
  const wanted = ['dziennik2mqtt:ania_average', ...(children.includes(JAN) ? ['dziennik2mqtt:jan_attendance'] : [])];
  await h.advanceUntil(() => wanted.every((id) => ha.socket.statistics.has(id)), "each child's statistics imported", 5);
  await h.app.outputOf(HOME_ASSISTANT_STATISTICS)?.idle();
  return h;
}

type Node = Record<string, unknown>;
function objects(value: unknown): Node[] {
  if (Array.isArray(value)) return value.flatMap(objects);
  if (value === null || typeof value !== 'object') return [];
  return [value as Node, ...Object.values(value).flatMap(objects)];
}

/** Each child view's statistics graphs, by the view's path: the statistic ids of each, in order. */
function graphsOf(yaml: string): Record<string, string[][]> {
  const views = (parse(yaml, { version: '1.1' }) as { views: Node[] }).views;
  return Object.fromEntries(
    views.map((v) => [
      v.path,
      objects(v.sections)
        .filter((n) => n.type === 'statistics-graph')
        .map((n) => n.entities as string[]),
    ]),
  );
}

/** The figure of a statistic's row for a day (its start at the day's local midnight). */
function rowOn(id: string, day: string): number | undefined {
  for (const row of ha.socket.rowsOf(id).values()) if (warsawDate(row.start) === day) return row.mean;
  return undefined;
}

/** Every statistic a child has in the model, by its id. */
const idsOf = (child: string) => [...ha.socket.statistics.keys()].filter((id) => id.startsWith(`dziennik2mqtt:${child}_`));

/** The subject sensors of a child: average_<slug> with a numeric state, as MQTT has them. */
function subjectSensors(h: Harness, child: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const id of idsOf(child).filter((i) => i.includes('_average_'))) {
    const key = id.slice(`dziennik2mqtt:${child}_`.length);
    const state = h.state(child, key);
    if (state !== undefined) out.set(key, state);
  }
  return out;
}

describe("the school year in Home Assistant's statistics", () => {
  it("imports each child's year once, each day's row at local midnight, today's equal to the sensors; nothing again at a restart", async () => {
    const h = await bridge();
    // Authenticated with the token, which no log line holds.
    expect(ha.socket.received[0]).toEqual({ type: 'auth', access_token: '(masked)' });
    expect(h.state('jan', 'average')).toBe('None');
    expect(idsOf('jan')).toEqual(['dziennik2mqtt:jan_attendance']);
    for (const child of ['ania', 'jan']) {
      const ids = idsOf(child);
      // One import per statistic.
      for (const id of ids) expect(ha.socket.imports.filter((i) => i.statistic_id === id)).toHaveLength(1);
      const name = child === 'ania' ? 'Ania' : 'Jan';
      for (const id of ids) {
        const { metadata, rows } = ha.socket.statistics.get(id)!;
        const attendance = id.endsWith('_attendance');
        expect(metadata).toMatchObject({
          source: 'dziennik2mqtt',
          has_sum: false,
          mean_type: 1,
          unit_class: null,
          unit_of_measurement: attendance ? '%' : null,
        });
        expect(metadata.name).toMatch(attendance ? `${name} – frekwencja` : new RegExp(`^${name} – średnia(: .+)?$`));
        // One row a day, each at local midnight, consecutive up to today, mean = min = max.
        const days = [...rows.values()].map((r) => {
          expect(new Date(r.start).toLocaleTimeString('pl-PL', { timeZone: 'Europe/Warsaw' })).toBe('00:00:00');
          expect([r.min, r.max]).toEqual([r.mean, r.mean]);
          return warsawDate(r.start);
        });
        expect(days.at(-1)).toBe(TODAY);
        for (let i = 1; i < days.length; i++) expect(days[i]).toBe(addDays(days[i - 1]!, 1));
      }
      // Today's rows are the sensors' states.
      const attendance = h.state(child, 'attendance');
      if (attendance !== undefined && attendance !== 'None') expect(rowOn(`dziennik2mqtt:${child}_attendance`, TODAY)).toBe(Number(attendance));
    }
    // The overall average from the year's first grade: no subject starts before it, one starts with it.
    const firsts = idsOf('ania')
      .filter((id) => id.includes('_average_'))
      .map((id) => Math.min(...ha.socket.rowsOf(id).keys()));
    expect(Math.min(...ha.socket.rowsOf('dziennik2mqtt:ania_average').keys())).toBe(Math.min(...firsts));
    const ania = subjectSensors(h, 'ania');
    expect(ania.size).toBeGreaterThan(4);
    for (const [key, state] of ania) expect(rowOn(`dziennik2mqtt:ania_${key}`, TODAY)?.toFixed(2), key).toBe(state);
    expect(rowOn('dziennik2mqtt:ania_average', TODAY)?.toFixed(2)).toBe(h.state('ania', 'average'));
    const { name } = ha.socket.statistics.get('dziennik2mqtt:ania_average_matematyka')!.metadata;
    expect(name).toBe('Ania – średnia: Matematyka');

    // A restart: the same year, nothing imported again.
    const imported = ha.socket.imports.length;
    await h.restart();
    await h.runUntil(() => h.state('ania', 'average') !== undefined, 'the first pass after the restart');
    await h.advanceMinutes(3);
    await h.app.outputOf(HOME_ASSISTANT_STATISTICS)?.idle();
    expect(ha.socket.imports.length).toBe(imported);
    const logged = lines.join('\n');
    const pieces = Array.from({ length: TOKEN.length - 11 }, (_, i) => TOKEN.slice(i, i + 12));
    expect(pieces.filter((piece) => logged.includes(piece))).toEqual([]);
    expect(logged).toContain("the school year imported into Home Assistant's statistics");
  }, 60_000);

  it("a new grade rewrites today's row; a back-dated one rewrites from its day on, the days before untouched", async () => {
    const h = await bridge([ANIA]);
    const overall = 'dziennik2mqtt:ania_average';
    const maths = 'dziennik2mqtt:ania_average_matematyka';
    const before = ha.socket.imports.length;
    const average = h.state('ania', 'average');
    school.sim.account(ANIA.login).addGrade({ subject: 5012, category: 301, grade: '1' });
    await h.advanceUntil(() => h.state('ania', 'average') !== average, 'the new grade on the sensor', 60);
    await h.advanceUntil(() => ha.socket.imports.length > before, 'the new grade imported', 5);
    await h.app.outputOf(HOME_ASSISTANT_STATISTICS)?.idle();
    const today = ha.socket.imports.slice(before);
    // Only today's row, of the overall average and the subject's.
    expect(today.map((i) => [i.statistic_id, i.rows]).sort()).toEqual([
      [overall, 1],
      [maths, 1],
    ]);
    expect(rowOn(overall, TODAY)?.toFixed(2)).toBe(h.state('ania', 'average'));
    expect(rowOn(maths, TODAY)?.toFixed(2)).toBe(h.state('ania', 'average_matematyka'));

    // A grade of a week ago, entered now.
    const day = addDays(TODAY, -7);
    const kept = new Map([...ha.socket.rowsOf(maths).values()].map((r) => [warsawDate(r.start), r.mean]));
    const sent = ha.socket.received.length;
    const mathsState = h.state('ania', 'average_matematyka');
    school.sim.account(ANIA.login).addGrade({ subject: 5012, category: 301, grade: '6', date: day });
    await h.advanceUntil(() => h.state('ania', 'average_matematyka') !== mathsState, 'the back-dated grade on the sensor', 60);
    await h.advanceUntil(() => ha.socket.received.length > sent + 2, 'the back-dated grade imported', 5);
    await h.app.outputOf(HOME_ASSISTANT_STATISTICS)?.idle();
    const rewritten = ha.socket.received
      .slice(sent)
      .filter((m) => m.type === 'recorder/import_statistics' && (m.metadata as { statistic_id: string }).statistic_id === maths)
      .flatMap((m) => (m.stats as { start: string }[]).map((s) => warsawDate(Date.parse(s.start))));
    expect(rewritten[0]).toBe(day);
    expect(rewritten.every((d) => d >= day)).toBe(true);
    for (const [d, mean] of kept) if (d < day) expect(rowOn(maths, d)).toBe(mean);
    expect(rowOn(maths, TODAY)?.toFixed(2)).toBe(h.state('ania', 'average_matematyka'));
  });

  it('with the WebSocket away, MQTT goes on; once it is back the year is imported once', async () => {
    ha.socket.outage = 'away';
    const h = await school.start({
      accounts: [login(ANIA)],
      homeassistant: { url: ha.url, token: TOKEN },
      log: createLogger('debug', { write: (l: string) => void lines.push(l) }),
    });
    await h.runUntil(() => h.state('ania', 'average') !== undefined, 'the first pass');
    await h.advanceMinutes(2);
    expect(ha.socket.statistics.size).toBe(0);
    expect(JSON.parse(await h.app.diagnostics())).toMatchObject({ bridge: { home_assistant_statistics: { websocket: 'unreachable' } } });
    ha.socket.outage = undefined;
    await h.advanceUntil(() => ha.socket.statistics.has('dziennik2mqtt:ania_average'), 'imported once back', 40);
    await h.app.outputOf(HOME_ASSISTANT_STATISTICS)?.idle();
    for (const id of idsOf('ania')) expect(ha.socket.imports.filter((i) => i.statistic_id === id)).toHaveLength(1);
    const status = h.app.outputOf(HOME_ASSISTANT_STATISTICS)?.loop.status();
    expect(status).toMatchObject({ websocket: 'ok', statistics: idsOf('ania').length });
    expect(status?.rows_written).toBe(ha.socket.imports.reduce((sum, i) => sum + i.rows, 0));
  });

  it('the dashboard graphs the statistics the bridge imported, in the file it writes and in `dashboard`', async () => {
    const dir = await tempDir('d2m-dashboard-year-');
    const written = join(dir, 'dashboard.yaml');
    const h = await school.start({
      accounts: [ANIA, JAN].map(({ login, password }) => ({ login, password })),
      homeassistant: { url: ha.url, token: TOKEN },
      dashboardFile: written,
    });
    await h.advanceUntil(
      () => ha.socket.statistics.has('dziennik2mqtt:ania_average') && ha.socket.statistics.has('dziennik2mqtt:jan_attendance'),
      'the statistics',
      5,
    );
    await h.app.outputOf(HOME_ASSISTANT_STATISTICS)?.idle();
    const imported = (prefix: string) => [...ha.socket.statistics.keys()].filter((id) => id.startsWith(prefix)).sort();
    const averages = imported('dziennik2mqtt:ania_average');
    expect(averages.length).toBeGreaterThan(3);

    await waitUntil(async () => (await readFile(written, 'utf8').catch(() => '')).includes('statistics-graph'), 'the dashboard file', 10_000);
    let printed = '';
    expect(await runDashboard({ config: h.config, container: false, out: { write: (t) => (printed += t) }, err: { write: () => true } })).toBe(0);

    for (const yaml of [await readFile(written, 'utf8'), printed]) {
      const graphs = graphsOf(yaml);
      // Ania: her overall average and each subject's, then her attendance: every one a statistic Home Assistant holds.
      expect(graphs.ania?.map((ids) => [...ids].sort())).toEqual([averages, ['dziennik2mqtt:ania_attendance']]);
      expect(graphs.ania?.[0]?.[0]).toBe('dziennik2mqtt:ania_average');
      // Jan's descriptive grades give no average to graph (that card waits for one); his attendance is graphed.
      expect(graphs.jan?.at(-1)).toEqual(['dziennik2mqtt:jan_attendance']);
      expect(imported('dziennik2mqtt:jan_attendance')).toEqual(['dziennik2mqtt:jan_attendance']);
    }
    await rm(dir, { recursive: true, force: true });
  });
});
