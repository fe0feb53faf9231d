// One bridge, once (interface 8.2, 14.4, 15.3). An installation is its data folder: `installation.json`
// holds its identity, a random id (its MQTT client id too) and the place it lives (a hash of the folder's
// path, inode and birth), so that a copy of the folder is told apart from the original. Who acts for the
// folder and its base topic is one lease, one record: the installation and its place, this run, its host
// and pid, a fencing number each new holder raises, and a beat the holder renews every beatMs. It is kept
// in `bridge.lock` while the bridge runs (made exclusively; as Kubernetes keeps a Lease object) and
// claimed on the broker on the same beat (mqtt/claim.ts). A lease is alive while its beat moves: a
// candidate watches it and takes it over once it stood still for graceMs of the monotonic clock, so a
// wall-clock jump neither takes a live lease nor keeps a dead one. Where the holder's process can be seen
// (the same host, boot and pid namespace) the process decides at once: a SIGKILLed bridge never blocks
// its restart, the kernel's start time tells a reused pid apart, and its state a zombie from a live one.
import { createHash, randomBytes } from 'node:crypto';
import { lstat, mkdir, readFile, readlink, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { removeLeftoverTemps, syncFolder, writeFileAtomic, writeJson, writeSynced } from './files.js';
import { peekStored, readStored } from './stored.js';
import { monotonicClock, type Clock, type Timer } from '../util/clock.js';
import type { Logger } from '../util/log.js';

export const LOCK_FILE = 'bridge.lock';
export const IDENTITY_FILE = 'installation.json';
/** One beat and one grace, for the folder and the base topic alike: a lease still for the grace is dead (three beats missed). */
export const LEASE_TIMING = { beatMs: 5_000, graceMs: 15_000 };
export type LeaseTiming = typeof LEASE_TIMING;
/** How often a candidate looks at a lock file it watches. */
const LOOK_MS = 500;

/** Another bridge runs on this data folder. */
export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
}

const recordSchema = z.object({
  /** The installation and where its folder is (installation.json). */
  id: z.string().max(64),
  place: z.string().max(64).default(''),
  /** This start of it. */
  run: z.string().max(64).default(''),
  host: z.string().max(255),
  pid: z.number(),
  since: z.string().max(40),
  /** The fencing number: one more than the last holder's. */
  fence: z.number().int().nonnegative().catch(0),
  /** Counts the beats; `at` tells a person when the last was (the holder's wall clock: never measured against). */
  beat: z.number().catch(0),
  at: z.string().max(40).optional(),
  /** Given up at a clean stop; the fence stays for the next holder. */
  released: z.boolean().optional(),
  /** The folder's record: where its pid means a process (pidNamespace()) and the process's start. */
  pidNs: z.string().max(300).optional(),
  startTicks: z.number().optional(),
});
export type LeaseRecord = z.output<typeof recordSchema>;

/** A record as read from the lock file or the broker; undefined for anything else. */
export function readRecord(text: Buffer | string | undefined): LeaseRecord | undefined {
  if (text === undefined || text.length === 0 || text.length > 2048) return undefined;
  try {
    return recordSchema.safeParse(JSON.parse(text.toString())).data;
  } catch {
    return undefined;
  }
}

/** How a log line and `problem` name a holder. */
export function describeHolder(r: LeaseRecord | undefined): string {
  return r === undefined ? 'an unreadable lock' : `installation ${r.id} on ${r.host}, pid ${r.pid}, since ${r.since}`;
}

/** What `diagnostics` shows of a lease: its holder, its beat's age (this machine's clock against the holder's) and the fencing number. */
export function leaseFacts(r: LeaseRecord): { holder: string; beat_age_s: number | null; fence: number } {
  return { holder: describeHolder(r), beat_age_s: r.at === undefined ? null : Math.round((Date.now() - Date.parse(r.at)) / 1000), fence: r.fence };
}

/** Watches a record's beat on a monotonic clock: alive while it changes, dead once it stood still for the grace. */
export class Watched {
  private text: string | undefined;
  private changedAt: number;

  constructor(
    private readonly clock: Clock,
    private readonly graceMs: number,
  ) {
    this.changedAt = clock.now();
  }

  /** The record as it is now (its text; undefined: none): true when it changed, a beat. */
  see(text: string | undefined): boolean {
    if (text === this.text) return false;
    this.text = text;
    this.restart();
    return true;
  }

  /** Time that cannot count (away from the broker) starts the watch again. */
  restart(): void {
    this.changedAt = this.clock.now();
  }

  get still(): boolean {
    return this.clock.now() - this.changedAt >= this.graceMs;
  }
}

const identitySchema = z.object({ id: z.string().regex(/^[0-9a-f]{8}$/), place: z.string(), host: z.string(), path: z.string() });

export const clientIdOf = (id: string): string => `dziennik2mqtt_${id}`;

/** The data folder's lease and identity, held by this process from Lease.take() to release(). */
export class Lease {
  private timer: Timer | undefined;
  /** Told at every beat once the folder's is renewed (the base topic's claim renews on it). */
  readonly onBeat = new Set<() => void>();

  private constructor(
    readonly dataDir: string,
    private readonly log: Logger,
    readonly clock: Clock,
    readonly timing: LeaseTiming,
    /** This process's record, as it is in the lock file. */
    public record: LeaseRecord,
  ) {}

  /**
   * Takes the folder (the lease, then what the last run left unfinished: a cut-off write's temporary file,
   * a download's part, also in a linked downloads folder), or throws DataDirInUseError naming the folder
   * and the running bridge. `lost`: another process took the folder over since (this one stalled for
   * longer than the grace).
   */
  static async take(dataDir: string, log: Logger, options: { lost?: (why: string) => void; clock?: Clock; timing?: LeaseTiming } = {}): Promise<Lease> {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    const me = await identity(dataDir, log);
    const run = randomBytes(6).toString('hex');
    const record: LeaseRecord = { ...me, run, host: hostname(), pid: process.pid, since: new Date().toISOString(), fence: 1, beat: 0 };
    const lease = new Lease(dataDir, log, options.clock ?? monotonicClock, options.timing ?? LEASE_TIMING, record);
    await lease.acquire(options.lost ?? (() => undefined));
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
    return clientIdOf(this.record.id);
  }

  private async acquire(lost: (why: string) => void): Promise<void> {
    const pidNs = await pidNamespace();
    this.record = { ...this.record, pidNs, startTicks: (await processStat(process.pid))?.startTicks };
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await writeSynced(this.path, text(this.record));
        await syncFolder(this.dataDir);
        this.beat(lost);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const owner = readRecord(await readFile(this.path, 'utf8').catch(() => undefined));
      const seen = owner === undefined ? undefined : await isAlive(owner, pidNs);
      if (seen === true || (seen === undefined && (await this.beats(owner)))) throw this.inUse(readRecord(await readFile(this.path).catch(() => undefined)) ?? owner);
      this.log.info({ owner: describeHolder(owner) }, 'the last bridge on this data_dir stopped without cleaning up; taking its lock over');
      this.record.fence = Math.max(this.record.fence, (owner?.fence ?? 0) + 1);
      await unlink(this.path).catch(() => undefined);
    }
    throw new DataDirInUseError(`data_dir ${this.dataDir}: another dziennik2mqtt is starting on it at the same moment`);
  }

  private inUse(owner: LeaseRecord | undefined): DataDirInUseError {
    const who = owner === undefined ? 'its lock is being written' : describeHolder(owner);
    return new DataDirInUseError(
      `data_dir ${this.dataDir} is in use by another dziennik2mqtt (${who}); stop that bridge first, or give this one a data_dir of its own`,
    );
  }

  /** Watches a lock whose process cannot be seen: true as soon as it changes, false once it stood still for the grace or went. */
  private async beats(owner: LeaseRecord | undefined): Promise<boolean> {
    const watch = new Watched(this.clock, this.timing.graceMs);
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
        const still = watch.still;
        const now = await readFile(this.path, 'utf8').catch(() => undefined);
        if (now === undefined) return false;
        if (watch.see(now)) return true;
        if (still) return false;
      }
    } finally {
      clearInterval(alive);
    }
  }

  /** Renews the folder's beat every beatMs, and the base topic's on it (onBeat); stops, telling `lost`, once another run is in the lock. */
  private beat(lost: (why: string) => void): void {
    this.timer = this.clock.setTimer(async () => {
      // The next beat first: they keep their pace however long a look at the disk takes.
      this.beat(lost);
      const owner = readRecord(await readFile(this.path).catch(() => undefined));
      if (this.timer === undefined) return;
      if (owner !== undefined && owner.run !== this.record.run) {
        this.timer.cancel();
        this.timer = undefined;
        return lost(`another dziennik2mqtt (${describeHolder(owner)}) took this data_dir's lock over while this one stalled; stopping`);
      }
      this.record = { ...this.record, beat: this.record.beat + 1, at: new Date().toISOString() };
      for (const renew of this.onBeat) renew();
      // Not synced: a beat lost in a power cut is a stale one anyway.
      await writeFileAtomic(this.path, text(this.record), { durable: false }).catch(() => undefined);
    }, this.timing.beatMs);
  }

  /** A new fencing number (the base topic taken over: one more than its last holder's), in the lock at the next beat. */
  fenced(fence: number): void {
    this.record.fence = fence;
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
    const owner = readRecord(await readFile(this.path).catch(() => undefined));
    if (owner?.run === this.record.run) await unlink(this.path).catch(() => undefined);
  }
}

/** The record as the lock holds it. */
const text = (record: LeaseRecord): string => `${JSON.stringify(record)}\n`;

/**
 * The installation's identity: as installation.json keeps it, or new (the id an older version kept as its
 * MQTT client id, if any). Found in another place (the folder was moved, copied or restored) it is kept:
 * a copy is told by a bridge running with it elsewhere (claim.ts), and then takes one of its own.
 */
async function identity(dataDir: string, log: Logger): Promise<{ id: string; place: string }> {
  const path = resolve(dataDir);
  const folder = await stat(path, { bigint: true });
  const place = createHash('sha256').update(`${path}\0${folder.ino}\0${folder.birthtimeNs}`).digest('hex').slice(0, 12);
  const saved = await readStored(join(dataDir, IDENTITY_FILE), identitySchema, {
    onBroken: (error) => log.warn({ err: error.message }, 'the installation identity unreadable; a new one is made'),
  });
  if (saved?.place === place) return { id: saved.id, place };
  const older = await peekStored(join(dataDir, 'mqtt-session.json'), z.object({ client_id: z.string() }));
  const id = saved?.id ?? /^dziennik2mqtt_([0-9a-f]{8})$/.exec(older?.client_id ?? '')?.[1] ?? randomBytes(4).toString('hex');
  if (saved) log.info({ id, was: `${saved.path} on ${saved.host}` }, 'data_dir was moved, copied or restored since its identity was made: it keeps it');
  await saveIdentity(dataDir, { id, place });
  return { id, place };
}

function saveIdentity(dataDir: string, { id, place }: { id: string; place: string }): Promise<void> {
  return writeJson(join(dataDir, IDENTITY_FILE), { id, place, host: hostname(), path: resolve(dataDir) });
}

/**
 * The lease on a folder as another process finds it (diagnostics): its record, and whether its holder
 * runs: its process where it can be seen, else its beat moving within two beats.
 */
export async function peekLease(dataDir: string, clock = monotonicClock, timing = LEASE_TIMING): Promise<{ record: LeaseRecord; running: boolean } | undefined> {
  const read = (): Promise<string | undefined> => readFile(join(dataDir, LOCK_FILE), 'utf8').catch(() => undefined);
  const first = await read();
  const record = readRecord(first);
  if (record === undefined) return undefined;
  const seen = await isAlive(record, await pidNamespace());
  if (seen !== undefined) return { record, running: seen };
  for (let waited = 0; waited < 2 * timing.beatMs; waited += LOOK_MS) {
    await clock.sleep(LOOK_MS);
    if ((await read()) !== first) return { record, running: true };
  }
  return { record, running: false };
}

/**
 * Whether the lock's process still runs, when this process can tell: undefined when it cannot (a lock
 * from another host or pid namespace, or off Linux), which the beat then decides. This process is never
 * the owner it finds (a container's bridge often gets the same pid after a restart).
 */
async function isAlive(owner: LeaseRecord, pidNs: string | undefined): Promise<boolean | undefined> {
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
