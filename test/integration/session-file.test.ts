// The saved session on the disk (data_dir/sessions): written after a pass only when the session
// changed. Before, the jar was written and flushed to the disk after every pass (some 470 times a day
// per child at the defaults), though tough-cookie's access times were all that differed: wear on a
// Raspberry Pi's SD card, and the most CPU of any write of the bridge.
import { describe, expect, it } from 'vitest';
import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { PortalSimulator } from '../../src/simulator/index.js';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { meResponse } from '../../src/portal/schemas/identity.js';
import type { FakeClock } from '../helpers/clock.js';
import { portalClient, tempDir, simulatorPerTest } from '../helpers/portal.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const MIN = 60_000;

let sim: PortalSimulator;
let clock: FakeClock;
simulatorPerTest((world) => ({ sim, clock } = world));

const client = (dataDir: string) => portalClient({ sim, clock, login: ANIA.login, password: ANIA.password, dataDir });

/** The file's identity on the disk: an atomic write renames a new file over it, a new inode. */
async function version(file: string): Promise<string> {
  const s = await stat(file);
  return `${s.ino} ${s.mtimeMs}`;
}

describe('the saved session', () => {
  it('is written only when the session changed (a refresh), and comes back when data_dir is wiped', async () => {
    const dataDir = await tempDir();
    const file = join(dataDir, 'sessions', `${ANIA.login}.json`);
    const { session, gateway } = client(dataDir);
    await gateway.get('Me', meResponse);
    await session.persist();
    const first = await version(file);
    const text = await readFile(file, 'utf8');
    for (let pass = 0; pass < 3; pass++) {
      clock.set(clock.now() + 3 * MIN);
      await gateway.get('Me', meResponse);
      await session.persist();
    }
    expect(await version(file)).toBe(first);
    expect(await readFile(file, 'utf8')).toBe(text);

    // Two hours on, the session is refreshed (a new token), which is saved.
    clock.set(clock.now() + 2 * 60 * MIN);
    await gateway.get('Me', meResponse);
    await session.persist();
    expect(sim.count({ path: '/refreshToken' })).toBe(1);
    const refreshed = await readFile(file, 'utf8');
    expect((JSON.parse(refreshed) as { refreshedAt?: number }).refreshedAt).toBe(clock.now());
    expect(refreshed).not.toBe(text);

    // The family wipes data_dir while the bridge runs: the next save puts the session back, and a
    // restart from it needs neither a password login nor another refresh.
    await rm(join(dataDir, 'sessions'), { recursive: true, force: true });
    clock.set(clock.now() + 3 * MIN);
    await gateway.get('Me', meResponse);
    await session.persist();
    expect(await readFile(file, 'utf8')).toBe(refreshed);
    const restarted = client(dataDir);
    await restarted.session.restore();
    clock.set(clock.now() + 60 * MIN);
    await restarted.gateway.get('Me', meResponse);
    expect(sim.count({ path: '/refreshToken' })).toBe(1);
    expect(sim.logins(ANIA.login)).toBe(1);
  });
});
