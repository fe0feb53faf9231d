// The `dashboard` command: its YAML parses, and every entity it names is one the bridge really
// announces for the configured children (checked against the discovery payloads of the real App).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { App } from '../../../src/app/app.js';
import { buildConfig } from '../../../src/config/load.js';
import { runDashboard } from '../../../src/app/commands/dashboard.js';
import { dashboardYaml, type DashboardChild } from '../../../src/outputs/homeassistant/dashboard.js';
import { bridgeEntityIds, childDiscovery } from '../../../src/outputs/mqtt/discovery.js';
import { ENTITIES, sendButton } from '../../../src/features/index.js';
import { entityId } from '../../../src/features/kit/entities.js';
import { FakeClock } from '../../helpers/clock.js';
import { quietOutput } from '../../helpers/publisher.js';
import { silentLogger } from '../../../src/util/log.js';
import type { ChildDevice } from '../../../src/features/kit/entities.js';
import type { Config } from '../../../src/config/schema.js';

const ENTITY_ID = /\b(sensor|binary_sensor|button|event|update)\.[a-z0-9_]+/g;

let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'd2m-dash-'));
});

afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

async function configWith(accounts: unknown[], language?: 'en' | 'pl'): Promise<Config> {
  return buildConfig({ accounts, data_dir: dataDir, ...(language ? { language } : {}) }, 'test', { env: {} });
}

const ANIA = {
  login: '1234567u',
  password: 'x',
  id: 'ania',
  messages: [
    { id: 'sick', name: 'Zgłoś nieobecność', to: 'class_tutor', topic: 't', body: 'b' },
    { id: 'late', name: 'Spóźnienie', to: { teacher: 'Anna Nowak' }, topic: 't', body: 'b' },
  ],
};
const LUKASZ = { login: '7654321u', password: 'y' };

/** What the bridge learned about both children on an earlier run (so that its start announces them, before any pass). */
async function rememberLukasz(): Promise<void> {
  await mkdir(join(dataDir, 'identity'), { recursive: true });
  await writeFile(
    join(dataDir, 'identity', '7654321u.json'),
    JSON.stringify({ firstName: 'Łukasz', lastName: 'Nowak', userId: '2', className: '2a', registerNumber: '7', fetchedAt: Date.now() }),
  );
  await writeFile(
    join(dataDir, 'identity', '1234567u.json'),
    JSON.stringify({ firstName: 'Ania', lastName: 'Kowalska', userId: '1', className: '4b', registerNumber: '3', fetchedAt: Date.now() }),
  );
}

/** The entity ids in the discovery payloads the real bridge (App) publishes for this config. */
async function publishedEntityIds(config: Config): Promise<Set<string>> {
  const announced = new Map<string, ChildDevice>();
  const app = new App({
    // Only the announced entities matter here: no web server.
    config: { ...config, http: { ...config.http, port: 0 } },
    version: '0.0.0-test',
    log: silentLogger(),
    clock: new FakeClock('2026-11-20T07:00:00+01:00'),
    output: quietOutput({ device: (child) => void announced.set(child.id, child), removed: (id) => void announced.delete(id) }),
  });
  await app.start();
  await app.stop();
  // The bridge's own device is published too (its Bridge view shows its broker, uptime and memory).
  const ids = new Set<string>(Object.values(bridgeEntityIds('dziennik2mqtt')));
  for (const child of announced.values()) {
    const { payload } = childDiscovery(child, { baseTopic: 'dziennik2mqtt', discoveryPrefix: 'homeassistant', version: 'x' });
    for (const cmp of Object.values(payload.cmps as Record<string, { default_entity_id: string }>)) ids.add(cmp.default_entity_id);
  }
  return ids;
}

/** Every entity id the dashboard names: in entity fields, entity rows and inside templates. */
function namedEntityIds(yamlText: string): Set<string> {
  return new Set(yamlText.match(ENTITY_ID) ?? []);
}

async function run(config: Config, lang?: 'en' | 'pl'): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runDashboard({
    config,
    lang,
    container: false,
    out: { write: (t: string) => (out += t) },
    err: { write: (t: string) => (err += t) },
  });
  return { code, out, err };
}

describe('dashboard command', () => {
  it('prints YAML naming only entities the bridge publishes for the configured children', async () => {
    await rememberLukasz();
    const config = await configWith([ANIA, LUKASZ]);
    const { code, out, err } = await run(config);
    expect(err).toBe('');
    expect(code).toBe(0);

    const doc = parse(out, { version: '1.1' }) as { title: string; views: { title: string; path: string; sections: unknown[] }[] };
    // The family first, then a view named after each child, then the bridge's diagnostics.
    expect(doc.views.map((v) => [v.title, v.path])).toEqual([
      ['Rodzina', 'family'],
      ['Ania', 'ania'],
      ['Łukasz', 'lukasz'],
      ['Mostek', 'bridge'],
    ]);

    const published = await publishedEntityIds(config);
    const named = namedEntityIds(out);
    const unknown = [...named].filter((id) => !published.has(id));
    expect(unknown).toEqual([]);
    // The cards that matter to a family are there, for both children, with Ania's two fixed messages.
    for (const id of [
      'binary_sensor.ania_lucky_today',
      'sensor.ania_lucky_number',
      'button.ania_send_sick',
      'button.ania_send_late',
      'binary_sensor.lukasz_lucky_today',
      'sensor.lukasz_unread_notices',
    ]) {
      expect(named, id).toContain(id);
    }
    expect([...named].some((id) => id.startsWith('button.lukasz_send_'))).toBe(false);
  });

  it('shows "it\'s you" only while lucky_today is on, with "on" quoted for Home Assistant\'s YAML', async () => {
    const { out } = await run(await configWith([ANIA]), 'en');
    expect(out).toContain('state: "on"');
    const view = (parse(out, { version: '1.1' }) as { views: { sections: { cards: Record<string, unknown>[] }[] }[] }).views[0];
    const banner = view?.sections.flatMap((s) => s.cards).find((c) => c.type === 'conditional' && JSON.stringify(c).includes('lucky_today'));
    expect(banner).toMatchObject({
      conditions: [{ condition: 'state', entity: 'binary_sensor.ania_lucky_today', state: 'on' }],
      card: { type: 'markdown' },
    });
    expect(JSON.stringify(banner)).toContain("it's you, Ania!");
  });

  it('speaks Polish on request', async () => {
    const { out } = await run(await configWith([ANIA], 'en'), 'pl');
    expect(out).toContain('Szczęśliwy numerek: to Ty, Ania!');
    expect(out).toContain('Wyślij do szkoły');
  });

  it("speaks the config's language without --lang: Polish by default, English when set", async () => {
    const polish = (await run(await configWith([ANIA]))).out;
    expect(polish).toContain('title: Szkoła');
    expect(polish).toContain('Szczęśliwy numerek: to Ty, Ania!');
    expect(polish).not.toContain("it's you");
    const english = (await run(await configWith([ANIA], 'en'))).out;
    expect(english).toContain('title: School');
    expect(english).toContain("Lucky number: it's you, Ania!");
    expect(english).not.toContain('Szczęśliwy numerek');
    // The ids are the same whatever the language.
    expect([...namedEntityIds(polish)].sort()).toEqual([...namedEntityIds(english)].sort());
  });

  it("shows the problem's advice (in the config's language) rather than its reason code", async () => {
    const { out } = await run(await configWith([ANIA]));
    const view = (parse(out, { version: '1.1' }) as { views: { sections: { cards: Record<string, unknown>[] }[] }[] }).views[0];
    const banner = view?.sections.flatMap((s) => s.cards).find((c) => c.type === 'conditional' && JSON.stringify(c).includes('ania_problem'));
    expect(JSON.stringify(banner)).toContain('set problem = \\"binary_sensor.ania_problem\\"');
    expect(JSON.stringify(banner)).toContain("state_attr(problem, 'message') or t.problemUnknown");
    expect(JSON.stringify(banner)).toContain('\\"problemUnknown\\":\\"mostek zgłasza problem');
    // The reason code (wrong_credentials and the like) means nothing to a parent: never shown, even as a fallback.
    expect(out).not.toContain("'reason'");
    expect(JSON.stringify(banner)).toContain('Nie da się teraz odczytać dziennika:');
  });

  it('prints the known children and names on stderr the one not known yet, exiting 0', async () => {
    const { code, out, err } = await run(await configWith([ANIA, LUKASZ]));
    expect(code).toBe(0);
    expect(out).toContain('sensor.ania_lucky_number');
    expect(out).not.toContain('7654321u');
    // Ania's entities only, beside the bridge device's own.
    const bridge = new Set(Object.values(bridgeEntityIds('dziennik2mqtt')));
    expect([...namedEntityIds(out)].filter((id) => !id.split('.')[1]?.startsWith('ania_') && !bridge.has(id))).toEqual([]);
    expect(err).toContain('login 7654321u is not known yet');
    expect(err).toContain('dziennik2mqtt check');
    expect(err).toContain('run the bridge once');
  });

  it('fails with a hint when no child is configured or known yet', async () => {
    const { code, out, err } = await run(await configWith([LUKASZ]));
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toContain('login 7654321u is not known yet');
    expect(err).toMatch(/give the account an id/i);
    expect(err).toContain('run the bridge once');
  });
});

describe('dashboard builder', () => {
  const full: DashboardChild = { id: 'zosia', name: 'Zosia', entities: [...ENTITIES, sendButton('sick', 'Chora')] };

  it('uses every card when the child has every entity, naming only those', () => {
    const text = dashboardYaml([full]);
    const named = namedEntityIds(text);
    const available = new Set([...full.entities.map((e) => entityId('zosia', e)), ...Object.values(bridgeEntityIds('dziennik2mqtt'))]);
    expect([...named].filter((id) => !available.has(id))).toEqual([]);
    for (const key of [
      'plan_changes_today',
      'plan_changes_tomorrow',
      'next_lesson',
      'newest_grade',
      'average',
      'homework_due',
      'upcoming_tests',
      'unread_messages',
      'unread_notices',
    ]) {
      expect(named, key).toContain(`sensor.zosia_${key}`);
    }
    expect(named).toContain('button.zosia_send_sick');
    const types = new Set(JSON.stringify(parse(text)).match(/"type":"[a-z-]+"/g));
    // Built-in cards only (and the built-in button row).
    expect([...types].sort()).toEqual([
      '"type":"button"',
      '"type":"conditional"',
      '"type":"entities"',
      '"type":"grid"',
      '"type":"heading"',
      '"type":"markdown"',
      '"type":"sections"',
      '"type":"tile"',
      '"type":"vertical-stack"',
    ]);
  });

  it('leaves out what a child lacks, down to whole sections', () => {
    const few: DashboardChild = { id: 'jas', name: 'Jaś', entities: ENTITIES.filter((e) => ['last_update', 'problem', 'refresh'].includes(e.key)) };
    const text = dashboardYaml([few]);
    expect([...namedEntityIds(text)].sort()).toEqual([
      'binary_sensor.dziennik2mqtt_bridge_connection_state',
      'binary_sensor.dziennik2mqtt_bridge_problem',
      'binary_sensor.jas_problem',
      'button.dziennik2mqtt_summary_now',
      'button.jas_refresh',
      'sensor.dziennik2mqtt_bridge_memory',
      'sensor.dziennik2mqtt_bridge_uptime',
      'sensor.jas_last_update',
      'update.dziennik2mqtt',
    ]);
    // No view of the child's own (it has no details), the family view only the problem banner, the diagnostics and the bridge device.
    const views = (parse(text) as { views: { path: string; sections: unknown[] }[] }).views;
    expect(views.map((v) => [v.path, v.sections.length])).toEqual([
      ['family', 1],
      ['bridge', 2],
    ]);
  });

  it('keeps every template balanced', () => {
    const text = dashboardYaml([full]);
    for (const [open, close] of [
      [/\{%-? *for /g, /\{%-? *endfor/g],
      [/\{%-? *if /g, /\{%-? *endif/g],
    ] as const) {
      expect((text.match(open) ?? []).length).toBe((text.match(close) ?? []).length);
    }
    expect((text.match(/\{\{/g) ?? []).length).toBe((text.match(/\}\}/g) ?? []).length);
  });
});
