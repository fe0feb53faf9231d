// hassio-addon/ against the Supervisor's rules: required keys, option types, arch list, services,
// version equal to package.json's, translations for every option, and the files the store shows.
import { access, constants, readFile, stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { bridgeDiscovery, childDiscovery } from '../../../src/outputs/mqtt/discovery.js';
import { ENTITIES } from '../../../src/features/index.js';
import { LANGUAGES } from '../../../src/config/language.js';
import { VERSION } from '../../../src/util/version.js';
import {
  ARCHES,
  BOOT,
  LEGACY_MAP_TYPES,
  MAP_TYPES,
  RE_DOCKER_IMAGE_BUILD,
  RE_SERVICE,
  RE_SLUG,
  RE_WATCHDOG,
  STARTUP,
  isOptional,
  optionProblems,
  purePathMatch,
  schemaShapeProblems,
} from './supervisor-rules.js';

const root = new URL('../../../', import.meta.url);
const addonDir = new URL('hassio-addon/', root);
const readYaml = async (url: URL): Promise<Record<string, unknown>> => parse(await readFile(url, 'utf8')) as Record<string, unknown>;
const addon = await readYaml(new URL('config.yaml', addonDir));
const schema = addon.schema as Record<string, unknown>;
const options = addon.options as Record<string, unknown>;
/** The defaults with the login and password a parent types in. */
const filled = { ...options, accounts: [{ login: '1234567u', password: 'tajne' }] };
const pkg = JSON.parse(await readFile(new URL('package.json', root), 'utf8')) as { version: string; license: string };

/** Whether version `a` (x.y.z) comes after `b`. */
const newer = (a: string, b: string): boolean => {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  const at = x!.findIndex((n, i) => n !== y![i]);
  return at >= 0 && x![at]! > y![at]!;
};

describe('hassio-addon/config.yaml', () => {
  it('has every required key with the right type', () => {
    for (const key of ['name', 'version', 'slug', 'description']) expect(typeof addon[key], key).toBe('string');
    expect(addon.slug).toMatch(RE_SLUG);
    expect(Array.isArray(addon.arch)).toBe(true);
  });

  it('builds for aarch64 and amd64 only, both known to the Supervisor', () => {
    expect([...(addon.arch as string[])].sort()).toEqual(['aarch64', 'amd64']);
    for (const arch of addon.arch as string[]) expect(ARCHES).toContain(arch);
  });

  it("has package.json's version", () => {
    expect(addon.version).toBe(pkg.version);
  });

  it('needs the MQTT service and uses only known start-up values and folders', () => {
    expect(addon.services).toContain('mqtt:need');
    for (const s of addon.services as string[]) expect(s).toMatch(RE_SERVICE);
    expect(STARTUP).toContain(addon.startup);
    expect(BOOT).toContain(addon.boot);
    expect(typeof addon.init).toBe('boolean');
    const maps = addon.map as { type: string; read_only?: boolean }[];
    for (const m of maps) expect(MAP_TYPES).toContain(m.type);
    expect(maps).toContainEqual({ type: 'media', read_only: false });
  });

  it('uses the 2026 names of the folders, none the Supervisor warns about as legacy', () => {
    const types = (addon.map as { type: string }[]).map((m) => m.type);
    expect(types.filter((type) => type in LEGACY_MAP_TYPES)).toEqual([]);
    expect(addon.map).toContainEqual({ type: 'app_config', read_only: false });
  });

  it('is watched by the Supervisor on /health, at the port the bridge listens on inside', () => {
    expect(addon.watchdog).toMatch(RE_WATCHDOG);
    expect(addon.watchdog).toBe(`http://[HOST]:[PORT:${String(addon.ingress_port)}]/health`);
  });

  it('leaves out of backups only what its next start makes again', () => {
    const patterns = addon.backup_exclude as string[];
    for (const p of patterns) expect(typeof p).toBe('string');
    // The paths as the Supervisor sees them when it backs up /data and the config folder.
    const data = '/data/addons/data/a1b2c3d4_dziennik2mqtt';
    const config = '/data/addon_configs/a1b2c3d4_dziennik2mqtt';
    const excluded = (path: string): boolean => patterns.some((p) => purePathMatch(path, p));
    expect([`${config}/dashboard.yaml`, `${data}/downloads`].filter((p) => !excluded(p))).toEqual([]);
    const kept = [
      `${data}/options.json`,
      `${data}/http-token`,
      `${data}/sessions/1234567u.json`,
      `${data}/seen/ania.json`,
      `${data}/identity/1234567u.json`,
      `${data}/subjects/1234567u.json`,
      `${data}/messages/1234567u-sent.json`,
    ];
    expect(kept.filter(excluded)).toEqual([]);
  });

  it('has a schema of known types in a shape the Supervisor accepts', () => {
    expect(schemaShapeProblems(schema)).toEqual([]);
    // Passwords are password fields, so the form masks them.
    expect((schema.accounts as Record<string, string>[])[0]?.password).toBe('password');
    expect(schema.mqtt_password).toBe('password?');
  });

  it('keeps the form flat: no list inside a list item (the options editor cannot show one)', () => {
    for (const [key, value] of Object.entries(schema)) {
      if (!Array.isArray(value)) continue;
      for (const [field, type] of Object.entries(value[0] as Record<string, unknown>)) {
        expect(typeof type, `${key}.${field}`).toBe('string');
      }
    }
  });

  it('gives every option a schema entry, and every schema entry a default or a "?"', () => {
    for (const key of Object.keys(options)) expect(Object.keys(schema), key).toContain(key);
    for (const key of Object.keys(schema)) {
      if (!(key in options)) expect(isOptional(schema[key]), `${key} has no default and is not optional`).toBe(true);
    }
  });

  it('has defaults the Supervisor accepts (the bridge names the empty entry at start), and a login typed in', () => {
    expect(optionProblems(schema, options)).toEqual([]);
    expect(optionProblems(schema, filled)).toEqual([]);
  });

  it("saves an e-mail entry with its login left empty, as DOCS.md and the form's words say", async () => {
    const entry = { login: '', email: 'rodzic@example.com', password: 'tajne' };
    expect(optionProblems(schema, { ...options, accounts: [entry] })).toEqual([]);
    expect(await readFile(new URL('DOCS.md', addonDir), 'utf8')).toContain('**E-mail** (leave the login empty)');
  });

  it('refuses in the form what the bridge would refuse: blank texts, a reserved or malformed id, too short a poll', () => {
    const account = { login: '1234567u', password: 'tajne' };
    const message = { id: 'sick', name: 'Chora', to: 'class_tutor', topic: 'Nieobecność', body: 'Dzień dobry.' };
    const accountProblems = (a: Record<string, unknown>) => optionProblems(schema, { ...options, accounts: [{ ...account, ...a }] });
    const messageProblems = (m: Record<string, unknown>) =>
      optionProblems(schema, { ...options, accounts: [account], messages: [{ ...message, ...m }] });

    for (const login of ['   ', '\t']) expect(accountProblems({ login }), login).toEqual(['options.accounts[0].login: does not match ^$|^\\s*\\S']);
    for (const id of ['bridge', 'Ania', 'ania-2', 'ania ', '']) {
      expect(accountProblems({ id }), id).toEqual(['options.accounts[0].id: does not match ^(?!bridge$)[a-z0-9_]+$']);
    }
    for (const id of ['ania', 'bridge2', 'my_bridge', 'a1']) expect(accountProblems({ id }), id).toEqual([]);
    for (const key of ['name', 'topic', 'body']) {
      expect(messageProblems({ [key]: ' ' }), key).toEqual([`options.messages[0].${key}: does not match ^\\s*\\S`]);
    }
    expect(messageProblems({ body: 'Dzień dobry,\nAnia jest chora.' })).toEqual([]);
    for (const to of ['teacher: ', 'account:', 'headmaster']) expect(messageProblems({ to }), to).toHaveLength(1);
    for (const to of ['teacher:Anna Nowak', 'teacher: Anna Nowak', 'account:12345']) expect(messageProblems({ to }), to).toEqual([]);
    expect(optionProblems(schema, { ...options, accounts: [account], poll_interval: 4 })).toEqual(['options.poll_interval: not an int in range']);
    expect(optionProblems(schema, { ...options, accounts: [account], poll_interval: 5, fast_interval: 1 })).toEqual([]);
    expect(optionProblems(schema, { ...options, accounts: [account], school_interval: 1 })).toEqual(['options.school_interval: not an int in range']);
    expect(optionProblems(schema, { ...options, accounts: [account], school_interval: 2 })).toEqual([]);
  });

  it('uses no length on a text field (the Supervisor would refuse every value) and keeps passwords masked', () => {
    const leaves = JSON.stringify(schema).match(/"(?:str|password)\(/g) ?? [];
    expect(leaves).toEqual([]);
    expect(optionProblems({ p: 'password(1,)' }, { p: 'tajne' })).toEqual(['options.p: must have a partial ordering']);
  });

  it("matches backup patterns as Python's PurePath.match does (the checker itself)", () => {
    expect(purePathMatch('/data/x/downloads', '*/downloads')).toBe(true);
    expect(purePathMatch('/data/x/downloads/ania', '*/downloads')).toBe(false);
    expect(purePathMatch('/data/x/dashboard.yaml', '*.yaml')).toBe(true);
    expect(purePathMatch('/data/x/a.yaml', '/data/*.yaml')).toBe(false);
    expect(purePathMatch('/a.yaml', '/*.yaml')).toBe(true);
  });

  it('catches what the Supervisor would refuse (the checker itself)', () => {
    expect(optionProblems(schema, { ...filled, poll_interval: 0, log_level: 'loud', colour: 'red' })).toEqual([
      'options.poll_interval: not an int in range',
      'options.log_level: not one of fatal|error|warn|info|debug|trace|silent',
      'options.colour: not in the schema',
    ]);
    expect(optionProblems(schema, { ...filled, messages: [{ id: 'Sick!', name: 'x', to: 'headmaster', topic: 't', body: 'b' }] })).toEqual([
      'options.messages[0].id: does not match ^[a-z0-9_]+$',
      'options.messages[0].to: does not match ^(class_tutor|teacher:\\s*\\S.*|account:\\s*\\S.*)$',
    ]);
    expect(schemaShapeProblems({ a: [['str']], b: 'text' })).toEqual([
      'schema.a: a list may not directly contain a list',
      'schema.b: unknown type "text"',
    ]);
  });
});

describe('hassio-addon web server', () => {
  it('shows the board in the sidebar through ingress, on the port the bridge listens on inside', async () => {
    const { ADDON_HTTP_PORT, configFromOptions } = await import('../../../src/config/addon.js');
    expect(addon.ingress).toBe(true);
    expect(addon.ingress_port).toBe(ADDON_HTTP_PORT);
    expect(configFromOptions(filled, { url: 'mqtt://core-mosquitto:1883', username: 'u', password: 'p' }).http).toEqual({
      port: ADDON_HTTP_PORT,
      bind: '0.0.0.0',
    });
    expect(addon.panel_icon).toMatch(/^mdi:[a-z0-9-]+$/);
    expect(typeof addon.panel_title).toBe('string');
  });

  it('maps the same port on the host for the calendar feeds, described in both languages', async () => {
    const ports = addon.ports as Record<string, number>;
    const { ADDON_HTTP_PORT } = await import('../../../src/config/addon.js');
    expect(ports).toEqual({ [`${ADDON_HTTP_PORT}/tcp`]: ADDON_HTTP_PORT });
    // The Supervisor's rule for a port key (validate.py: RE_DOCKER_PORTS) and one description per key.
    for (const key of Object.keys(ports)) expect(key).toMatch(/^\d+(?:\/(?:tcp|udp))?$/);
    expect(Object.keys(addon.ports_description as object)).toEqual(Object.keys(ports));
    for (const lang of LANGUAGES) {
      const network = (await readYaml(new URL(`translations/${lang}.yaml`, addonDir))).network as Record<string, string>;
      expect(Object.keys(network), lang).toEqual(Object.keys(ports));
      expect(network[`${ADDON_HTTP_PORT}/tcp`]?.length, lang).toBeGreaterThan(10);
    }
  });
});

describe('hassio-addon translations', () => {
  it('offers every language of the bridge in the form', () => {
    expect(schema.language).toBe(`list(${LANGUAGES.join('|')})`);
  });

  for (const lang of LANGUAGES) {
    it(`${lang}.yaml names and describes every option and field, and nothing else`, async () => {
      const text = (await readYaml(new URL(`translations/${lang}.yaml`, addonDir))).configuration as Record<
        string,
        { name?: string; description?: string; fields?: Record<string, { name?: string; description?: string }> }
      >;
      expect(Object.keys(text).sort()).toEqual(Object.keys(schema).sort());
      for (const [key, type] of Object.entries(schema)) {
        const entry = text[key];
        expect(entry?.name, key).toBeTruthy();
        expect(entry?.description, key).toBeTruthy();
        if (Array.isArray(type) && typeof type[0] === 'object') {
          const fields = Object.keys(type[0] as object);
          expect(Object.keys(entry?.fields ?? {}).sort(), `${key}.fields`).toEqual([...fields].sort());
          for (const f of fields) {
            expect(entry?.fields?.[f]?.name, `${key}.${f}`).toBeTruthy();
            expect(entry?.fields?.[f]?.description, `${key}.${f}`).toBeTruthy();
          }
        }
      }
    });
  }
});

describe('hassio-addon files', () => {
  it("installs the prebuilt image of its own version, built from the repository's Dockerfile", async () => {
    await expect(access(new URL('build.yaml', addonDir))).rejects.toThrow();
    // With `image:` the Supervisor pulls; a Dockerfile here would only mislead (the folder cannot reach ../src).
    await expect(access(new URL('Dockerfile', addonDir))).rejects.toThrow();
    const owner = /^https:\/\/github\.com\/([^/]+)\/[^/]+$/.exec(String(addon.url))?.[1];
    expect(owner).toBeDefined();
    expect(addon.image).toBe(`ghcr.io/${owner}/dziennik2mqtt-addon-{arch}`);
    expect(addon.image).toMatch(RE_DOCKER_IMAGE_BUILD);
    expect(String(addon.homeassistant)).toMatch(/^\d{4}\.\d{1,2}\.\d+$/);

    const top = await readFile(new URL('Dockerfile', root), 'utf8');
    const stage = top.slice(top.indexOf(' AS addon'), top.indexOf('\nFROM ', top.indexOf(' AS addon')));
    expect(stage).toMatch(/^ AS addon$/m);
    expect(stage).toContain('io.hass.type="addon"');
    expect(stage).toContain('io.hass.version="${VERSION}"');
    expect(stage).toContain('COPY hassio-addon/run.sh /run.sh');
    expect(stage).toMatch(/^CMD \["\/run.sh"\]$/m);
    expect(stage).not.toMatch(/^USER /m);
    // Nothing is installed that the project did not produce: no package of dziennik2mqtt from a registry.
    expect(top).not.toMatch(/npm (install|i) .*dziennik2mqtt/);
    expect(top).not.toContain('dziennik2mqtt@');
    expect(await readFile(new URL('.dockerignore', root), 'utf8')).toMatch(/^!hassio-addon\/run\.sh$/m);

    const run = await stat(new URL('run.sh', addonDir));
    expect(run.mode & constants.S_IXUSR).toBeTruthy();
    expect(await readFile(new URL('run.sh', addonDir), 'utf8')).toContain('exec dziennik2mqtt run --addon');
  });

  it('is published by a release workflow for both arches under the name config.yaml gives', async () => {
    const workflow = await readFile(new URL('.github/workflows/release.yaml', root), 'utf8');
    const parsed = parse(workflow) as { on: { push: { tags: string[] } } };
    expect(parsed.on.push.tags).toEqual(['v*']);
    expect(workflow).toContain('target: addon');
    expect(workflow).toContain('${{ needs.check.outputs.image }}-${{ matrix.arch }}:${{ needs.check.outputs.version }}');
    expect(workflow).toContain('image=ghcr.io/${GITHUB_REPOSITORY_OWNER,,}/dziennik2mqtt-addon');
    expect(workflow).toMatch(/arch: aarch64\s+platform: linux\/arm64/);
    expect(workflow).toMatch(/arch: amd64\s+platform: linux\/amd64/);
  });

  it('has one AppArmor profile that allows its folders and the network, and no more than the bridge needs', async () => {
    const profile = await readFile(new URL('apparmor.txt', addonDir), 'utf8');
    // The Supervisor's rule: exactly one line starting with "profile NAME" (it renames that profile).
    expect(profile.split('\n').filter((l) => /^profile [^ ]+/.test(l))).toHaveLength(1);
    for (const rule of [
      '/data/** rwkl,',
      '/media/dziennik2mqtt/** rwl,',
      '/config/** rw,',
      '/app/** r,',
      'network inet stream,',
      'network inet6 stream,',
    ]) {
      expect(profile).toContain(rule);
    }
    for (const broad of [/^\s*file,/m, /^\s*capability[ ,]/m, /^\s*\/\*\* /m, /^\s*\/(share|homeassistant|ssl|addons|backup)\//m])
      expect(profile).not.toMatch(broad);
  });

  it('has the pictures the add-on store shows', async () => {
    expect(await pngSize(new URL('icon.png', addonDir))).toEqual({ width: 128, height: 128 });
    const logo = await pngSize(new URL('logo.png', addonDir));
    expect(logo.width).toBeGreaterThanOrEqual(200);
    expect(logo.width).toBeLessThanOrEqual(300);
    expect(logo.height).toBeGreaterThanOrEqual(80);
    expect(logo.height).toBeLessThanOrEqual(120);
  });

  it('has the documents the store shows', async () => {
    for (const file of ['DOCS.md', 'README.md', 'CHANGELOG.md']) {
      expect((await readFile(new URL(file, addonDir), 'utf8')).length, file).toBeGreaterThan(100);
    }
    expect(await readFile(new URL('CHANGELOG.md', addonDir), 'utf8')).toContain(pkg.version);
  });

  it('says one version everywhere, and a build after a release says it is the next one in the making', async () => {
    // One version: the package's (which --version, check, the diagnostics and discovery's sw_version read), its lock,
    // the app's and the image's.
    const lock = JSON.parse(await readFile(new URL('package-lock.json', root), 'utf8')) as {
      version: string;
      packages: Record<string, { version?: string }>;
    };
    const image = [...(await readFile(new URL('Dockerfile', root), 'utf8')).matchAll(/^ARG VERSION=(\S+)$/gm)].map((m) => m[1]);
    expect([VERSION, lock.version, lock.packages['']?.version, addon.version, ...image]).toEqual(Array(4 + image.length).fill(pkg.version));
    expect(image.length).toBeGreaterThan(0);
    // Each changelog: its newest release, and whether it lists changes not released yet.
    const changelogs = await Promise.all([new URL('CHANGELOG.md', root), new URL('CHANGELOG.md', addonDir)].map((url) => readFile(url, 'utf8')));
    for (const text of changelogs) {
      const released = /^## \[?(\d+\.\d+\.\d+)\]? - \d{4}-\d{2}-\d{2}$/m.exec(text)?.[1];
      const unreleased = /^## \[?Unreleased\]?$([\s\S]*?)^## /m.exec(text)?.[1] ?? '';
      expect(released).toBeDefined();
      if (/^- /m.test(unreleased)) {
        // A build after a release: the next version, as a pre-release (0.2.0-dev after 0.1.0), named under Unreleased.
        const [, next] = /^(\d+\.\d+\.\d+)-dev$/.exec(pkg.version) ?? [];
        expect(next, `${pkg.version} after ${released}`).toBeDefined();
        expect(newer(next!, released!), `${next} after ${released}`).toBe(true);
        expect(unreleased).toContain(pkg.version);
      } else expect(pkg.version).toBe(released);
    }
  });

  it('asks for the oldest Home Assistant that knows every discovery key the bridge publishes and every key of its config', () => {
    // Where each key came from (Home Assistant release notes); the newest of the keys used decides.
    const since: Record<string, string> = { cmps: '2024.11.0', default_entity_id: '2025.10.0', event_types: '2023.8.0' };
    // The Supervisor reads `app_config` from 2026.07.1 on; it updates Home Assistant only when it is
    // itself up to date, so Home Assistant 2026.8.0 (released after it) stands for that Supervisor.
    const configSince: Record<string, string> = { app_config: '2026.8.0' };
    const used = new Set<string>([...(addon.map as { type: string }[]).map((m) => m.type), ...Object.keys(addon)]);
    const walk = (value: unknown): void => {
      if (!value || typeof value !== 'object') return;
      for (const [k, v] of Object.entries(value)) {
        used.add(k);
        walk(v);
      }
    };
    const ctx = { baseTopic: 'dziennik2mqtt', discoveryPrefix: 'homeassistant', version: pkg.version };
    walk(bridgeDiscovery(ctx).payload);
    walk(childDiscovery({ id: 'ania', name: 'Ania', entities: ENTITIES }, ctx).payload);
    const all = { ...since, ...configSince };
    const needed = [...used].filter((k) => k in all).map((k) => all[k as keyof typeof all] as string);
    expect(needed.length).toBeGreaterThan(0);
    const key = (v: string) =>
      v
        .split('.')
        .map((n) => n.padStart(4, '0'))
        .join('.');
    expect(addon.homeassistant).toBe(needed.sort((a, b) => key(a).localeCompare(key(b))).at(-1));
  });

  it('is in a repository Home Assistant can add', async () => {
    const repo = await readYaml(new URL('repository.yaml', root));
    for (const key of ['name', 'url', 'maintainer']) expect(typeof repo[key], key).toBe('string');
    expect(repo.url).toBe(addon.url);
  });
});

async function pngSize(url: URL): Promise<{ width: number; height: number }> {
  const bytes = await readFile(url);
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}
