// Each calendar whose calendar feed changed since Home Assistant last read it is asked to read it again
// (`homeassistant.update_entity` on its entity): at once after the pass, at most once in READ_AGAIN per calendar (a
// later change waits for that, then one ask covers all of them). Remote Calendar reads its feed once a day itself.
import { MINUTE } from '../../util/duration.js';
import type { Kept } from './kept.js';

/** A calendar is asked to read its calendar feed again at most this often. */
const READ_AGAIN = 5 * MINUTE;

export class ReadAgain {
  /** When each calendar was last asked to read its calendar feed again (this run). */
  private readonly askedAt = new Map<string, number>();

  constructor(private readonly kept: Kept) {}

  /** Asks each calendar due; answers in how long the next is due (undefined: none waits). */
  async ask(now: number): Promise<number | undefined> {
    const { kept } = this;
    let next: number | undefined;
    for (const [key, known] of Object.entries(kept.made.entries)) {
      const serving = kept.serving.get(key);
      if (known.url === undefined || known.gone || known.entry === null || serving === undefined || known.read === serving) continue;
      const due = (this.askedAt.get(key) ?? -Infinity) + READ_AGAIN;
      if (due > now) {
        next = Math.min(next ?? due, due);
        continue;
      }
      const entity = known.entity ?? (await kept.api.entityNamed('calendar', known.title));
      this.askedAt.set(key, now);
      if (entity === undefined) {
        // Not listed (yet, or renamed by the family): Home Assistant's own daily read stays.
        kept.log.debug({ title: known.title }, 'no calendar entity of that name: not asked to read its feed again');
        continue;
      }
      await kept.api.updateEntity(entity);
      kept.remember(key, { ...known, entity, read: serving });
      await kept.save();
      kept.log.debug({ entity }, 'Home Assistant asked to read a changed calendar feed again');
    }
    return next === undefined ? undefined : next - now;
  }
}
