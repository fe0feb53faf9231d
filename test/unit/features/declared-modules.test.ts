// Only what the account has (issue 59 item 3, interface 12.2): the timetable's and the messages' entities name
// the lists they are made from, as the grades' and the homework's do, so that a module the portal refuses for a
// day takes them off the device; a keyed list (the timetable's weeks) counts as refused only while every copy
// of it is, and as answered once any is.
import { describe, expect, it } from 'vitest';
import { timetable } from '../../../src/features/timetable/timetable.js';
import { messages } from '../../../src/features/messages/messages.js';
import { openedMessage } from '../../../src/features/opened-message/opened-message.js';
import { sentMessageFeature } from '../../../src/features/sent-message/sent-message.js';
import { ResourceCache } from '../../../src/engine/cache.js';
import { AbsentModules, ABSENT_AFTER_MS } from '../../../src/features/kit/modules.js';
import { RefusedModulesStore } from '../../../src/portal/login-records.js';
import { KINDERGARTEN_PLAN } from '../../../src/features/timetable/kindergarten-resources.js';
import { UNREAD } from '../../../src/engine/resources/messaging.js';
import { TIMETABLE } from '../../../src/engine/resources/timetable.js';
import { SUBSTITUTIONS } from '../../../src/features/timetable/resources.js';
import { UnexpectedResponseError } from '../../../src/portal/errors.js';
import { want, type Portal } from '../../../src/engine/resource.js';
import { silentLogger } from '../../../src/util/log.js';
import { tempDir } from '../../helpers/temp.js';

describe('the entities of the timetable and the messages', () => {
  it('each name the lists they are made from', () => {
    const modules = (entities: readonly { key: string; module?: readonly { name: string }[] }[]) =>
      Object.fromEntries(entities.map((e) => [e.key, e.module?.map((r) => r.name)]));
    const day = [TIMETABLE.name, KINDERGARTEN_PLAN.name];
    expect(modules(timetable.entities)).toMatchObject({
      timetable_today: day,
      timetable_tomorrow: day,
      school_day_today: day,
      lessons_start_tomorrow: day,
      next_lesson: day,
      at_school: day,
      plan_changes_today: [SUBSTITUTIONS.name, TIMETABLE.name],
      plan_changes_tomorrow: [SUBSTITUTIONS.name, TIMETABLE.name],
      plan_change: [SUBSTITUTIONS.name, TIMETABLE.name],
    });
    for (const e of timetable.entities) expect([e.key, e.module?.length ?? 0]).not.toEqual([e.key, 0]);
    for (const e of [...messages.entities, ...openedMessage.entities, ...sentMessageFeature.entities])
      expect([e.key, e.module?.map((r) => r.name)]).toEqual([e.key, [UNREAD.name]]);
  });
});

describe("a keyed list's refusal", () => {
  const T0 = Date.parse('2026-11-18T09:00:00+01:00');
  let now = T0;
  const refusedWeeks = new Set<string>();
  const portal = {
    clock: { now: () => now },
    log: silentLogger(),
    gateway: {
      get: (_path: string, _schema: unknown, { query }: { query?: Record<string, string> } = {}) =>
        refusedWeeks.has(query?.weekStart ?? '') ? Promise.reject(new UnexpectedResponseError(403, 'refused')) : Promise.resolve({ Timetable: {} }),
    },
  } as unknown as Omit<Portal, 'copies'>;

  it('takes the plan off the device once every week has been refused for a day, and keeps it while one week answers', async () => {
    const cache = new ResourceCache({ portal });
    const absent = new AbsentModules(new RefusedModulesStore(await tempDir(), 'rodzic'), silentLogger());
    await absent.load();
    const entities = timetable.entities;
    const today = entities.find((e) => e.key === 'timetable_today')!;
    const changes = entities.find((e) => e.key === 'plan_changes_today')!;
    const read = async (week: string) => {
      cache.begin();
      await cache.read(want(TIMETABLE, week)).catch(() => undefined);
      cache.end();
    };
    // This week answers, next week is not published yet (403): the timetable stays, however long.
    refusedWeeks.add('2026-11-23');
    await read('2026-11-16');
    await read('2026-11-23');
    now += ABSENT_AFTER_MS;
    await read('2026-11-23');
    absent.update(cache, entities);
    expect(cache.refusal(TIMETABLE)).toBeUndefined();
    expect(absent.names()).toBe('');
    // A week later every week is refused (a kindergarten's account): a day of refusals makes Timetables absent.
    refusedWeeks.add('2026-11-30');
    const cache2 = new ResourceCache({ portal });
    const second = async (week: string) => {
      cache2.begin();
      await cache2.read(want(TIMETABLE, week)).catch(() => undefined);
      cache2.end();
    };
    await second('2026-11-23');
    now += 60 * 60_000;
    await second('2026-11-30');
    now += ABSENT_AFTER_MS;
    await second('2026-11-30');
    expect(cache2.refusal(TIMETABLE)).toMatchObject({ at: now });
    absent.update(cache2, entities);
    expect(absent.names()).toBe(TIMETABLE.name);
    // The day's plan is a kindergarten's too: not gone while its plan was never refused; the changes are the year's list's too.
    expect([absent.absent(today), absent.absent(changes)]).toEqual([false, false]);
  });
});
