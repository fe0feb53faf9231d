// The README's Docker steps, followed as written: clone first, copy config.example.yaml, fill in the
// child's login, run with the -e variables the `docker run` line sets. The config then loads without an
// error (every ${VAR} it reads is one the line sets), and the button its example message makes is named.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../../src/config/load.js';

const root = new URL('../../../', import.meta.url);

async function dockerSection(): Promise<{ steps: string; prose: string }> {
  const readme = await readFile(new URL('README.md', root), 'utf8');
  const section = readme.slice(readme.indexOf('### With Docker\n'), readme.indexOf('#### With Docker Compose'));
  const steps = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (steps === undefined) throw new Error('no shell block under "### With Docker"');
  return { steps, prose: section };
}

describe("the README's Docker steps", () => {
  it('clone first, then copy the example that the run line gives every variable it reads', async () => {
    const { steps } = await dockerSection();
    expect(steps.indexOf('git clone')).toBeGreaterThanOrEqual(0);
    expect(steps.indexOf('git clone')).toBeLessThan(steps.indexOf('cp config.example.yaml'));
    const example = await readFile(new URL('config.example.yaml', root), 'utf8');
    const active = example
      .split('\n')
      .map((line) => line.replace(/\s#.*$/, ''))
      .filter((line) => !line.trimStart().startsWith('#'))
      .join('\n');
    const read = [...active.matchAll(/\$\{(\w+)\}/g)].map((m) => m[1]!);
    const set = new Map([...steps.matchAll(/-e (\w+)=('[^']*'|\S+)/g)].map((m) => [m[1]!, m[2]!.replace(/^'|'$/g, '')]));
    expect(read.length).toBeGreaterThan(0);
    for (const name of read) expect(set.has(name), `${name} is read by config.example.yaml but not set by docker run`).toBe(true);

    // Followed as written: the login filled in, the variables of the run line in the environment.
    const dir = await mkdtemp(join(tmpdir(), 'd2m-docker-steps-'));
    try {
      await writeFile(join(dir, 'config.yaml'), example.replace('login: "1234567u"', 'login: "7654321u"'));
      const config = await loadConfigFile(join(dir, 'config.yaml'), { env: Object.fromEntries(set) });
      expect(config.accounts[0]).toMatchObject({ login: '7654321u', password: set.get('LOGIN1_PASSWORD') });
      expect(config.mqtt.url).toBe(set.get('DZIENNIK2MQTT_MQTT_URL'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('name the button the example message makes', async () => {
    const { steps, prose } = await dockerSection();
    const example = await readFile(new URL('config.example.yaml', root), 'utf8');
    const ids = [...example.matchAll(/^\s+- id: (\w+)/gm)].map((m) => m[1]!);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(steps + prose).toContain(`send_${id}`);
  });
});
