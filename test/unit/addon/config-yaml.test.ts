// hassio-addon/ against the Supervisor's rules: required keys, option types, arch list, services,
// version equal to package.json's, translations for every option, and the files the store shows.
import { access, constants, readFile, stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  ARCHES,
  BOOT,
  MAP_TYPES,
  RE_SERVICE,
  RE_SLUG,
  STARTUP,
  isOptional,
  optionProblems,
  schemaShapeProblems,
} from './supervisor-rules.js';

const root = new URL('../../../', import.meta.url);
const addonDir = new URL('hassio-addon/', root);
const readYaml = async (url: URL): Promise<Record<string, unknown>> => parse(await readFile(url, 'utf8')) as Record<string, unknown>;
const addon = await readYaml(new URL('config.yaml', addonDir));
const schema = addon.schema as Record<string, unknown>;
const options = addon.options as Record<string, unknown>;
const pkg = JSON.parse(await readFile(new URL('package.json', root), 'utf8')) as { version: string; license: string };

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

  it('has defaults the Supervisor accepts', () => {
    expect(optionProblems(schema, options)).toEqual([]);
  });

  it('catches what the Supervisor would refuse (the checker itself)', () => {
    expect(optionProblems(schema, { ...options, poll_interval: 0, log_level: 'loud', colour: 'red' })).toEqual([
      'options.poll_interval: not an int in range',
      'options.log_level: not one of fatal|error|warn|info|debug|trace|silent',
      'options.colour: not in the schema',
    ]);
    expect(optionProblems(schema, { ...options, messages: [{ id: 'Sick!', name: 'x', to: 'headmaster', topic: 't', body: 'b' }] })).toEqual([
      'options.messages[0].id: does not match ^[a-z0-9_]+$',
      'options.messages[0].to: does not match ^(class_tutor|teacher:.+|account:.+)$',
    ]);
    expect(schemaShapeProblems({ a: [['str']], b: 'text' })).toEqual(['schema.a: a list may not directly contain a list', 'schema.b: unknown type "text"']);
  });
});

describe('hassio-addon translations', () => {
  for (const lang of ['en', 'pl']) {
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
  it('names its base image in the Dockerfile (build.yaml is deprecated) and installs its own version', async () => {
    await expect(access(new URL('build.yaml', addonDir))).rejects.toThrow();
    const dockerfile = await readFile(new URL('Dockerfile', addonDir), 'utf8');
    const top = await readFile(new URL('Dockerfile', root), 'utf8');
    const base = /^FROM (node:\d+-alpine)\s*$/m.exec(dockerfile)?.[1];
    expect(base).toBeDefined();
    // The add-on and the Docker image run the same Node line.
    expect(top).toContain(`FROM ${base} AS build`);
    expect(dockerfile).toContain('dziennik2mqtt@${BUILD_VERSION}');
    expect(dockerfile).toContain('io.hass.type="addon"');
    expect(dockerfile).toMatch(/^CMD \["\/run.sh"\]$/m);
    const run = await stat(new URL('run.sh', addonDir));
    expect(run.mode & constants.S_IXUSR).toBeTruthy();
    expect(await readFile(new URL('run.sh', addonDir), 'utf8')).toContain('exec dziennik2mqtt run --addon');
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
