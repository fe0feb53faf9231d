// Downloads under a cap (issue 20, item 5): a file's body streams into its temporary file, never into
// memory, and one larger than downloads_max_mb is refused as it comes in, leaving nothing behind. A
// temporary file a stopped process left is removed at the next start.
import { readdir, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, PortalSimulator } from '../../src/simulator/index.js';
import { UnexpectedResponseError } from '../../src/portal/errors.js';
import { Downloader } from '../../src/portal/attachments/downloader.js';
import { DEFAULT_DOWNLOAD_LIMITS, DownloadSlots } from '../../src/portal/attachments/downloader.js';
import { silentLogger } from '../../src/util/log.js';
import { FakeClock } from '../helpers/clock.js';
import { ClockDriver } from '../helpers/drive.js';
import { portalClient, tempDir } from '../helpers/portal.js';
import { worldFor } from '../helpers/faults-world.js';

// Over HTTP (`portal: 'http'`): a huge download streams to a socket (the in-process dispatcher has none).

const ANIA = DEMO_ACCOUNTS[0]!;
const MB = 1024 * 1024;
const GET = { host: 'sandbox', path: /^\/attachments\/[^/]+\/get$/ } as const;

let sim: PortalSimulator;
let clock: FakeClock;
let driver: ClockDriver;
let dataDir: string;

beforeEach(async () => {
  clock = new FakeClock('2026-11-20T08:00:00+01:00');
  driver = new ClockDriver(clock);
  sim = new PortalSimulator({ now: () => clock.now() });
  await sim.start();
  dataDir = await tempDir();
});

afterEach(() => sim.stop());

function downloader(maxFileBytes = DEFAULT_DOWNLOAD_LIMITS.maxFileBytes): Downloader {
  const { session } = portalClient({ sim, clock, login: ANIA.login, password: ANIA.password });
  driver.watch(session.http);
  const limits = { ...DEFAULT_DOWNLOAD_LIMITS, maxFileBytes };
  return new Downloader({
    session,
    urls: sim.urls,
    account: ANIA.login,
    child: 'ania',
    dataDir,
    clock,
    log: silentLogger(),
    slots: new DownloadSlots(),
    limits,
  });
}

/** What the child's downloads folder holds (nothing when it was never made). */
const folder = (): Promise<string[]> => readdir(join(dataDir, 'downloads', 'ania')).catch((): string[] => []);

function attachment(d: Downloader): Promise<unknown> {
  const link = (): Promise<string> => Promise.resolve(sim.downloads.attachmentLink(ANIA.login, 77, 'plan.pdf'));
  return driver.drive(d.messageAttachment({ messageId: 5, attachmentId: 77, name: 'plan.pdf' }, link), 400);
}

/**
 * The most the process's ArrayBuffer memory (where bodies live) grew above `base` while `work` ran, measured
 * exactly from `exactFrom` up (below it, at most that: the test's limit lies above it).
 */
async function peakGrowth<T>(work: Promise<T>, exactFrom: number): Promise<{ value: T | unknown; growth: number }> {
  // What is held, not what is garbage yet to be collected: a sample collects first (the project runs
  // this file with --expose-gc). Without it a run once counted 30 MB of spent chunks as held.
  const live = (): number => {
    (globalThis as { gc?: () => void }).gc?.();
    return process.memoryUsage().arrayBuffers;
  };
  const base = live();
  let peak = base;
  // Garbage only adds to a reading: one under base + exactFrom (and the peak) cannot hide a held peak
  // above it, so only a higher one is worth a full collection. A collection every 5 ms was most of
  // this file's time (14 s of 16 s at a 40 MB download).
  const sample = (): void => {
    const reading = process.memoryUsage().arrayBuffers;
    if (reading > Math.max(peak, base + exactFrom)) peak = Math.max(peak, live());
  };
  const sampler = setInterval(sample, 5);
  try {
    const value = await work.catch((e: unknown) => e);
    return { value, growth: peak - base };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * The bytes the simulator really wrote for the huge answer. It logs them once its stream ends, which
 * may come a moment after the client has hung up, so this waits for the entry (2 s at most).
 */
async function hugeBytesSent(): Promise<number | undefined> {
  const deadline = Date.now() + 2_000;
  for (;;) {
    const sent = sim.requests.filter((r) => r.host === 'sandbox' && GET.path.test(r.path) && r.bytes !== undefined).at(-1);
    if (sent !== undefined || Date.now() > deadline) return sent?.bytes;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a download over downloads_max_mb', () => {
  it('an 80 MB attachment against the default 50 MB: refused as it streams, nothing left on disk', async () => {
    sim.answerHugeNext(1, 80 * MB, GET);
    const error = await attachment(downloader()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as UnexpectedResponseError).code).toBe('TooLarge');
    expect(String(error)).toMatch(/larger than 50 MB/);
    expect(await hugeBytesSent()).toBeLessThan(58 * MB);
    expect(await folder()).toEqual([]);
  });

  it('announced with a Content-Length over the cap: refused from the headers', async () => {
    sim.answerHugeNext(1, 80 * MB, GET, { announceLength: true });
    const error = await attachment(downloader()).catch((e: unknown) => e);
    expect((error as UnexpectedResponseError).code).toBe('TooLarge');
    expect(await hugeBytesSent()).toBeLessThan(8 * MB);
    expect(await folder()).toEqual([]);
  });

  it('a 40 MB file under the cap is saved whole, streamed to disk rather than held', async () => {
    sim.answerHugeNext(1, 40 * MB, GET);
    const { value, growth } = await peakGrowth(attachment(downloader()), 8 * MB);
    expect(value).toMatchObject({ name: 'plan.pdf' });
    expect((value as { size: number }).size).toBeGreaterThan(39 * MB);
    expect(await folder()).toEqual(['.index.json', 'plan.pdf']);
    // Held whole, the body alone would be 40 MB (and its chunks as much again while it is joined).
    expect(growth).toBeLessThan(24 * MB);
  }, 60_000);

  it('a smaller cap (downloads_max_mb: 1) holds too', async () => {
    sim.answerHugeNext(1, 3 * MB, GET);
    const error = await attachment(downloader(1 * MB)).catch((e: unknown) => e);
    expect(String(error)).toMatch(/larger than 1 MB/);
  });
});

describe('unfinished downloads of the last run', () => {
  it('the bridge removes the .part files at start and keeps the saved files', async (ctx) => {
    const w = await worldFor(ctx, { portal: 'http' });
    const dir = await tempDir();
    const folder = join(dir, 'downloads', 'ania');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, '.0123456789abcdef.part'), 'half a file');
    await writeFile(join(folder, 'plan.pdf'), 'a saved file');
    await w.startApp({ dataDir: dir, accounts: [w.account({ downloads: true })] });
    expect((await readdir(folder)).filter((n) => n.endsWith('.part'))).toEqual([]);
    expect(await readdir(folder)).toContain('plan.pdf');
  });
});
