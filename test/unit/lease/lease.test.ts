// The data folder's lease and identity (interface 8.2, 14.4, 15.3). A lock whose process this one can see is
// judged by it: a zombie (killed, not reaped) holds nothing and is taken over at once, a running process is
// refused. A lock from another container, host or pid namespace is judged by its beat on a clock that does
// not jump (here a fake one): a moving beat is refused, one that stood still for the grace is taken over
// with a higher fencing number. The wall clock jumping an hour either way changes neither: the old lock
// measured its grace with Date.now(), took a live bridge's lock 0.5 s after a +1 h jump, and waited an hour
// for a dead one after a -1 h jump. A holder whose lock was taken while it stalled is told so. The identity
// stays with its folder across restarts and moves.
import { spawn, type ChildProcess } from 'node:child_process';
import { renameSync, writeFileSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi, type TestContext } from 'vitest';
import { DataDirInUseError, Lease, LEASE_TIMING, LOCK_FILE, peekLease, pidNamespace } from '../../../src/lease/lease.js';
import { createLogger, silentLogger } from '../../../src/util/log.js';
import { FakeClock, settledOn } from '../../helpers/clock.js';
import { tempDir } from '../../helpers/temp.js';
import { writeJson } from '../../../src/util/files.js';

const { beatMs: BEAT_MS, graceMs: GRACE_MS } = LEASE_TIMING;
/** How often the lease looks at a lock it watches. */
const LOOK_MS = 500;

afterEach(() => {
  vi.useRealTimers();
});

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

/** The lock a bridge of that pid wrote when it started, in this pid namespace (or on `host` else). */
async function lockedBy(dataDir: string, pid: number, host = hostname()): Promise<Record<string, unknown>> {
  const owner = {
    id: 'other',
    place: 'elsewhere',
    run: 'r1',
    pid,
    startTicks: Number(await statField(pid, 19)),
    host,
    pidNs: await pidNamespace(),
    since: '2026-11-25T06:00:00.000Z',
    fence: 7,
    beat: 0,
  };
  await writeJson(join(dataDir, LOCK_FILE), owner, { durable: false });
  return owner;
}

const lockText = (dataDir: string): Promise<Record<string, unknown>> => readFile(join(dataDir, LOCK_FILE), 'utf8').then((t) => JSON.parse(t));

/** A logger whose lines (their messages) the test reads, and when on `clock` each came. */
function logged(clock?: FakeClock): { log: ReturnType<typeof createLogger>; lines: string[]; at: number[] } {
  const lines: string[] = [];
  const at: number[] = [];
  const write = (chunk: string): void => {
    for (const line of chunk.split('\n').filter(Boolean)) {
      lines.push((JSON.parse(line) as { msg: string }).msg);
      at.push(clock?.now() ?? 0);
    }
  };
  return { log: createLogger('info', { write }, { format: 'json' }), lines, at };
}

describe.runIf(process.platform === 'linux')('the data folder lease', () => {
  it('a lock held by a zombie (killed, not reaped) is taken over at once with a higher fence, and the log is told whose it was', async (ctx) => {
    const { zombiePid } = await zombie(ctx);
    const dataDir = await tempDir();
    await lockedBy(dataDir, zombiePid);
    const { log, lines } = logged();
    const lease = await Lease.take(dataDir, log);
    ctx.onTestFinished(() => lease.release());
    expect(lines.filter((l) => l.includes('taking its lock over'))).toHaveLength(1);
    expect(await lockText(dataDir)).toMatchObject({ pid: process.pid, fence: 8, run: lease.record.run });
    // This process's own lock is never a running bridge to itself.
    expect(await peekLease(dataDir)).toMatchObject({ running: false });
  });

  it('a lock held by a running process is refused, and diagnostics see it running', async (ctx) => {
    const { parent } = await zombie(ctx);
    const dataDir = await tempDir();
    await lockedBy(dataDir, parent.pid!);
    await expect(Lease.take(dataDir, silentLogger())).rejects.toThrow(DataDirInUseError);
    expect(await peekLease(dataDir)).toMatchObject({ running: true, record: { pid: parent.pid, fence: 7 } });
  });

  describe('a holder this process cannot see (another container), on a monotonic clock the test drives', () => {
    /** The other bridge renews its lock every beat of `clock` (written at once: the fake clock does not wait for the disk). */
    function beating(dataDir: string, clock: FakeClock, held: Record<string, unknown>): void {
      let beat = 0;
      const renew = (): void => {
        clock.setTimer(() => {
          writeFileSync(join(dataDir, 'beat.tmp'), JSON.stringify({ ...held, beat: ++beat }));
          renameSync(join(dataDir, 'beat.tmp'), join(dataDir, LOCK_FILE));
          renew();
        }, BEAT_MS);
      };
      renew();
    }

    it.for([+1, -1])('whose beat moves is refused, and its lock stays, whatever the wall clock does (%i h)', async (hours) => {
      const clock = new FakeClock(0);
      const dataDir = await tempDir();
      beating(dataDir, clock, await lockedBy(dataDir, 1, 'other-container'));
      vi.useFakeTimers({ toFake: ['Date'] });
      const { log, lines } = logged();
      const refused = Lease.take(dataDir, log, { clock });
      refused.catch(() => undefined);
      // The wall clock jumps an hour while the lock is watched: 0.5 s of the watch later, nothing is taken.
      await settledOn(clock, new Promise((resolve) => setTimeout(resolve, 30)), 0);
      vi.setSystemTime(Date.now() + hours * 3_600_000);
      await clock.advance(500);
      expect(lines.filter((l) => l.includes('taking its lock over'))).toEqual([]);
      await expect(settledOn(clock, refused, BEAT_MS)).rejects.toThrow(
        /in use by another dziennik2mqtt \(installation other on other-container, pid 1/,
      );
      expect(lines.filter((l) => l.includes('waiting to see whether it still runs'))).toHaveLength(1);
      expect(await lockText(dataDir)).toMatchObject({ id: 'other', host: 'other-container' });
    });

    it.for([+1, -1])('whose beat stood still for the grace is taken over then, not before nor an hour later (%i h)', async (hours, ctx) => {
      const clock = new FakeClock(0);
      const dataDir = await tempDir();
      await lockedBy(dataDir, 1, 'other-container');
      vi.useFakeTimers({ toFake: ['Date'] });
      const { log, lines, at } = logged(clock);
      const taking = Lease.take(dataDir, log, { clock });
      await settledOn(clock, new Promise((resolve) => setTimeout(resolve, 30)), 0);
      vi.setSystemTime(Date.now() + hours * 3_600_000);
      const lease = await settledOn(clock, taking, LOOK_MS);
      ctx.onTestFinished(() => lease.release());
      const watched = at[lines.findIndex((l) => l.includes('waiting to see whether it still runs'))]!;
      const taken = at[lines.findIndex((l) => l.includes('taking its lock over'))]!;
      expect(taken - watched).toBeGreaterThanOrEqual(GRACE_MS);
      expect(taken - watched).toBeLessThan(GRACE_MS + 2_000);
      expect(await lockText(dataDir)).toMatchObject({ pid: process.pid, host: hostname(), fence: 8 });
    });

    it('its holder renews the beat, and is told when another bridge took the lock over while it stalled', async () => {
      const clock = new FakeClock(0);
      const dataDir = await tempDir();
      const lost: string[] = [];
      const lease = await Lease.take(dataDir, silentLogger(), { clock, lost: (why) => lost.push(why) });
      const first = await lockText(dataDir);
      await clock.advance(BEAT_MS);
      await expect.poll(async () => (await lockText(dataDir)).beat).toBe(1);
      expect(lost).toEqual([]);

      await lockedBy(dataDir, 1, 'other-container');
      await clock.advance(BEAT_MS);
      await expect.poll(() => lost).toEqual([expect.stringContaining('(installation other on other-container, pid 1, since')]);
      // It gives up nothing that is not its own.
      await lease.release();
      expect(await lockText(dataDir)).toMatchObject({ run: 'r1' });
      expect(first.run).not.toBe('r1');
    });
  });

  it('the identity stays with its folder: across starts, moved or copied (until a bridge runs with it elsewhere)', async () => {
    const dataDir = await tempDir();
    const { log, lines } = logged();
    const first = await Lease.take(dataDir, log);
    const id = first.record.id;
    expect(first.clientId).toBe(`dziennik2mqtt_${id}`);
    await first.release();
    const again = await Lease.take(dataDir, log);
    expect(again.record).toMatchObject({ id, place: first.record.place });
    await again.release();
    expect(lines.filter((l) => l.includes('moved, copied or restored'))).toEqual([]);

    // A copy keeps the id (a move looks the same), and says so; it takes one of its own when told of a twin (claim.ts).
    const copy = join(await tempDir(), 'data');
    await cp(dataDir, copy, { recursive: true });
    const copied = await Lease.take(copy, log);
    expect(copied.record.id).toBe(id);
    expect(copied.record.place).not.toBe(first.record.place);
    expect(lines.filter((l) => l.includes('moved, copied or restored'))).toHaveLength(1);
    await copied.newIdentity();
    expect(copied.record.id).not.toBe(id);
    await copied.release();
    expect((await Lease.take(copy, log)).record.id).toBe(copied.record.id);
  });
});

describe('Lease.take', () => {
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
    const lease = await Lease.take(dataDir, silentLogger());
    ctx.onTestFinished(() => lease.release());
    for (const folder of folders) expect((await readdir(folder)).filter((n) => n !== 'messages')).toEqual(['plan.pdf']);
  });
});
