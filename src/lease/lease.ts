// One bridge, once (interface 8.2, 14.4, 15.3). An installation is its data folder: `installation.json` holds
// its id (its MQTT client id too) and its place (a hash of the folder's path, inode and birth), by which a copy
// is told apart (claim.ts). Who acts for the folder and its base topic is one lease, one record (as a
// Kubernetes Lease): the installation, this run, host and pid, a fencing number each new holder raises, and
// a beat renewed every beatMs in `bridge.lock` (made exclusively) and on the broker (claim.ts). A lease still
// for graceMs of the monotonic clock is dead, so a wall-clock jump neither takes a live one nor keeps a dead
// one; where the holder's process can be seen (same host, boot, pid namespace) the process decides at once.
import { createHash, randomBytes } from 'node:crypto';
import { lstat, mkdir, readFile, readlink, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import * as z from 'zod';
import { removeLeftoverTemps, syncFolder, writeFileAtomic, writeJson, writeSynced } from '../util/files.js';
import { readStored } from '../util/stored.js';
import { monotonicClock, type Clock, type Timer } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { parsedJson } from '../util/text.js';

export const LOCK_FILE = 'bridge.lock';
export const IDENTITY_FILE = 'installation.json';
/** One beat and one grace, for the folder and the base topic alike: a lease still for the grace (three beats) is dead. */
export const LEASE_TIMING = { beatMs: 5_000, graceMs: 15_000 };
type LeaseOptions = { lost?: (why: string) => void; clock?: Clock; timing?: typeof LEASE_TIMING };
const LOOK_MS = 500; // how often a candidate looks at a lock file it watches

/** Another bridge runs on this data folder. */
export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
}

/** Who holds a lease: the installation and its folder's place, the run (this start), host and pid. */
const holderSchema = z.object({ id: z.string(), place: z.string().default(''), run: z.string().default(''), host: z.string(), pid: z.number() });
// Since when; the fence each new holder raises; the beats counted (`at` the last by the holder's wall clock, for a person only);
// `released` at a clean stop; `pidNs` and `startTicks` in the folder's record, where its pid means a process.
const recordSchema = holderSchema.extend({
  since: z.string(),
  fence: z.int().nonnegative().catch(0),
  beat: z.number().catch(0),
  at: z.string().optional(),
  released: z.boolean().optional(),
  pidNs: z.string().optional(),
  startTicks: z.number().optional(),
});
export type LeaseRecord = z.output<typeof recordSchema>;

/** A record as read from the lock file or the broker; undefined for anything else. */
export function readRecord(text: Buffer | string | undefined): LeaseRecord | undefined {
  return text === undefined || text.length > 2048 ? undefined : recordSchema.safeParse(parsedJson(text.toString())).data;
}

/** How a log line and `problem` name a holder. */
export const describeHolder = (r: LeaseRecord | undefined): string =>
  r === undefined ? 'an unreadable lock' : `installation ${r.id} on ${r.host}, pid ${r.pid}, since ${r.since}`;

/** What `diagnostics` shows of a lease: its holder, its beat's age (this machine's clock against the holder's) and the fencing number. */
export function leaseFacts(r: LeaseRecord): { holder: string; beat_age_s: number | null; fence: number } {
  return { holder: describeHolder(r), beat_age_s: r.at === undefined ? null : Math.round((Date.now() - Date.parse(r.at)) / 1000), fence: r.fence };
}

/** A record's beat watched on a monotonic clock: see() is true when it changed; still() once unchanged for the grace; restart() for time that cannot count. */
export function watched(clock: Clock, graceMs: number) {
  let seen: string | undefined;
  let since = clock.now();
  return {
    see(text: string | undefined): boolean {
      const changed = text !== seen;
      if (changed) [seen, since] = [text, clock.now()];
      return changed;
    },
    restart: (): void => void (since = clock.now()),
    still: (): boolean => clock.now() - since >= graceMs,
  };
}

/** The data folder's lease and identity, held by this process from Lease.take() to release(); `onBeat`: told at every beat (the claim's renewal). */
export class Lease {
  private timer: Timer | undefined;
  readonly onBeat = new Set<() => void>();

  private constructor(
    readonly dataDir: string,
    private readonly log: Logger,
    readonly clock: Clock,
    readonly timing: typeof LEASE_TIMING,
    public record: LeaseRecord,
  ) {}

  /**
   * Takes the folder (then removes what the last run left unfinished: a write's temporary file, a download's part),
   * or throws DataDirInUseError naming the running bridge. `lost`: another took it over since (this one stalled).
   */
  static async take(dataDir: string, log: Logger, options: LeaseOptions = {}): Promise<Lease> {
    const { clock = monotonicClock, timing = LEASE_TIMING, lost = () => undefined } = options;
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    const me = { ...(await identity(dataDir, log)), run: randomBytes(6).toString('hex'), host: hostname(), pid: process.pid };
    const lease = new Lease(dataDir, log, clock, timing, { ...me, since: new Date().toISOString(), fence: 1, beat: 0 });
    await lease.acquire(lost);
    // removeLeftoverTemps follows no link: a linked downloads folder (the app's) is walked from its link.
    const linked = (await lstat(join(dataDir, 'downloads')).catch(() => undefined))?.isSymbolicLink() === true;
    const leftovers = [...(await removeLeftoverTemps(dataDir)), ...(linked ? await removeLeftoverTemps(dataDir, 'downloads') : [])];
    if (leftovers.length > 0) log.info({ removed: leftovers }, 'removed temporary files of an unfinished write or download of the last run');
    return lease;
  }

  private get path(): string {
    return join(this.dataDir, LOCK_FILE);
  }

  get clientId(): string {
    return `dziennik2mqtt_${this.record.id}`;
  }

  private async acquire(lost: (why: string) => void): Promise<void> {
    const pidNs = await pidNamespace();
    this.record = { ...this.record, pidNs, startTicks: (await processStat(process.pid))?.startTicks };
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await writeSynced(this.path, `${JSON.stringify(this.record)}\n`);
        await syncFolder(this.dataDir);
        return this.beat(lost);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const owner = await lockOf(this.dataDir);
      const seen = owner && (await isAlive(owner, pidNs));
      if (seen === true || (seen === undefined && (await this.beats(owner)))) {
        const who = `another dziennik2mqtt (${describeHolder((await lockOf(this.dataDir)) ?? owner)})`;
        throw new DataDirInUseError(`data_dir ${this.dataDir} is in use by ${who}; stop that bridge first, or give this one a data_dir of its own`);
      }
      this.log.info({ owner: describeHolder(owner) }, 'the last bridge on this data_dir stopped without cleaning up; taking its lock over');
      this.record.fence = Math.max(this.record.fence, (owner?.fence ?? 0) + 1);
      await unlink(this.path).catch(() => undefined);
    }
    throw new DataDirInUseError(`data_dir ${this.dataDir}: another dziennik2mqtt is starting on it at the same moment`);
  }

  /** Watches a lock whose process cannot be seen: true as soon as it changes, false once it stood still for the grace or went. */
  private async beats(owner: LeaseRecord | undefined): Promise<boolean> {
    const watch = watched(this.clock, this.timing.graceMs);
    if (!watch.see(await readFile(this.path, 'utf8').catch(() => undefined))) return false;
    this.log.info(
      { owner: describeHolder(owner), wait_s: this.timing.graceMs / 1000 },
      'data_dir is locked by a bridge this one cannot see (another container or host): waiting to see whether it still runs',
    );
    // The clock's timers do not keep the process alive, and nothing else does yet.
    const alive = setInterval(() => undefined, LOOK_MS);
    try {
      for (;;) {
        await this.clock.sleep(LOOK_MS);
        // Still only when a look begun after the grace finds it so: a slow read cannot outlast a moving beat.
        const still = watch.still();
        const now = await readFile(this.path, 'utf8').catch(() => undefined);
        const moved = now !== undefined && watch.see(now);
        if (moved || now === undefined || still) return moved;
      }
    } finally {
      clearInterval(alive);
    }
  }

  /** Renews the beat every beatMs, the folder's then the base topic's (onBeat); stops, telling `lost`, once another run is in the lock. */
  private beat(lost: (why: string) => void): void {
    this.timer = this.clock.setTimer(async () => {
      // The next beat first: they keep their pace however long a look at the disk takes.
      this.beat(lost);
      const owner = await lockOf(this.dataDir);
      if (this.timer === undefined) return;
      if (owner !== undefined && owner.run !== this.record.run) {
        void this.release();
        return lost(`another dziennik2mqtt (${describeHolder(owner)}) took this data_dir's lock over while this one stalled; stopping`);
      }
      this.record = { ...this.record, beat: this.record.beat + 1, at: new Date().toISOString() };
      for (const renew of this.onBeat) renew();
      // Not synced: a beat lost in a power cut is a stale one anyway.
      await writeFileAtomic(this.path, `${JSON.stringify(this.record)}\n`, { durable: false }).catch(() => undefined);
    }, this.timing.beatMs);
  }

  /** Another bridge runs with this identity elsewhere: this folder is a copy of its, and takes an identity of its own. */
  async newIdentity(): Promise<void> {
    this.record = { ...this.record, id: randomBytes(4).toString('hex') };
    await saveIdentity(this.dataDir, this.record);
  }

  /** Gives the lock up (only if this process holds it). */
  async release(): Promise<void> {
    this.timer?.cancel();
    this.timer = undefined;
    this.onBeat.clear();
    if ((await lockOf(this.dataDir))?.run === this.record.run) await unlink(this.path).catch(() => undefined);
  }
}

const identitySchema = z.object({ id: z.string().regex(/^[0-9a-f]{8}$/), place: z.string(), host: z.string(), path: z.string() });

/** The installation's identity, kept (or new); found elsewhere (moved, copied) still kept: a copy takes its own in claim.ts. */
async function identity(dataDir: string, log: Logger): Promise<{ id: string; place: string }> {
  const path = resolve(dataDir);
  const folder = await stat(path, { bigint: true });
  const place = createHash('sha256').update(`${path}\0${folder.ino}\0${folder.birthtimeNs}`).digest('hex').slice(0, 12);
  const saved = await readStored(join(dataDir, IDENTITY_FILE), identitySchema, {
    onBroken: (error) => log.warn({ err: error.message }, 'the installation identity unreadable; a new one is made'),
  });
  if (saved?.place === place) return { id: saved.id, place };
  const id = saved?.id ?? randomBytes(4).toString('hex');
  if (saved)
    log.info({ id, was: `${saved.path} on ${saved.host}` }, 'data_dir was moved, copied or restored since its identity was made: it keeps it');
  await saveIdentity(dataDir, { id, place });
  return { id, place };
}

const saveIdentity = (dataDir: string, { id, place }: { id: string; place: string }): Promise<void> =>
  writeJson(join(dataDir, IDENTITY_FILE), { id, place, host: hostname(), path: resolve(dataDir) });

/** The record in a folder's lock file, if one is there. */
const lockOf = async (dataDir: string): Promise<LeaseRecord | undefined> =>
  readRecord(await readFile(join(dataDir, LOCK_FILE), 'utf8').catch(() => undefined));

/** The lease on a folder as another process finds it (diagnostics): its record, and whether its holder runs (null: its process cannot be seen from here). */
export async function peekLease(dataDir: string): Promise<{ record: LeaseRecord; running: boolean | null } | undefined> {
  const record = await lockOf(dataDir);
  return record && { record, running: (await isAlive(record, await pidNamespace())) ?? null };
}

/** Whether the lock's process runs; undefined where this process cannot tell (the beat decides). Never this process (a container's pid repeats); never a zombie. */
async function isAlive(owner: LeaseRecord, pidNs: string | undefined): Promise<boolean | undefined> {
  if (owner.host !== hostname() || owner.pidNs === undefined || owner.pidNs !== pidNs) return undefined;
  if (owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = await processStat(owner.pid);
  if (stat?.state === 'Z' || stat?.state === 'X') return false;
  return owner.startTicks === undefined || stat?.startTicks === undefined || stat.startTicks === owner.startTicks;
}

/** Where a pid means this process: this boot of this machine (host names repeat) and this pid namespace (Linux); undefined elsewhere. */
export async function pidNamespace(): Promise<string | undefined> {
  const boot = await readFile('/proc/sys/kernel/random/boot_id', 'utf8').catch(() => undefined);
  const ns = await readlink('/proc/self/ns/pid').catch(() => undefined);
  return boot && ns && `${boot.trim()} ${ns}`;
}

/** A process's state (field 3: Z a zombie) and start in clock ticks since boot (field 22: a reused pid's differs); undefined when gone or off Linux. */
async function processStat(pid: number): Promise<{ state: string; startTicks: number | undefined } | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (stat === undefined) return undefined;
  // The name (field 2) is in parentheses and may hold spaces: count the fields after its end.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[19]);
  return { state: fields[0] ?? '', startTicks: Number.isFinite(ticks) ? ticks : undefined };
}
