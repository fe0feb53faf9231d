// One bridge per data folder (interface 8.2): two bridges on one data_dir would both send a command's
// message and each keep its own journal. The lock is a file naming the running bridge (its pid, the
// moment its process started, its host); a lock whose process is gone (a SIGKILL, a power cut) is
// taken over at once, so Docker's or the watchdog's restart is never blocked. The kernel's process
// start time tells a live owner from a new process that got the dead one's pid (common in containers),
// and its state a dead one that its parent has not reaped yet (a zombie) from a running one.
import { mkdir, readFile, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { removeLeftoverTemps, syncFolder, writeSynced } from './files.js';
import { removeLeftoverParts } from './downloads.js';
import type { Logger } from '../util/log.js';

export const LOCK_FILE = 'bridge.lock';

/** Another bridge runs on this data folder. */
export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
}

const ownerSchema = z.object({
  pid: z.number().int().positive(),
  /** The process's start in clock ticks since boot (/proc/<pid>/stat field 22); absent off Linux. */
  startTicks: z.number().optional(),
  host: z.string(),
  startedAt: z.string(),
});

type Owner = z.infer<typeof ownerSchema>;

export class DataDirLock {
  private held = false;

  constructor(private readonly dataDir: string) {}

  private get path(): string {
    return join(this.dataDir, LOCK_FILE);
  }

  /**
   * Takes the lock, or throws DataDirInUseError naming the folder and the running bridge. A lock left
   * by a process that is gone is replaced; `onStale` is told about it.
   */
  async acquire(onStale?: (owner: string) => void): Promise<void> {
    await mkdir(this.dataDir, { recursive: true, mode: 0o700 });
    const me: Owner = {
      pid: process.pid,
      startTicks: (await processStat(process.pid))?.startTicks,
      host: hostname(),
      startedAt: new Date().toISOString(),
    };
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await writeSynced(this.path, `${JSON.stringify(me)}\n`);
        await syncFolder(this.dataDir);
        this.held = true;
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const owner = await this.owner();
      if (owner !== undefined && (await isAlive(owner))) {
        throw new DataDirInUseError(
          `data_dir ${this.dataDir} is in use by another dziennik2mqtt (pid ${owner.pid} on ${owner.host}, running since ${owner.startedAt}); ` +
            'stop that bridge first, or give this one a data_dir of its own',
        );
      }
      onStale?.(owner === undefined ? 'an unreadable lock' : `pid ${owner.pid} on ${owner.host}, started ${owner.startedAt}`);
      await unlink(this.path).catch(() => undefined);
    }
    throw new DataDirInUseError(`data_dir ${this.dataDir}: another dziennik2mqtt is starting on it at the same moment`);
  }

  /** Gives the lock up (only if this bridge holds it). */
  async release(): Promise<void> {
    if (!this.held) return;
    this.held = false;
    const owner = await this.owner();
    if (owner?.pid === process.pid) await unlink(this.path).catch(() => undefined);
  }

  /** The bridge running on this folder now (another process), if any: its pid and since when. */
  async runningBridge(): Promise<{ pid: number; startedAt: string } | undefined> {
    const owner = await this.owner();
    return owner !== undefined && (await isAlive(owner)) ? { pid: owner.pid, startedAt: owner.startedAt } : undefined;
  }

  private async owner(): Promise<Owner | undefined> {
    const text = await readFile(this.path, 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    try {
      const parsed = ownerSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }
}

/**
 * Whether the lock's process still runs. This process is never the owner it finds (a container's
 * bridge often gets the same pid after a restart); a lock from another host cannot be checked and
 * is taken over, so that a new container on a shared volume is never blocked by a dead one.
 */
async function isAlive(owner: Owner): Promise<boolean> {
  if (owner.pid === process.pid || owner.host !== hostname()) return false;
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
export async function takeDataDir(dataDir: string, log: Logger): Promise<DataDirLock> {
  const lock = new DataDirLock(dataDir);
  await lock.acquire((owner) => log.info({ owner }, 'the last bridge on this data_dir stopped without cleaning up; taking its lock over'));
  const leftovers = await removeLeftoverTemps(dataDir);
  if (leftovers.length > 0) log.info({ removed: leftovers }, 'removed temporary files of an unfinished write of the last run');
  const parts = await removeLeftoverParts(dataDir);
  if (parts > 0) log.info({ removed: parts }, 'removed unfinished downloads of the last run');
  return lock;
}
