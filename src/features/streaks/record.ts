// What the streaks keep of a school year in data_dir (`achievements/<login>.json`), beside the event memory,
// for what the portal's lists do not give back:
// - the kinds already read once (`kinds`): a kind read the first time (a first start, or a bridge that did not
//   know the kind yet) has what it shows then remembered as already true (`quiet`): listed, never fired;
// - the achievements of a state that may pass (a subject star, honours, exemplary behaviour) with the day each
//   was first seen (`kept`), so that it stays this year's, on its day, whatever the lists show later;
// - the days the lucky number was the child's (`lucky`): the portal shows only the next one.
// A new school year keeps `kinds` and forgets the rest. Losing the file (a disk error, a hand edit, a partial
// restore) neither repeats nor loses an event (interface 18.4): where the child's event memory knows the
// achievements, the record is rebuilt from it, what it told staying told and what it remembered as already
// true staying so, every kind taken as read; so what became true since is told, once. Only with neither (a
// first start) is what every kind shows remembered as already true. What the memory does not hold is lost:
// the lucky days, and the day a star was first seen (it is dated the day of the rebuild).
import * as z from 'zod';
import { ACHIEVEMENT_KINDS, achievementId, KEPT_KINDS, type AchievementKind, type Unlocked } from './rules.js';
import { LoginFile } from '../../util/stored.js';
import type { Logger } from '../../util/log.js';
import type { KnownItems } from '../../once/memory.js';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const unlockedSchema = z.object({
  kind: z.enum(ACHIEVEMENT_KINDS),
  count: z.number(),
  date: day,
  subject: z.string().optional(),
  ref: z.string(),
});
export const achievementRecordSchema = z.object({
  /** The first day of the school year it is of. */
  year: day,
  kinds: z.array(z.string()),
  quiet: z.array(z.string()),
  kept: z.array(unlockedSchema),
  lucky: z.array(day),
});
type YearRecord = z.output<typeof achievementRecordSchema>;

/** The folder of data_dir the records are kept in, one file per login. */
export const ACHIEVEMENTS_FOLDER = 'achievements';

export class AchievementRecord {
  private record: YearRecord | undefined;
  /** Why the file gave nothing at the start, until the first pass rebuilt it or found it a first start. */
  private lost: 'missing' | 'unreadable' | undefined;
  private readonly file: LoginFile<typeof achievementRecordSchema>;

  constructor(
    dataDir: string,
    login: string,
    private readonly log: Logger,
  ) {
    this.file = new LoginFile(dataDir, ACHIEVEMENTS_FOLDER, login, achievementRecordSchema);
  }

  async load(): Promise<void> {
    let broken = false;
    this.record = await this.file.load((error) => {
      broken = true;
      this.log.warn({ err: error.message }, 'achievements record unreadable; it is rebuilt from the event memory at the first pass');
    });
    this.lost = this.record !== undefined ? undefined : broken ? 'unreadable' : 'missing';
  }

  /**
   * At the first pass after a start without a record: rebuilt for the school year beginning `year` from what the
   * event memory holds of the achievements (`memory`). Not on a first start (the memory holds none), nor when the
   * file is merely missing beside a memory an earlier version wrote: that version kept no record (an update).
   */
  rebuild(year: string, memory: KnownItems | undefined): void {
    const lost = this.lost;
    this.lost = undefined;
    if (lost === undefined || memory === undefined || (lost === 'missing' && !memory.apart)) return;
    const ofYear = (ids: ReadonlySet<string>) => [...ids].filter((id) => id.startsWith(`achievement:${year}:`));
    const told = ofYear(memory.told);
    const quiet = ofYear(memory.quiet);
    this.record = { year, kinds: [...ACHIEVEMENT_KINDS], quiet, kept: [], lucky: [] };
    this.log.warn(
      { lost, told: told.length, already_true: quiet.length },
      'achievements record rebuilt from the event memory: what it told stays told, what became true since is told once',
    );
  }

  /** The record of the school year beginning `year` (a new year keeps only which kinds were read). */
  of(year: string): YearRecord {
    const r = this.record;
    if (r?.year !== year) this.record = { year, kinds: r?.kinds ?? [], quiet: [], kept: [], lucky: [] };
    return this.record as YearRecord;
  }

  /** A day the lucky number is the child's. */
  luckyOn(year: string, date: string): void {
    const r = this.of(year);
    if (date >= year && !r.lucky.includes(date)) r.lucky = [...r.lucky, date].sort();
  }

  /**
   * Takes this pass's achievements: those of a kind read the first time (of `ready`) are remembered as already
   * true, those of a state that may pass are kept. Returns them all, those already true marked `quiet`, and the
   * ones that may fire (`news`).
   */
  take(year: string, achievements: readonly Unlocked[], ready: readonly AchievementKind[]): { listed: Unlocked[]; news: Unlocked[] } {
    const r = this.of(year);
    const fresh = ready.filter((k) => !r.kinds.includes(k));
    if (fresh.length > 0) {
      r.kinds = [...r.kinds, ...fresh];
      const already = achievements.filter((a) => fresh.includes(a.kind)).map((a) => achievementId(a, year));
      r.quiet = [...new Set([...r.quiet, ...already])];
    }
    r.kept = achievements.filter((a) => KEPT_KINDS.includes(a.kind)).map(({ quiet: _, ...a }) => a);
    const quiet = new Set(r.quiet);
    const listed = achievements.map((a): Unlocked => ({ ...a, quiet: quiet.has(achievementId(a, year)) }));
    return { listed, news: listed.filter((a) => ready.includes(a.kind) && !a.quiet) };
  }

  /** Writes what changed (a write that fails is told, and tried again at the next pass). */
  save(): Promise<void> {
    if (this.record === undefined) return Promise.resolve();
    return this.file
      .save(this.record)
      .catch((error: Error) => this.log.warn({ err: error.message }, 'cannot write the achievements record in data_dir'));
  }
}
