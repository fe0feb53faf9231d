// `check` piped (as the app's log shows it): only check's own lines, in the family's language; its log
// goes to data_dir/check.log, never among them.
import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { DEMO_ACCOUNTS, DEMO_FAMILY, PortalSimulator } from '../../src/simulator/index.js';
import { REPO, ensureBuilt } from '../helpers/faults-process.js';
import { tempDir } from '../helpers/portal.js';

const ANIA = DEMO_ACCOUNTS[0]!;
let sim: PortalSimulator;
let dir: string;

// The built bin, as a parent runs it (built once when src is newer).
beforeAll(() => ensureBuilt(), 240_000);

beforeEach(async () => {
  sim = new PortalSimulator({ now: () => Date.parse('2026-11-18T09:10:00+01:00') });
  await sim.start();
  dir = await tempDir();
});

afterEach(async () => {
  await sim.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('check piped, under language: pl', () => {
  it('prints only its own Polish lines, with a wrong register password beside the family entry', async () => {
    const config = join(dir, 'config.yaml');
    const accounts = [
      { login: ANIA.login, password: 'wrong' },
      { email: DEMO_FAMILY.email, password: DEMO_FAMILY.password },
    ];
    await writeFile(config, stringify({ portal: sim.urls, accounts, data_dir: join(dir, 'data'), http: { port: 0 }, language: 'pl' }), {
      mode: 0o600,
    });
    const run = await promisify(execFile)(process.execPath, [join(REPO, 'dist', 'main.js'), 'check', '--config', config], {
      cwd: REPO,
      env: { PATH: process.env.PATH },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code, stdout: error.stdout ?? '', stderr: error.stderr ?? '' }),
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`FAIL ${ANIA.login}: błędny login lub hasło:`);
    expect(run.stdout).not.toContain(`OK   ${ANIA.login}`);
    // No log line on either stream: no JSON, no English words of the log.
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/"level"|"msg"|refused the login|^\{/m);
    expect(run.stderr).toBe('');
    // The log is kept where a bug report finds it.
    expect(await readFile(join(dir, 'data', 'check.log'), 'utf8')).toMatch(/refused the login/);
  });
});
