// The data folder's lock (interface 8.2, 14.4). A lock whose process this one can see is judged by it: a
// zombie (killed, not reaped: a supervisor that never waits left every restart refused) holds nothing and
// is taken over at once, a running process is refused. A lock from another container, host or pid
// namespace is judged by its beat on a fake clock: the old code took a live one over at once (two
// messages to a teacher per press); now a moving beat is refused and only one that stood still for the
// grace is taken over. A holder whose lock was taken while it stalled is told so.
import { spawn, type ChildProcess } from 'node:child_process';
import { renameSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { BEAT_MS, DataDirInUseError, DataDirLock, GRACE_MS, LOCK_FILE, pidNamespace, takeDataDir } from '../../../src/store/lock.js';
import { silentLogger } from '../../../src/util/log.js';
import { FakeClock, settledOn } from '../../helpers/clock.js';
import { tempDir } from '../../helpers/temp.js';
import { writeJson } from '../../../src/store/files.js';

/** A field of /proc/<pid>/stat after the name: 0 is the state, 19 the start in ticks. */
async function statField(pid: number, index: number): Promise<string | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[index];
}

/**
 * A parent that never reaps: `sh` starts a short sleep in the background and becomes a long `sleep`,
 * which never waits, so the short one, once ended, stays a zombie while the long one lives. Both pids, the sleep stopped when the test ends.
 */
async function zombie(ctx: TestContext): Promise<{ parent: ChildProcess; zombiePid: number }> {
  const parent = spawn('sh', ['-c', 'sleep 0.05 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
  ctx.onTestFinished(() => {
    parent.kill('SIGKILL');
  });
  const zombiePid = await new Promise<number>((resolve) => parent.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
  await expect.poll(() => statField(zombiePid, 0), { interval: 5 }).toBe('Z');
  return { parent, zombiePid };
}

/** The lock a bridge of that pid wrote when it started, in this pid namespace (or `where` else). */
async function lockedBy(dataDir: string, pid: number, where: { host?: string; beat?: string } = {}): Promise<void> {
  const owner = {
    id: 'other',
    pid,
    startTicks: Number(await statField(pid, 19)),
    host: where.host ?? hostname(),
    pidNs: await pidNamespace(),
    startedAt: '2026-11-25T06:00:00.000Z',
    beat: where.beat ?? '2026-11-25T06:00:00.000Z',
  };
  await writeJson(join(dataDir, LOCK_FILE), owner, { durable: false });
}

const lockText = (dataDir: string): Promise<Record<string, unknown>> => readFile(join(dataDir, LOCK_FILE), 'utf8').then((t) => JSON.parse(t));

describe.runIf(process.platform === 'linux')('the data folder lock', () => {
  it('a lock held by a zombie (killed, not reaped) is taken over at once, and the log is told whose it was', async (ctx) => {
    const { zombiePid } = await zombie(ctx);
    const dataDir = await tempDir();
    await lockedBy(dataDir, zombiePid);

    const stale: string[] = [];
    const lock = new DataDirLock(dataDir);
    await lock.acquire({ stale: (owner) => stale.push(owner) });
    ctx.onTestFinished(() => lock.release());
    expect(stale).toEqual([expect.stringContaining(`pid ${zombiePid} `)]);
    expect(await lockText(dataDir)).toMatchObject({ pid: process.pid });
    expect(await new DataDirLock(dataDir).runningBridge()).toBeUndefined();
  });

  it('a lock held by a running process is still refused', async (ctx) => {
    const { parent } = await zombie(ctx);
    const dataDir = await tempDir();
    await lockedBy(dataDir, parent.pid!);

    await expect(new DataDirLock(dataDir).acquire()).rejects.toThrow(DataDirInUseError);
    expect(await new DataDirLock(dataDir).runningBridge()).toMatchObject({ pid: parent.pid });
  });

  describe('a holder this process cannot see (another container), on a fake clock', () => {
    const start = Date.parse('2026-11-25T06:00:00Z');

    it('whose beat moves is refused, and its lock stays as it was', async () => {
      const clock = new FakeClock(start);
      const dataDir = await tempDir();
      await lockedBy(dataDir, 1, { host: 'other-container', beat: new Date(start).toISOString() });
      // The other bridge renews its beat every BEAT_MS (written at once: the fake clock does not wait for the disk).
      const held = await lockText(dataDir);
      const renew = (): void => {
        clock.setTimer(() => {
          writeFileSync(join(dataDir, 'beat.tmp'), JSON.stringify({ ...held, beat: new Date(clock.now()).toISOString() }));
          renameSync(join(dataDir, 'beat.tmp'), join(dataDir, LOCK_FILE));
          renew();
        }, BEAT_MS);
      };
      renew();
      const watching: string[] = [];
      const refused = new DataDirLock(dataDir, clock).acquire({ watching: (owner) => watching.push(owner) });
      // Refused only on a moving beat: a beat that stood still for the grace would have been taken over.
      await expect(settledOn(clock, refused, BEAT_MS)).rejects.toThrow(/in use by another dziennik2mqtt \(pid 1 on other-container/);
      expect(watching).toEqual([expect.stringContaining('on other-container')]);
      expect(await lockText(dataDir)).toMatchObject({ id: 'other', host: 'other-container' });
      // Seen without watching: its beat is fresh.
      expect(await new DataDirLock(dataDir, clock).runningBridge()).toMatchObject({ pid: 1 });
    });

    it('whose beat stood still for the grace is taken over then, not before', async (ctx) => {
      const clock = new FakeClock(start);
      const dataDir = await tempDir();
      await lockedBy(dataDir, 1, { host: 'other-container', beat: new Date(start - 1_000).toISOString() });
      const stale: string[] = [];
      const lock = new DataDirLock(dataDir, clock);
      ctx.onTestFinished(() => lock.release());
      let from = 0;
      await settledOn(clock, lock.acquire({ watching: () => (from = clock.now()), stale: (owner) => stale.push(owner) }), GRACE_MS);
      expect(clock.now() - from).toBeGreaterThanOrEqual(GRACE_MS);
      expect(clock.now() - from).toBeLessThan(GRACE_MS + 2_000);
      expect(stale).toEqual([expect.stringContaining('on other-container')]);
      expect(await lockText(dataDir)).toMatchObject({ pid: process.pid, host: hostname() });
    });

    it('its holder renews the beat, and is told when another bridge took the lock over while it stalled', async () => {
      const clock = new FakeClock(start);
      const dataDir = await tempDir();
      const lost: string[] = [];
      const lock = new DataDirLock(dataDir, clock);
      await lock.acquire({ lost: (owner) => lost.push(owner) });
      const first = await lockText(dataDir);
      await settledOn(clock, new Promise((resolve) => setTimeout(resolve, 50)), 0);
      await clock.advance(BEAT_MS);
      await expect.poll(async () => (await lockText(dataDir)).beat).toBe(new Date(start + BEAT_MS).toISOString());
      expect(lost).toEqual([]);

      await lockedBy(dataDir, 1, { host: 'other-container' });
      await clock.advance(BEAT_MS);
      await expect.poll(() => lost).toEqual([expect.stringContaining('pid 1 on other-container')]);
      // It gives up nothing that is not its own.
      await lock.release();
      expect(await lockText(dataDir)).toMatchObject({ id: 'other' });
      expect(first.id).not.toBe('other');
    });
  });
});

describe('takeDataDir', () => {
  it("removes a download's parts under a linked downloads folder (the app's), at any depth, and keeps the saved files", async (ctx) => {
    const dataDir = await tempDir();
    const media = await tempDir();
    await symlink(media, join(dataDir, 'downloads'), 'dir');
    const folders = [join(media, 'ania'), join(media, 'ania', 'messages', '5')];
    for (const folder of folders) {
      await mkdir(folder, { recursive: true });
      await writeFile(join(folder, '.0123456789abcdef.part'), 'half a file');
      await writeFile(join(folder, 'plan.pdf'), 'a saved file');
    }
    const lock = await takeDataDir(dataDir, silentLogger());
    ctx.onTestFinished(() => lock.release());
    for (const folder of folders) expect((await readdir(folder)).filter((n) => n !== 'messages')).toEqual(['plan.pdf']);
  });
});
