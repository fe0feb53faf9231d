// The Compose example run as written, without a container daemon: its compose file parsed, the bridge's
// CLI started as the image starts it (its ENTRYPOINT and CMD, WORKDIR and ENV) with the service's
// environment resolved from a .env made from .env.example, a folder standing for the ./dziennik2mqtt
// volume holding config.example.yaml edited as the README says, the simulator for the portal and the
// test broker for the `mosquitto` service. Every "${...}" the config names must be passed, and it runs.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEMO_ACCOUNTS, PortalSimulator } from '../../src/simulator/index.js';
import { REPO, ensureBuilt } from '../helpers/faults-process.js';
import { MQTT_URL, Recorder, clearRetained, uniqueRoots, waitUntil } from '../helpers/mqtt.js';

const EXAMPLE = join(REPO, 'examples', 'compose');
const ANIA = DEMO_ACCOUNTS[0]!;
const cleanups: (() => Promise<unknown>)[] = [];
beforeAll(() => ensureBuilt(), 120_000);
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Service {
  env_file?: string | string[];
  environment?: Record<string, string>;
  volumes?: string[];
  command?: string[];
}
const compose = parse(readFileSync(join(EXAMPLE, 'docker-compose.yml'), 'utf8')) as { services: Record<string, Service> };
const bridge = compose.services.dziennik2mqtt!;
const configExample = readFileSync(join(REPO, 'config.example.yaml'), 'utf8');
const dockerfile = readFileSync(join(REPO, 'Dockerfile'), 'utf8');

/** `KEY=value` lines of an env file (comments and blank lines left out). */
function envFile(text: string): Map<string, string> {
  return new Map(
    text
      .split('\n')
      .filter((l) => /^[A-Z_][A-Z0-9_]*=/.test(l))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)] as [string, string]),
  );
}

/** Compose's interpolation of one value: ${NAME}, ${NAME:-default}, ${NAME:?error} (an unset required one throws). */
function interpolate(value: string, dotenv: ReadonlyMap<string, string>): string {
  return value.replace(/\$\{([A-Z_][A-Z0-9_]*)(?::([-?])([^}]*))?\}/g, (_m, name: string, op?: string, arg?: string) => {
    const found = dotenv.get(name);
    if (found !== undefined && found !== '') return found;
    if (op === '?') throw new Error(`compose: ${arg}`);
    return op === '-' ? (arg ?? '') : '';
  });
}

/** The image's last `ENV NAME=value` for a name. */
function imageEnv(name: string): string | undefined {
  return [...dockerfile.matchAll(new RegExp(`^ENV ${name}=(\\S+)$`, 'gm'))].at(-1)?.[1];
}

describe('the Compose example as written', () => {
  it('hands .env whole to the bridge, which lists every variable the config names, and sets TZ to Warsaw', () => {
    const named = new Set([...configExample.matchAll(/\$\{([A-Z_][A-Z0-9_]*)\}/g)].map((m) => m[1]!));
    // Named by what they are, not by a child: a second login is LOGIN2_PASSWORD, one line in .env alone.
    expect([...named].sort()).toEqual(['FAMILY_PASSWORD', 'HA_TOKEN', 'LOGIN1_PASSWORD', 'LOGIN2_PASSWORD', 'MQTT_PASSWORD']);
    expect([bridge.env_file].flat()).toEqual(['.env']);
    const template = envFile(readFileSync(join(EXAMPLE, '.env.example'), 'utf8'));
    for (const name of named) if (name !== 'LOGIN2_PASSWORD') expect([...template.keys()], name).toContain(name);
    for (const service of Object.values(compose.services)) expect(service.environment?.TZ).toBe('Europe/Warsaw');
  });

  it('runs the bridge as the image does with that environment and volume, against the simulated school', async () => {
    const sim = new PortalSimulator();
    await sim.start();
    cleanups.push(() => sim.stop());
    const { base, prefix } = uniqueRoots();
    const rec = await Recorder.connect([`${base}/#`]);
    cleanups.push(async () => {
      await rec.close();
      await clearRetained([`${base}/#`, `${prefix}/#`]);
    });
    // The folder standing for ./dziennik2mqtt, mounted at the image's VOLUME (its WORKDIR too).
    const volume = await mkdtemp(join(tmpdir(), 'd2m-compose-'));
    cleanups.push(() => rm(volume, { recursive: true, force: true }));
    const [host, inside] = (bridge.volumes ?? []).find((v) => v.startsWith('./dziennik2mqtt:'))!.split(':') as [string, string];
    expect([
      host,
      inside,
      /^VOLUME (\S+)$/m.exec(dockerfile)?.[1],
      /^WORKDIR (\S+)$/gm.exec(dockerfile.slice(dockerfile.indexOf('VOLUME')))?.[1],
    ]).toEqual(['./dziennik2mqtt', '/config', '/config', '/config']);
    // config.example.yaml copied in, with the README's edits (the broker's user and its password from
    // the environment) and the test's world: the simulator's hosts, topics of its own, no web server.
    const config = configExample
      .replace(/^ {2}username: ""/m, '  username: dziennik2mqtt')
      .replace(/^ {2}password: ""/m, '  password: "${MQTT_PASSWORD}"')
      .replace(/^ {2}base_topic: dziennik2mqtt/m, `  base_topic: ${base}`)
      .replace(/^ {2}discovery_prefix: homeassistant/m, `  discovery_prefix: ${prefix}`)
      .replace(
        /^portal:\n(?: {2}.*\n)+/m,
        `portal:\n${Object.entries(sim.urls)
          .map(([k, v]) => `  ${k}: ${v}\n`)
          .join('')}`,
      )
      .replace(/^ {2}port: 8099/m, '  port: 0');
    expect(config).toContain('password: "${MQTT_PASSWORD}"');
    await writeFile(join(volume, 'config.yaml'), config);
    // The .env a family fills in from the template.
    const dotenv = envFile(readFileSync(join(EXAMPLE, '.env.example'), 'utf8'));
    dotenv.set('MQTT_PASSWORD', 'broker-secret').set('LOGIN1_PASSWORD', ANIA.password);
    // env_file's variables first, the service's environment over them (as Compose orders them).
    const environment: Record<string, string> = {
      ...Object.fromEntries(dotenv),
      ...Object.fromEntries(Object.entries(bridge.environment ?? {}).map(([k, v]) => [k, interpolate(String(v), dotenv)])),
    };
    // The service name `mosquitto` stands for the test broker (Compose's network would resolve it).
    const url = new URL(environment.DZIENNIK2MQTT_MQTT_URL!);
    expect(url.hostname).toBe('mosquitto');
    environment.DZIENNIK2MQTT_MQTT_URL = `${MQTT_URL.replace(/:\d+$/, '')}:${url.port}`;
    // ENTRYPOINT ["node", "/app/dist/main.js"], CMD ["run"] (the service sets no command), ENV DZIENNIK2MQTT_CONFIG=/config/config.yaml.
    expect(dockerfile).toMatch(/^ENTRYPOINT \["node", "\/app\/dist\/main\.js"\]$/m);
    expect(bridge.command ?? JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile.slice(dockerfile.indexOf('ENTRYPOINT')))![1]!)).toEqual(['run']);
    const configPath = imageEnv('DZIENNIK2MQTT_CONFIG')!.replace(/^\/config/, volume);
    const child = spawn(process.execPath, [join(REPO, 'dist', 'main.js'), 'run'], {
      cwd: volume,
      env: { PATH: process.env.PATH, DZIENNIK2MQTT_CONFIG: configPath, ...environment },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    });
    await waitUntil(
      () => rec.last(`${base}/ania/problem`)?.text === 'OFF' && rec.last(`${base}/ania/lucky_number`) !== undefined,
      `Ania read through the Compose example (stderr: ${stderr.slice(-500)})`,
      30_000,
    );
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // The default data_dir (./data) lands in the volume, as the image's WORKDIR makes it.
    expect((await stat(join(volume, 'data'))).isDirectory()).toBe(true);
    expect(stderr).not.toContain(ANIA.password);
  }, 60_000);
});
