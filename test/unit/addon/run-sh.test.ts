// The add-on's run.sh as the container runs it, with a stand-in `dziennik2mqtt` on PATH and the add-on
// config folder moved to a temporary one: what `dashboard` says on stderr reaches the add-on's log.
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const RUN_SH = new URL('../../../hassio-addon/run.sh', import.meta.url);
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'd2m-runsh-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** run.sh with /config pointing at dir, and a fake bin whose dashboard prints `yaml` and `warning`. */
async function runScript(yaml: string, warning: string, dashboardCode: number): Promise<{ stdout: string; stderr: string }> {
  const script = (await readFile(RUN_SH, 'utf8')).replaceAll('/config/', `${dir}/`);
  await writeFile(join(dir, 'run.sh'), script);
  const fake = [
    '#!/bin/sh',
    'if [ "$1" = dashboard ]; then',
    `  printf '%s' '${yaml}'`,
    `  printf '%s\\n' '${warning}' >&2`,
    `  exit ${dashboardCode}`,
    'fi',
    'echo "bridge started: $*"',
  ].join('\n');
  await writeFile(join(dir, 'dziennik2mqtt'), `${fake}\n`);
  await chmod(join(dir, 'dziennik2mqtt'), 0o755);
  return promisify(execFile)('sh', [join(dir, 'run.sh')], { env: { PATH: `${dir}:${process.env.PATH ?? ''}` } });
}

describe('the add-on start script', () => {
  it('writes the dashboard of the known children and lets the warning about the others reach the log', async () => {
    const { stdout, stderr } = await runScript('title: Szkoła\n', 'dashboard: the child of login 7654321u is not known yet', 0);
    expect(stderr).toContain('login 7654321u is not known yet');
    expect(await readFile(join(dir, 'dashboard.yaml'), 'utf8')).toBe('title: Szkoła\n');
    expect(stdout).toContain('bridge started: run --addon');
  });

  it('starts the bridge and shows why when no child is known yet', async () => {
    const { stdout, stderr } = await runScript('', 'dashboard: the child of login 1234567u is not known yet', 1);
    expect(stderr).toContain('login 1234567u is not known yet');
    expect(stdout).toContain('bridge started: run --addon');
  });

  it('tells the bridge where the dashboard goes, so that it writes it once it knows the children', async () => {
    const { stdout } = await runScript('', 'dashboard: the children of the e-mail entry family1 are not known yet', 1);
    expect(stdout).toContain('the dashboard is written once the bridge knows the children');
    expect(stdout).toContain(`bridge started: run --addon --dashboard-file ${dir}/dashboard.yaml`);
  });
});
