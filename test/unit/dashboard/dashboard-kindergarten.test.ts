// The dashboard knows what the bridge knows of a kindergarten child (issue 59): `dashboard` and the running
// bridge's dashboard file give her a kindergarten's card once the bridge has found her plan (the figures it
// keeps in data_dir), and leave out the boxes her device does not declare (the school's lists, refused her, and any
// list before it has answered); the file is written again when either changes. The real bridge (App) against
// the simulator on a fake clock; what it would publish goes nowhere.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildConfig } from '../../../src/config/load.js';
import { announcedChildren } from '../../../src/app/commands/dashboard.js';
import { dashboardYaml } from '../../../src/outputs/homeassistant/dashboard.js';
import { upcomingTestsEntity, homeworkDueEntity } from '../../../src/features/agenda/agenda.js';
import { DEMO_ACCOUNTS, type PortalSimulator } from '../../../src/simulator/index.js';
import type { Config } from '../../../src/config/schema.js';
import { simulatorPerTest } from '../../helpers/portal.js';
import { quietApp } from '../../helpers/publisher.js';
import { tempDir } from '../../helpers/temp.js';
import type { FakeClock } from '../../helpers/clock.js';

const [ANIA, ZOFIA] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[2]!];

let sim: PortalSimulator;
let clock: FakeClock;
let dataDir: string;

simulatorPerTest((world) => ({ sim, clock } = world), '2026-11-23T09:10:00+01:00');
beforeEach(async () => {
  dataDir = await tempDir();
});

function configWith(): Promise<Config> {
  const accounts = [ANIA, ZOFIA].map((a) => ({ login: a.login, password: a.password }));
  return buildConfig({ portal: sim.urls, accounts, data_dir: dataDir, http: { port: 0 } }, 'test', { env: {} });
}

/** The bridge on the fake clock, run minute by minute (each pass due on the way run to its end), then stopped. */
async function run(config: Config, count: number, extra: { dashboardFile?: string; log?: string[] } = {}): Promise<void> {
  const app = await quietApp(config, clock, extra);
  for (let m = 0; m <= count; m++) {
    await clock.advance(m === 0 ? 0 : 60_000);
    await Promise.all(app.runners.map((p) => p.idle()));
  }
  await app.stop();
}

type Heading = { type: string; heading?: string; card?: Heading };
type Doc = { views: { path: string; title: string; sections: { cards: Heading[] }[] }[] };
/** Each section's title (one shown under conditions too). */
const headings = (doc: Doc, path: string): string[] =>
  doc.views.find((v) => v.path === path)!.sections.map((s) => s.cards.map((c) => c.card ?? c).find((c) => c.type === 'heading')?.heading ?? '');

describe("a kindergarten child's dashboard", () => {
  it('is a kindergarten card once the bridge has found her plan, and the school child keeps his', async () => {
    const config = await configWith();
    await run(config, 2);
    const { children } = await announcedChildren(config);
    expect(children.map((c) => [c.id, c.kind])).toEqual([
      ['ania', 'school'],
      ['zofia', 'kindergarten'],
    ]);
    const doc = parse(dashboardYaml(children, 'pl'), { version: '1.1' }) as Doc;
    expect(headings(doc, 'zofia')[0]).toBe('Zajęcia');
    expect(headings(doc, 'zofia')).not.toContain('Oceny');
    expect(headings(doc, 'zofia')).not.toContain('Lekcje');
    expect(headings(doc, 'ania')).toEqual(['Oceny', 'Lekcje', 'Uwagi i frekwencja', 'Terminarz', 'Wiadomości', 'Szkoła']);
    const yaml = dashboardYaml(children, 'pl');
    // Her day's templates say "at kindergarten" from the start; no tests in her column.
    expect(yaml).toContain('{%- set kindergarten = "yes" -%}');
    const family = doc.views.find((v) => v.path === 'family')!.sections.find((s) => s.cards[0]?.heading === 'Zofia')!;
    expect(JSON.stringify(family)).toContain('sensor.zofia_newest_notice');
    expect(JSON.stringify(family)).toContain('sensor.zofia_timetable_today');
    expect(JSON.stringify(family)).not.toContain('sensor.zofia_upcoming_tests');
  });

  it('leaves out the boxes of every module the portal refuses her, as her device does, from the first run', async () => {
    const config = await configWith();
    await run(config, 2);
    const [ania, zofia] = (await announcedChildren(config)).children;
    const keys = zofia!.entities.map((e) => e.key);
    for (const key of [homeworkDueEntity.key, upcomingTestsEntity.key, 'average', 'lucky_number']) expect(keys).not.toContain(key);
    expect(ania!.entities.map((e) => e.key)).toContain(homeworkDueEntity.key);
    const yaml = dashboardYaml([zofia!], 'pl');
    expect(yaml).not.toContain('sensor.zofia_homework_due');
    expect(yaml).toContain('sensor.zofia_timetable_today');
  });

  it("is written to the running bridge's dashboard file as a kindergarten card, and again when a list of hers first answers", async () => {
    const file = join(dataDir, 'dashboard.yaml');
    const log: string[] = [];
    const config = await configWith();
    // Her first pass alone: her plan found, the school's lists refused her.
    await run(config, 0, { dashboardFile: file, log });
    const first = await readFile(file, 'utf8');
    expect(first).toContain('{%- set kindergarten = "yes" -%}');
    expect(first).not.toContain('sensor.zofia_homework_due');
    // The school's files and the library are read from a start's second pass on: as her device, the file has
    // neither before they answer.
    expect(first).not.toContain('sensor.zofia_school_files');
    expect(first).not.toContain('sensor.zofia_library_due');
    // Then the school's files answer (her device lists them, and the file) and the library refuses her (the
    // kindergarten lends no books): it never enters either.
    const before = log.length;
    await run(config, 12, { dashboardFile: file, log });
    expect(sim.requests.some((r) => r.login === ZOFIA.login && r.path.endsWith('/EbiblioLendings') && r.status === 404)).toBe(true);
    expect(await readFile(file, 'utf8')).toContain('sensor.zofia_school_files');
    expect(await readFile(file, 'utf8')).not.toContain('sensor.zofia_library_due');
    const written = log
      .slice(before)
      .map((l) => (JSON.parse(l) as { msg: string }).msg)
      .filter((msg) => msg.includes('dashboard') && msg.includes('written'));
    expect(written).toEqual([`the Home Assistant dashboard for ania, zofia was written to ${file}`]);
  });
});
