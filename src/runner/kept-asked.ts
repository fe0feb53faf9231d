// Assist's facts of the features a start's first pass leaves for later (the sent box, the school's files: their rows
// wait for the next pass), kept across restarts as their states are: a start's first pass hands Assist what the last
// run knew of them rather than "not known yet" until the pass after. Facts a different version kept are not taken
// (their shape may have changed); a first run has none, and Assist says those facts are not known yet.
import { KeptAskedStore, type KeptAsked } from '../portal/login-records.js';
import { VERSION } from '../util/version.js';
import type { Logger } from '../util/log.js';

export class KeptAskedFacts {
  private kept: KeptAsked = {};
  private readonly store: KeptAskedStore;
  /** The last write (the store writes a change only). */
  written: Promise<void> = Promise.resolve();

  constructor(
    dataDir: string,
    login: string,
    private readonly log: Logger,
  ) {
    this.store = new KeptAskedStore(dataDir, login);
  }

  async load(): Promise<void> {
    this.kept = await this.store.load((error) => this.log.warn({ err: error.message }, "Assist's kept facts unreadable; told after the next pass"));
  }

  /**
   * What the last run of this version kept of a feature for Assist; undefined when none. A field the kept facts lack
   * (kept before the field was added: a build of the same version) takes its value from the part's `unknown`, so a
   * part reads every field its type requires (a refusal's `absent` flag: false, as the file's lack of it meant).
   */
  of(feature: string, unknown?: unknown): unknown {
    const kept = this.kept[feature];
    if (kept?.version !== VERSION) return undefined;
    return isRecord(unknown) && isRecord(kept.facts) ? { ...unknown, ...kept.facts } : kept.facts;
  }

  /** A feature's facts after a good computation, kept for the next start (saved in the background). */
  keep(feature: string, facts: unknown): void {
    this.kept = { ...this.kept, [feature]: { version: VERSION, facts } };
    this.written = this.store
      .save(this.kept)
      .catch((error: Error) => this.log.warn({ err: error.message }, "could not keep Assist's facts for the next start"));
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
