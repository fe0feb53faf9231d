// The newest release for the bridge's update entity (interface 18.3): the project's release feed (util/home.ts),
// read at most once a day, with nothing sent but the request itself (no header of ours, no cookie, no query, no
// body: the feed's host learns no version, no install and nothing of a family). When it was read and what it named
// are kept in data_dir/release.json, so a restart neither reads again within the day nor forgets what was found.
// Off with `updates: false`, and in the app, whose update the Supervisor offers (its entity is not announced). Strict
// (interface 19.2): one deadline ends a whole read, however slowly the feed trickles; what it names is taken only under
// the project's repository (release-atom.ts), a kept file's too; and the next read is planned whatever this one did.
import { join } from 'node:path';
import { request } from 'undici';
import * as z from 'zod';
import type { Config } from '../config/schema.js';
import type { Release } from '../outputs/mqtt/states.js';
import { withDeadline, type Clock, type Timer } from '../util/clock.js';
import { writeJson } from '../util/files.js';
import { PROJECT_HOME } from '../util/home.js';
import type { Logger } from '../util/log.js';
import { readStored } from '../util/stored.js';
import { errorText } from '../util/text.js';
import { newestRelease, releaseOf } from './release-atom.js';

/** How often the feed is read at most. */
export const RELEASE_CHECK_MS = 24 * 60 * 60_000;
/**
 * How long after the start the first read waits: not in the start's own burst of requests, and never from a bridge
 * that stops again at once (a wrong config, a crash), however often it is started.
 */
export const FIRST_READ_MS = 10 * 60_000;
/** The file in data_dir that keeps the last read. */
export const RELEASE_FILE = 'release.json';
/** The most of the feed read: GitHub's holds its last ten releases' notes, a few tens of KB. */
const MAX_RELEASES_BYTES = 1024 * 1024;
/** The whole read, from the request to the feed's last byte. */
export const RELEASE_READ_MS = 30_000;

const keptSchema = z.object({
  checked_at: z.iso.datetime(),
  latest: z.object({ version: z.string(), url: z.string().optional() }).nullable(),
});

export interface ReleaseCheckOptions {
  /** The release feed's address. */
  address: string;
  /** The project's repository (`https://github.com/<owner>/<name>`): a release's page stands only under it. */
  repository: string;
  dataDir: string;
  clock: Clock;
  log: Logger;
  /** The newest release found (or kept from the last read). */
  found: (release: Release) => void;
}

export class ReleaseCheck {
  private timer: Timer | undefined;
  private readonly abort = new AbortController();

  constructor(private readonly options: ReleaseCheckOptions) {}

  /** Tells what the last read found, and reads the feed a day after it (FIRST_READ_MS after the start at the soonest). */
  async start(): Promise<void> {
    const { clock, log } = this.options;
    const kept = await readStored(this.path, keptSchema, { onBroken: (error) => log.warn(error.message) });
    // Kept by an older bridge less strict: told only when it is a release of the repository, as a read would take it.
    const latest = releaseOf(kept?.latest?.url ?? '', this.options.repository)?.release;
    if (latest !== undefined && latest.version === kept?.latest?.version) this.options.found(latest);
    const since = kept === undefined ? RELEASE_CHECK_MS : clock.now() - Date.parse(kept.checked_at);
    this.later(Math.min(RELEASE_CHECK_MS, Math.max(FIRST_READ_MS, RELEASE_CHECK_MS - since)));
  }

  stop(): void {
    this.timer?.cancel();
    this.abort.abort();
  }

  private get path(): string {
    return join(this.options.dataDir, RELEASE_FILE);
  }

  private later(ms: number): void {
    this.timer = this.options.clock.setTimer(() => void this.read(), ms);
  }

  /** One read of the feed; whatever it answers or throws, the next comes a day after this one began. */
  private async read(): Promise<void> {
    const began = this.options.clock.now();
    try {
      await this.readOnce(new Date(began).toISOString());
    } finally {
      // From when the read began, not when its answer came: a slow answer does not push the next read later.
      if (!this.abort.signal.aborted) this.later(Math.max(0, RELEASE_CHECK_MS - (this.options.clock.now() - began)));
    }
  }

  /** The feed read within RELEASE_READ_MS, the newest release kept with the time of the read, then told. */
  private async readOnce(checkedAt: string): Promise<void> {
    const { clock, log } = this.options;
    let latest: Release | undefined;
    try {
      const late = () => new Error(`the feed took longer than ${RELEASE_READ_MS / 1000} s`);
      latest = newestRelease(await withDeadline(clock, RELEASE_READ_MS, late, (signal) => this.fetchReleases(signal)), this.options.repository);
      log.info({ latest: latest?.version ?? 'none' }, 'the release feed read');
    } catch (error) {
      if (this.abort.signal.aborted) return;
      log.info({ err: errorText(error) }, 'the release feed could not be read; it is asked again in a day');
    }
    if (this.abort.signal.aborted) return;
    // Kept, then told: what the update entity shows is what a restart starts from.
    await writeJson(this.path, { checked_at: checkedAt, latest: latest ?? null }).catch((error: unknown) =>
      log.warn({ err: errorText(error) }, `could not keep ${RELEASE_FILE}`),
    );
    if (latest && !this.abort.signal.aborted) this.options.found(latest);
  }

  /** The feed's text: a GET with no header of ours, refused past MAX_RELEASES_BYTES, ended by `deadline` or a stop. */
  private async fetchReleases(deadline: AbortSignal): Promise<string> {
    const response = await request(this.options.address, {
      method: 'GET',
      signal: AbortSignal.any([this.abort.signal, deadline]),
      headersTimeout: RELEASE_READ_MS,
      bodyTimeout: RELEASE_READ_MS,
    });
    if (response.statusCode !== 200) {
      await response.body.dump();
      throw new Error(`HTTP ${response.statusCode}`);
    }
    const chunks: Buffer[] = [];
    let bytes = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > MAX_RELEASES_BYTES) {
        response.body.destroy();
        throw new Error(`more than ${MAX_RELEASES_BYTES} bytes`);
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}

/**
 * What the App runs: the check when the config asks for it, the bridge is not the app (which the Supervisor updates)
 * and its carrier has the update entity (MQTT, not the bench's or a test's output of its own); `releases` is the
 * feed's address (package.json's, util/home.ts, unless a test gives a local one).
 */
export function releaseCheckPart(
  app: { config: Config; log: Logger; releases?: string },
  clock: Clock,
  found: () => ((release: Release) => void) | undefined,
): { name: string; start(): Promise<void>; stop(): void; abandonable: true } {
  const { config, log } = app;
  let check: ReleaseCheck | undefined;
  const start = async (): Promise<void> => {
    const tell = found();
    if (!config.updates || config.supervisor !== undefined || tell === undefined) return;
    const address = app.releases ?? PROJECT_HOME.releases;
    check = new ReleaseCheck({
      address,
      repository: PROJECT_HOME.url,
      dataDir: config.data_dir,
      clock,
      log: log.child({ part: 'release check' }),
      found: tell,
    });
    await check.start();
  };
  return { name: 'release check', start, stop: () => check?.stop(), abandonable: true };
}
