// The running demo's configuration as a file, so that `check` and `dashboard` can be tried against it from
// another terminal: every address of the simulated school and of the broker, the demo's logins (the
// simulator's own, public ones) and its data folder. Written next to where the demo runs and removed when
// it stops; never a broker password of the user's (`--mqtt-url` is written without its credentials).
import { readFile, rm, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { stringify } from 'yaml';
import { redactUrl } from '../../outputs/mqtt/client.js';

/** The file's name in the folder the demo runs in (the docs' commands name it). */
export const DEMO_CONFIG_NAME = 'dziennik2mqtt-demo.yaml';

/**
 * Writes `raw` (the config the demo's bridge was built from) into `dir`, or into `fallbackDir` (the
 * demo's data folder) when `dir` cannot be written; answers where, as the demo prints it, and how to remove it.
 */
export async function writeDemoConfig(raw: { mqtt: { url: string } } & Record<string, unknown>, dir: string, fallbackDir: string) {
  const config = { ...raw, mqtt: { ...raw.mqtt, url: redactUrl(raw.mqtt.url).replace(/\/$/, '') } };
  const text = [
    '# The running demo (`dziennik2mqtt demo`): its simulated school, broker, logins and data folder, for',
    '#   npx dziennik2mqtt check --config <this file>      npx dziennik2mqtt dashboard --config <this file>',
    "# from another terminal. Removed when the demo stops. Not for `run`: the demo's bridge holds the data folder.",
    `# ${DEMO_PID} ${process.pid}`,
    stringify(config, { lineWidth: 0 }),
  ].join('\n');
  const path = (await writeBeside(dir, text).catch(() => undefined)) ?? (await writeBeside(fallbackDir, text));
  const near = relative(process.cwd(), path);
  return {
    // Relative to the folder the demo runs in when inside it.
    shown: near.startsWith('..') || isAbsolute(near) ? path : near,
    // Only while it is still this demo's: a second demo in the same folder has written its own since.
    remove: async () => {
      if ((await readFile(path, 'utf8').catch(() => undefined)) === text) await rm(path, { force: true });
    },
  };
}

/** The comment that names the demo a file belongs to. */
const DEMO_PID = 'written by the demo of process';

/**
 * Writes the file into `dir` under the first name no running demo holds: `dziennik2mqtt-demo.yaml`, else
 * `dziennik2mqtt-demo-2.yaml` ..., so that two demos side by side each keep their own.
 */
async function writeBeside(dir: string, text: string): Promise<string> {
  for (let n = 1; n <= 9; n++) {
    const path = join(dir, n === 1 ? DEMO_CONFIG_NAME : DEMO_CONFIG_NAME.replace(/\.yaml$/, `-${n}.yaml`));
    if (ownerRuns(await readFile(path, 'utf8').catch(() => undefined))) continue;
    // A new file, never through what stands there (a link another user put in a shared folder): the
    // leftover of a demo that was killed goes first, and a file that cannot be taken sends it to the fallback.
    await rm(path, { force: true });
    await writeFile(path, text, { mode: 0o600, flag: 'wx' });
    return path;
  }
  throw new Error(`nine demos hold their config files in ${dir}`);
}

/** Whether the demo that wrote this file still runs (a file of a killed demo, or none, is free to take). */
function ownerRuns(text: string | undefined): boolean {
  const pid = Number(text === undefined ? NaN : new RegExp(`^# ${DEMO_PID} (\\d+)$`, 'm').exec(text)?.[1]);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
