// The data folder's lock (interface 8.2) against a bridge killed but not yet reaped. After a SIGKILL the
// process stays a zombie until its parent waits for it; a supervisor that never does left every restart
// refused ("in use by another dziennik2mqtt (pid N)"). A zombie holds nothing: its lock is taken over at once.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { DataDirInUseError, DataDirLock, LOCK_FILE } from '../../../src/store/lock.js';
import { tempDir } from '../../helpers/temp.js';

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

/** The lock a bridge of that pid wrote when it started. */
async function lockedBy(dataDir: string, pid: number): Promise<void> {
  const owner = { pid, startTicks: Number(await statField(pid, 19)), host: hostname(), startedAt: '2026-11-25T06:00:00.000Z' };
  await writeFile(join(dataDir, LOCK_FILE), `${JSON.stringify(owner)}\n`);
}

describe.runIf(process.platform === 'linux')('the data folder lock', () => {
  it('a lock held by a zombie (killed, not reaped) is taken over at once, and the log is told whose it was', async (ctx) => {
    const { zombiePid } = await zombie(ctx);
    const dataDir = await tempDir();
    await lockedBy(dataDir, zombiePid);

    const stale: string[] = [];
    await new DataDirLock(dataDir).acquire((owner) => stale.push(owner));
    expect(stale).toEqual([expect.stringContaining(`pid ${zombiePid} `)]);
    expect(JSON.parse(await readFile(join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid });
    expect(await new DataDirLock(dataDir).runningBridge()).toBeUndefined();
  });

  it('a lock held by a running process is still refused', async (ctx) => {
    const { parent } = await zombie(ctx);
    const dataDir = await tempDir();
    await lockedBy(dataDir, parent.pid!);

    await expect(new DataDirLock(dataDir).acquire()).rejects.toThrow(DataDirInUseError);
    expect(await new DataDirLock(dataDir).runningBridge()).toMatchObject({ pid: parent.pid });
  });
});
