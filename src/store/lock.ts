// One bridge per data folder (interface 8.2, 14.4): two bridges on one data_dir would both send a
// command's message and each keep its own journal. The lock is a file naming the running bridge (a run
// id, its pid, the moment its process started, its host and pid namespace) and a beat the holder renews
// every BEAT_MS. Where the holder's process can be seen (the same host and pid namespace) it is judged
// by it: a lock whose process is gone (a SIGKILL, a power cut) is taken over at once, so Docker's or the
// watchdog's restart is never blocked; the kernel's process start time tells a live owner from a new
// process that got the dead one's pid, and its state a zombie from a running one. Where it cannot (another
// container on the same volume, another pid namespace or host), the beat decides: a starting bridge
// watches the lock for GRACE_MS, refuses as soon as the beat moves, and takes over a lock whose beat
// stood still all that time. Only the beat's moving counts, never its time against this machine's clock,
// so a skewed clock cannot make a live bridge look dead.
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readFile, readlink, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { removeLeftoverTemps, syncFolder, writeFileAtomic, writeSynced } from './files.js';
import { peekStored } from './stored.js';
import { systemClock, type Clock, type Timer } from '../util/clock.js';
import type { Logger } from '../util/log.js';

export const LOCK_FILE = 'bridge.lock';
/** How often the holder renews its beat. */
export const BEAT_MS = 5_000;
/** How long a beat must stand still before its lock is taken over (three beats missed). */
export const GRACE_MS = 15_000;
/** How often a starting bridge looks at a lock it watches. */
const LOOK_MS = 500;

/** Another bridge runs on this data folder. */
export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
}

const ownerSchema = z.object({
  /** This run's random id: a lock rewritten by another run is not ours any more. */
  id: z.string().optional(),
  pid: z.number().int().positive(),
  /** The process's start in clock ticks since boot (/proc/<pid>/stat field 22); absent off Linux. */
  startTicks: z.number().optional(),
  host: z.string(),
  /** The machine's boot and pid namespace (pidNamespace()), absent off Linux: a pid means something only inside it. */
  pidNs: z.string().optional(),
  startedAt: z.string(),
  /** The holder's last beat (ISO time); every renewal changes it. */
  beat: z.string().optional(),
});

type Owner = z.infer<typeof ownerSchema>;

export class DataDirLock {
  private me: Owner | undefined;
  private beating: Timer | undefined;

  constructor(
    private readonly dataDir: string,
    private readonly clock: Clock = systemClock,
  ) {}

  private get path(): string {
    return join(this.dataDir, LOCK_FILE);
  }

  /**
   * Takes the lock, or throws DataDirInUseError naming the folder and the running bridge. A lock left
   * by a process that is gone is replaced; `on.stale` is told about it, `on.watching` that the lock's
   * beat is being watched first, and `on.lost` when another bridge has taken the lock over since (this
   * one stalled for longer than GRACE_MS).
   */
  async acquire(on: { stale?: (owner: string) => void; watching?: (owner: string) => void; lost?: (owner: string) => void } = {}): Promise<void> {
    await mkdir(this.dataDir, { recursive: true, mode: 0o700 });
    const me: Owner = {
      id: randomBytes(6).toString('hex'),
      pid: process.pid,
      startTicks: (await processStat(process.pid))?.startTicks,
      host: hostname(),
      pidNs: await pidNamespace(),
      startedAt: new Date(this.clock.now()).toISOString(),
    };
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await writeSynced(this.path, this.text({ ...me, beat: new Date(this.clock.now()).toISOString() }));
        await syncFolder(this.dataDir);
        this.me = me;
        this.beat(on.lost);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const owner = await this.owner();
      const seen = owner === undefined ? undefined : await isAlive(owner, me.pidNs);
      if (seen === true || (seen === undefined && (await this.beats(owner, on.watching)))) throw this.inUse((await this.owner()) ?? owner);
      on.stale?.(named(owner));
      await unlink(this.path).catch(() => undefined);
    }
    throw new DataDirInUseError(`data_dir ${this.dataDir}: another dziennik2mqtt is starting on it at the same moment`);
  }

  private inUse(owner: Owner | undefined): DataDirInUseError {
    const who = owner === undefined ? 'its lock is being written' : `pid ${owner.pid} on ${owner.host}, running since ${owner.startedAt}`;
    return new DataDirInUseError(
      `data_dir ${this.dataDir} is in use by another dziennik2mqtt (${who}); stop that bridge first, or give this one a data_dir of its own`,
    );
  }

  /**
   * Watches a lock whose process cannot be seen: true as soon as its beat (or anything in it) moves,
   * false once it stood still for GRACE_MS. A lock that went meanwhile counts as stale: taken at once.
   */
  private async beats(owner: Owner | undefined, watching?: (owner: string) => void): Promise<boolean> {
    const first = await readFile(this.path, 'utf8').catch(() => undefined);
    if (first === undefined) return false;
    watching?.(named(owner));
    const until = this.clock.now() + GRACE_MS;
    // The clock's timers do not keep the process alive, and nothing else does yet.
    const alive = setInterval(() => undefined, LOOK_MS);
    try {
      for (;;) {
        await this.clock.sleep(LOOK_MS);
        // Still only when a look begun after the grace finds it so: a slow read cannot outlast a moving beat.
        const ended = this.clock.now() >= until;
        const now = await readFile(this.path, 'utf8').catch(() => undefined);
        if (now === undefined) return false;
        if (now !== first) return true;
        if (ended) return false;
      }
    } finally {
      clearInterval(alive);
    }
  }

  /** Renews the beat every BEAT_MS while the lock is held; stops, telling `lost`, once another run's id is in it. */
  private beat(lost?: (owner: string) => void): void {
    this.beating = this.clock.setTimer(() => {
      void this.renew().then((taken) => {
        if (taken === undefined) this.beat(lost);
        else if (this.me) {
          this.me = undefined;
          lost?.(named(taken));
        }
      });
    }, BEAT_MS);
  }

  /** Writes a new beat (not synced: a beat lost in a power cut is stale anyway); resolves to the owner that took the lock over, if one did. */
  private async renew(): Promise<Owner | undefined> {
    const me = this.me;
    if (me === undefined) return undefined;
    const owner = await this.owner();
    if (owner !== undefined && owner.id !== me.id) return owner;
    await writeFileAtomic(this.path, this.text({ ...me, beat: new Date(this.clock.now()).toISOString() }), { durable: false }).catch(() => undefined);
    return undefined;
  }

  private text(owner: Owner): string {
    return `${JSON.stringify(owner)}\n`;
  }

  /** Gives the lock up (only if this bridge holds it). */
  async release(): Promise<void> {
    const me = this.me;
    this.beating?.cancel();
    this.me = undefined;
    if (me === undefined) return;
    const owner = await this.owner();
    if (owner?.id === me.id) await unlink(this.path).catch(() => undefined);
  }

  /**
   * The bridge running on this folder now (another process), if any: its pid and since when. Without
   * watching (a look, for `diagnostics`): a holder that cannot be seen runs while its beat is under GRACE_MS old.
   */
  async runningBridge(): Promise<{ pid: number; startedAt: string } | undefined> {
    const owner = await this.owner();
    if (owner === undefined) return undefined;
    const seen = await isAlive(owner, await pidNamespace());
    const running = seen ?? (owner.beat !== undefined && this.clock.now() - Date.parse(owner.beat) < GRACE_MS);
    return running ? { pid: owner.pid, startedAt: owner.startedAt } : undefined;
  }

  private owner(): Promise<Owner | undefined> {
    return peekStored(this.path, ownerSchema);
  }
}

/** How the log names a lock's owner. */
function named(owner: Owner | undefined): string {
  return owner === undefined ? 'an unreadable lock' : `pid ${owner.pid} on ${owner.host}, started ${owner.startedAt}`;
}

/**
 * Whether the lock's process still runs, when this process can tell: undefined when it cannot (a lock
 * from another host or pid namespace, or off Linux), which the beat then decides. This process is never
 * the owner it finds (a container's bridge often gets the same pid after a restart).
 */
async function isAlive(owner: Owner, pidNs: string | undefined): Promise<boolean | undefined> {
  if (owner.host !== hostname() || owner.pidNs === undefined || owner.pidNs !== pidNs) return undefined;
  if (owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = await processStat(owner.pid);
  // A killed bridge whose parent (a supervisor, a shell) has not reaped it yet still answers kill(pid, 0)
  // as a zombie, maybe for good: it holds nothing any more.
  if (stat?.state === 'Z' || stat?.state === 'X') return false;
  const ticks = stat?.startTicks;
  return owner.startTicks === undefined || ticks === undefined || ticks === owner.startTicks;
}

/**
 * Where a pid means this process: this boot of this machine (two machines may share a host name, as
 * Raspberry Pis do, and a namespace's number) and this process's pid namespace (Linux); undefined elsewhere.
 */
export async function pidNamespace(): Promise<string | undefined> {
  const boot = await readFile('/proc/sys/kernel/random/boot_id', 'utf8').catch(() => undefined);
  const ns = await readlink('/proc/self/ns/pid').catch(() => undefined);
  return boot && ns && `${boot.trim()} ${ns}`;
}

/**
 * The process's state (field 3: R, S, Z for a zombie...) and its start time in clock ticks since boot
 * (field 22), which a reused pid does not share; undefined off Linux or when the process is gone.
 */
async function processStat(pid: number): Promise<{ state: string; startTicks: number | undefined } | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (stat === undefined) return undefined;
  // The name (field 2) is in parentheses and may hold spaces: count the fields after its end.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[19]);
  return { state: fields[0] ?? '', startTicks: Number.isFinite(ticks) ? ticks : undefined };
}

/**
 * Takes the data folder for this process: its lock first, then what the last run left unfinished, a
 * cut-off write's temporary file or a download's part (also in a linked downloads folder). Nothing
 * writes or downloads yet.
 */
export async function takeDataDir(dataDir: string, log: Logger, lost?: (owner: string) => void): Promise<DataDirLock> {
  const lock = new DataDirLock(dataDir);
  await lock.acquire({
    stale: (owner) => log.info({ owner }, 'the last bridge on this data_dir stopped without cleaning up; taking its lock over'),
    watching: (owner) =>
      log.info(
        { owner, wait_s: GRACE_MS / 1000 },
        'data_dir is locked by a bridge this one cannot see (another container or host): waiting to see whether it still runs',
      ),
    lost,
  });
  // removeLeftoverTemps follows no link: a linked downloads folder (the app's) is walked from its link.
  const linked = (await lstat(join(dataDir, 'downloads')).catch(() => undefined))?.isSymbolicLink() === true;
  const leftovers = [...(await removeLeftoverTemps(dataDir)), ...(linked ? await removeLeftoverTemps(dataDir, 'downloads') : [])];
  if (leftovers.length > 0) log.info({ removed: leftovers }, 'removed temporary files of an unfinished write or download of the last run');
  return lock;
}
