// Only what the account has (interface 12.2, 16.2): an entity leaves the child's device once the portal has
// refused every list of its module for a day, comes back when one answers, and a restart remembers; a child
// who is not known for a pupil (a kindergarten child) declares it only once one of its lists has answered.
import { describe, expect, it } from 'vitest';
import { ABSENT_AFTER_MS, AbsentModules, type RefusalsHeld } from '../../../../src/features/kit/modules.js';
import { binary, sensor } from '../../../../src/features/kit/entities.js';
import { AnsweredListsStore, RefusedModulesStore } from '../../../../src/portal/login-records.js';
import { GRADES, POINT_GRADES } from '../../../../src/engine/resources/grades.js';
import { silentLogger } from '../../../../src/util/log.js';
import { tempDir } from '../../../helpers/temp.js';
import type { Resource } from '../../../../src/engine/resource.js';

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;
const T0 = Date.parse('2026-11-18T09:00:00+01:00');

const atRisk = binary('grade_at_risk', { en: 'a', pl: 'a', uk: 'a' }, { module: [GRADES] });
const average = sensor('average', { en: 'b', pl: 'b', uk: 'b' }, { module: [GRADES, POINT_GRADES] });
const messages = sensor('unread_messages', { en: 'c', pl: 'c', uk: 'c' });
const ENTITIES = [atRisk, average, messages];

/** What the cache holds of each list: refusals in a row, or an answer. */
function held(lists: Map<Resource, { since: number; at: number } | 'answered'>): RefusalsHeld {
  return {
    refusal: (res) => {
      const l = lists.get(res);
      return l === 'answered' ? undefined : l;
    },
    answered: (res) => lists.get(res) === 'answered',
  };
}

async function memory(dataDir?: string, kindergarten = false): Promise<AbsentModules> {
  const dir = dataDir ?? (await tempDir());
  const modules = new AbsentModules(
    new RefusedModulesStore(dir, 'rodzic'),
    silentLogger(),
    () => kindergarten,
    new AnsweredListsStore(dir, 'rodzic'),
  );
  await modules.load();
  return modules;
}

describe('the modules the portal refuses', () => {
  it('takes an entity away once every list of its module has been refused for a day, not at the first refusal', async () => {
    const modules = await memory();
    modules.update(held(new Map([[GRADES, { since: T0, at: T0 }]])), ENTITIES);
    expect(modules.absent(atRisk)).toBe(false);
    // The daily look (a switched-off module's comes 10 minutes early) is refused again.
    modules.update(held(new Map([[GRADES, { since: T0, at: T0 + DAY - 10 * 60_000 }]])), ENTITIES);
    expect(ABSENT_AFTER_MS).toBe(DAY - 10 * 60_000);
    expect(modules.absent(atRisk)).toBe(true);
    // average is made of the point grades too, which answer: it stays; an entity with no module always does.
    expect(modules.absent(average)).toBe(false);
    expect(modules.absent(messages)).toBe(false);
    expect(modules.names()).toBe('Grades');
  });

  it('brings it back at the first answer; a look without one (a failed read) changes nothing', async () => {
    const modules = await memory();
    const lists = new Map<Resource, { since: number; at: number } | 'answered'>([
      [GRADES, { since: T0, at: T0 + DAY }],
      [POINT_GRADES, { since: T0, at: T0 + DAY }],
    ]);
    modules.update(held(lists), ENTITIES);
    expect([modules.absent(atRisk), modules.absent(average)]).toEqual([true, true]);
    lists.delete(POINT_GRADES); // not answered, not refused: a failed read, or not read since a restart
    modules.update(held(lists), ENTITIES);
    expect(modules.absent(average)).toBe(true);
    lists.set(POINT_GRADES, 'answered');
    modules.update(held(lists), ENTITIES);
    expect([modules.absent(atRisk), modules.absent(average)]).toEqual([true, false]);
  });

  it('remembers through a restart, counting the day from the first refusal of the last run', async () => {
    const dataDir = await tempDir();
    const before = await memory(dataDir);
    before.update(held(new Map([[GRADES, { since: T0, at: T0 }]])), ENTITIES);
    await before.written; // in the background
    const after = await memory(dataDir);
    expect(after.absent(atRisk)).toBe(false);
    // The new run's cache knows only its own refusal, a day after the last run's first.
    after.update(held(new Map([[GRADES, { since: T0 + DAY, at: T0 + DAY }]])), ENTITIES);
    expect(after.absent(atRisk)).toBe(true);
    await after.written;
    expect((await memory(dataDir)).absent(atRisk)).toBe(true);
  });

  it("declares a pupil's entity before its lists answer, a kindergarten child's only once one has, and remembers which did", async () => {
    const dataDir = await tempDir();
    const kid = await memory(dataDir, true);
    // Before any pass: a pupil's lists will answer; a kindergarten child's are the school's, refused (live-notes 58).
    expect(ENTITIES.map((e) => [kid.declares(e, true), kid.declares(e, false)])).toEqual([
      [true, false],
      [true, false],
      [true, true],
    ]);
    // Her first pass: the grades refused, the point grades never asked for (her unit switches them off), so never
    // refused: the average is made of nothing that answers, and she does not declare it.
    kid.update(held(new Map([[GRADES, { since: T0, at: T0 }]])), ENTITIES);
    expect([kid.declares(atRisk, false), kid.declares(average, false)]).toEqual([false, false]);
    // A list that answers brings what it fills, and a restart declares it before its first pass reads anything.
    kid.update(held(new Map([[POINT_GRADES, 'answered']])), ENTITIES);
    expect([kid.declares(atRisk, false), kid.declares(average, false)]).toEqual([false, true]);
    await kid.written;
    const restarted = await memory(dataDir, true);
    expect([restarted.declares(atRisk, false), restarted.declares(average, false), restarted.hasAnswered(POINT_GRADES)]).toEqual([false, true, true]);
  });
});
