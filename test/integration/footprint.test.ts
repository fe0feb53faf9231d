// What the running bridge keeps in memory for the life of the process: its MQTT client keeps no table
// of 65,536 prebuilt packet numbers (about 6 MB of heap). The check runs the built code in a fresh node,
// as the bin runs it, so nothing another test loaded counts.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO, ensureBuilt } from '../helpers/faults-process.js';
import { MQTT_URL, uniqueRoots } from '../helpers/mqtt.js';

beforeAll(() => ensureBuilt(), 120_000);

/** Runs an ES module body in a fresh node and returns what it printed as JSON. */
async function inFreshNode(body: string): Promise<Record<string, unknown>> {
  const script = `import { createRequire } from 'node:module';\nconst require = createRequire(${JSON.stringify(join(REPO, 'node_modules', 'mqtt', 'package.json'))});\n${body}`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    cwd: REPO,
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

const dist = (path: string): string => JSON.stringify(pathToFileURL(join(REPO, 'dist', path)).href);

describe('what the bridge keeps loaded', () => {
  it('publishes without building the MQTT packet-number table', async () => {
    const { base } = uniqueRoots();
    const out = await inFreshNode(`
      const { createClient, waitForConnect } = await import(${dist('outputs/mqtt/client.js')});
      const client = createClient({ mqtt: { url: ${JSON.stringify(MQTT_URL)} }, will: { topic: '${base}/bridge/state', payload: 'offline' }, reconnectPeriodMs: 1000 });
      await waitForConnect(client, ${JSON.stringify(MQTT_URL)});
      await client.publishAsync('${base}/probe', 'x', { qos: 1 });
      await client.subscribeAsync('${base}/probe');
      await client.endAsync();
      console.log(JSON.stringify({ table: Object.keys(require('mqtt-packet/numbers.js').cache).length }));
    `);
    expect(out).toEqual({ table: 0 });
  });
});
