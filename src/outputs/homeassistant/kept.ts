// What the keeper's parts share (keeper.ts): Home Assistant's API, and what was made there as the bridge remembers
// it, kept in data_dir and told on with the base topic at every change. What the bridge made in Home Assistant and
// what the family deleted go with the base topic, not the installation (interface 16.3): told on retained by its
// holder (mqtt/told.ts), taken over by its successor, so that every entry stays the bridge's and none the family
// deleted is made again.
import { errorText } from '../../util/text.js';
import type { Logger } from '../../util/log.js';
import type { HomeAssistantApi } from './client.js';
import { takenOver, toldOn, type HomeAssistantHandover, type Known, type Made, type MadeFile } from './made.js';

export class Kept {
  made: Made = { entries: {}, homework: {} };
  /**
   * What each calendar feed (`child/feed`) holds now, as a hash of the content the last pass published (keeper.ts): a
   * calendar made now has read it, one whose feed changed since is asked to read it again (read-again.ts).
   */
  readonly serving = new Map<string, string>();

  constructor(
    readonly api: HomeAssistantApi,
    readonly log: Logger,
    private readonly file: MadeFile,
    private readonly handover: HomeAssistantHandover | undefined,
  ) {}

  /**
   * What was made before, read back; then what the installation before this one told is taken over (its entries this
   * bridge's, what the family deleted left deleted) and kept; with no handover, what this one made is told on.
   */
  async load(): Promise<void> {
    this.made = await this.file.load((error) => this.log.warn({ err: error.message }, 'what was made in Home Assistant could not be read back'));
    const told = this.handover?.homeAssistantTold();
    if (told === undefined) {
      this.handover?.tellHomeAssistant(toldOn(this.made));
      return;
    }
    const unreadable = () =>
      this.log.warn('what the bridge before this one told of its entries in Home Assistant is unreadable: they are found again by name');
    this.made = takenOver(this.made, told.told, unreadable);
    const deleted = Object.values(this.made.entries).flatMap((known) => (known.gone ? [known.title] : []));
    this.log.info(
      { deleted },
      "the base topic was another installation's since: its entries in Home Assistant taken as this bridge's, what the family deleted left deleted",
    );
    await this.save();
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
