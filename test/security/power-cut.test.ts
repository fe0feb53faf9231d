// Files in data_dir survive a power cut (issue 28, item 7). A rename is only durable once the folder
// holding it is synced: before, a power cut could bring back the old cookie jar or seen memory (and
// with it old events fired again), or leave a temporary file in its place. Every writer goes through
// write, fsync, rename, fsync of the folder; the temporary files a crash leaves are removed at start.
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import type * as FsPromises from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { DownloadStore } from '../../src/portal/attachments/saved.js';
import { saveBody } from '../helpers/downloads.js';
import { writeFileAtomic } from '../../src/util/files.js';
import { waitUntil } from '../helpers/mqtt.js';
import { ProcessBridge } from '../helpers/security-process.js';

/** What the writers asked of the file system, in order (paths as given). */
const fsCalls = vi.hoisted(() => [] as string[]);

vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof FsPromises>();
  const open: typeof fs.open = async (path, ...rest) => {
    const handle = await fs.open(path, ...rest);
    const sync = handle.sync.bind(handle);
    handle.sync = () => {
      fsCalls.push(`sync ${String(path)}`);
      return sync();
    };
    return handle;
  };
  const rename: typeof fs.rename = (from, to) => {
    fsCalls.push(`rename ${String(from)} -> ${String(to)}`);
    return fs.rename(from, to);
  };
  const link: typeof fs.link = (from, to) => {
    fsCalls.push(`link ${String(from)} -> ${String(to)}`);
    return fs.link(from, to);
  };
  return { ...fs, default: { ...fs, open, rename, link }, open, rename, link };
});

async function tempDir(ctx: { onTestFinished(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'd2m-power-'));
  ctx.onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('writes to data_dir', () => {
  it('a kept file: its bytes synced, then renamed, then its folder synced', async (ctx) => {
    const dir = await tempDir(ctx);
    const path = join(dir, 'sessions', '1234567u.json');
    fsCalls.length = 0;
    await writeFileAtomic(path, '{"version":1}\n');
    const renameAt = fsCalls.findIndex((c) => c.startsWith('rename ') && c.endsWith(` -> ${path}`));
    expect(renameAt).toBeGreaterThan(0);
    const temp = /^rename (.*) -> /.exec(fsCalls[renameAt]!)![1]!;
    expect(fsCalls.slice(0, renameAt)).toContain(`sync ${temp}`);
    expect(fsCalls.slice(renameAt + 1)).toContain(`sync ${dirname(path)}`);
  });

  it('a saved download: its folder synced once the file has its name', async (ctx) => {
    const dir = await tempDir(ctx);
    const store = new DownloadStore({ dataDir: dir, child: 'ania' });
    fsCalls.length = 0;
    const saved = await saveBody(store, Buffer.from('%PDF-1.4 plan lekcji'), 'plan.pdf', 'plik', 'homework-1');
    const placedAt = fsCalls.findIndex((c) => c.endsWith(` -> ${saved.path}`));
    expect(placedAt).toBeGreaterThan(0);
    expect(fsCalls.slice(placedAt + 1)).toContain(`sync ${store.dir}`);
  });

  it('the bin removes the temporary files a crash left anywhere in data_dir at start, and nothing else', async (ctx) => {
    const leftovers = [
      'sessions/1234567u.json.4242.0123456789ab.tmp',
      'seen/ania.json.17.abcdefabcdef.tmp',
      'http-token.99.aaaaaaaaaaaa.tmp',
      'downloads/ania/.0123456789abcdef.part',
    ];
    const kept = ['sessions/notes.tmp', 'downloads/ania/plan.pdf'];
    let dataDir = '';
    const bridge = await ProcessBridge.start(async (_roots, _sim, dir) => {
      dataDir = dir;
      for (const name of [...leftovers, ...kept]) {
        await mkdir(dirname(join(dir, name)), { recursive: true });
        await writeFile(join(dir, name), 'half written');
      }
    });
    ctx.onTestFinished(() => bridge.stop());
    await waitUntil(() => bridge.process.logged(/dziennik2mqtt started/).length > 0 || !bridge.process.running, 'the start', 60_000);
    expect(bridge.process.running).toBe(true);
    const present = async (name: string): Promise<boolean> =>
      (await readdir(dirname(join(dataDir, name))).catch(() => [] as string[])).includes(name.split('/').at(-1)!);
    for (const name of leftovers) expect(await present(name), name).toBe(false);
    for (const name of kept) expect(await present(name), name).toBe(true);
    expect(bridge.process.logged(/removed temporary files/)).toHaveLength(1);
  }, 180_000);
});
