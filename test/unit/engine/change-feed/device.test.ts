// The change feed's device per child in data_dir (engine/change-feed/device.ts): kept across a restart,
// 0600 in a 0700 folder, a broken file moved aside, and listed by the diagnostics under the login's hint
// without its content.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataFolderFiles } from '../../../../src/app/commands/diagnostics.js';
import { CHANGE_FEED_FOLDER, ChangeFeedDeviceStore } from '../../../../src/engine/change-feed/device.js';
import { buildMinimal } from '../../../helpers/config.js';
import { tempDir } from '../../../helpers/temp.js';

const LOGIN = '1234567u';
const DEVICE = '4180123';

describe('FeedDeviceStore', () => {
  it('keeps the device, its road and time, and the refusals per road, for the next start', async () => {
    const dir = await tempDir();
    const saved = {
      version: 1 as const,
      device: { id: DEVICE, road: 'family' as const, registeredAt: 1_763_622_000_000 },
      refused: { register: { until: 1_763_708_400_000, status: 403 } },
    };
    await new ChangeFeedDeviceStore(dir, LOGIN).save(saved);
    expect(await new ChangeFeedDeviceStore(dir, LOGIN).load()).toEqual(saved);
    expect(await new ChangeFeedDeviceStore(dir, '7654321u').load()).toBeUndefined();
    const path = join(dir, CHANGE_FEED_FOLDER, `${LOGIN}.json`);
    expect(new ChangeFeedDeviceStore(dir, LOGIN).path).toBe(path);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, CHANGE_FEED_FOLDER))).mode & 0o777).toBe(0o700);
  });

  it('moves a broken file aside and starts without a device', async () => {
    const dir = await tempDir();
    const store = new ChangeFeedDeviceStore(dir, LOGIN);
    await store.save({ version: 1, device: { id: DEVICE, road: 'register', registeredAt: 1 } });
    await writeFile(store.path, JSON.stringify({ version: 1, device: { id: '12/../x', road: 'register', registeredAt: 1 } }));
    const told: string[] = [];
    expect(await store.load((error) => told.push(error.message))).toBeUndefined();
    expect(told).toHaveLength(1);
    expect((await readdir(join(dir, CHANGE_FEED_FOLDER))).some((name) => name.startsWith(`${LOGIN}.json.broken-`))).toBe(true);
  });

  it('refuses to write an id that is not one', async () => {
    const store = new ChangeFeedDeviceStore(await tempDir(), LOGIN);
    await expect(store.save({ version: 1, device: { id: 'a b', road: 'family', registeredAt: 1 } })).rejects.toThrow();
  });

  it('is listed by the diagnostics under the login’s hint, its content never read', async () => {
    const dir = await tempDir();
    const store = new ChangeFeedDeviceStore(dir, LOGIN);
    await store.save({ version: 1, device: { id: DEVICE, road: 'family', registeredAt: 1 } });
    const listing = await dataFolderFiles(await buildMinimal({ data_dir: dir }));
    const text = JSON.stringify(listing);
    expect(text).toContain(`${CHANGE_FEED_FOLDER}/12…u.json`);
    expect(text).not.toContain(LOGIN);
    expect(text).not.toContain(DEVICE);
    expect(listing).toMatchObject({ files: [{ path: `${CHANGE_FEED_FOLDER}/12…u.json`, bytes: (await readFile(store.path)).length }] });
  });
});
