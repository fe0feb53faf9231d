// What the keeper's parts share (keeper.ts): Home Assistant's API, and what was made there as the bridge remembers
// it, kept in data_dir and told on with the base topic at every change (handover.ts).
import { errorText } from '../../util/text.js';
import type { Logger } from '../../util/log.js';
import type { HomeAssistantApi } from './client.js';
import { toldOn, type HomeAssistantHandover, type Known, type Made, type MadeFile } from './made.js';

export class Kept {
  made: Made = { entries: {}, homework: {} };

  constructor(
    readonly api: HomeAssistantApi,
    readonly log: Logger,
    private readonly file: MadeFile,
    private readonly handover: HomeAssistantHandover | undefined,
  ) {}

  /** What was made before, read back (a file that cannot be read: nothing). */
  async load(): Promise<void> {
    this.made = await this.file.load((error) => this.log.warn({ err: error.message }, 'what was made in Home Assistant could not be read back'));
  }

  /** An entry as the bridge knows it now; undefined: forgotten, with a list's items. */
  remember(key: string, known: Known | undefined): void {
    if (known === undefined) {
      delete this.made.entries[key];
      if (key.endsWith('/homework')) delete this.made.homework[key.slice(0, -'/homework'.length)];
    } else this.made.entries[key] = known;
  }

  /** What was made kept in data_dir, and told on with the base topic with what the family deleted. */
  save(): Promise<void> {
    this.handover?.tellHomeAssistant(toldOn(this.made));
    return this.file
      .save(this.made)
      .catch((error: unknown) => this.log.warn({ err: errorText(error) }, 'cannot keep what was made in Home Assistant in data_dir'));
  }
}
