// The copies kept through a restart (engine/kept-copies.ts): the standing plan, the sent box, a sent message and next
// week's timetable read by one run are, after a restart, the copies the next run's cache holds, the same values read at the same time (so the
// planner reads them no sooner than it would have); one older than its age, or one that no longer fits, is not told.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ResourceCache } from '../../../src/engine/cache.js';
import { KeptCopies } from '../../../src/engine/kept-copies.js';
import { want, type Resource } from '../../../src/engine/resource.js';
import { SENT_BOX, SENT_MESSAGE } from '../../../src/engine/resources/messaging.js';
import { TIMETABLE } from '../../../src/engine/resources/timetable.js';
import { TIMETABLE_ENTRIES } from '../../../src/features/timetable/resources.js';
import { outboxListResponse, sentMessageResponse } from '../../../src/portal/schemas/sent-box.js';
import { FakeClock } from '../../../src/bench/fake-clock.js';
import { silentLogger } from '../../../src/util/log.js';
import { tempDir } from '../../helpers/temp.js';
import type { z } from 'zod';
import type { Gateway } from '../../../src/portal/gateway.js';
import type { MessagesApi } from '../../../src/portal/messaging-api.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const RESOURCES: readonly Resource[] = [TIMETABLE_ENTRIES, SENT_BOX, SENT_MESSAGE, TIMETABLE];
const POLICY = { intervalMs: 20 * MINUTE, fastIntervalMs: 3 * MINUTE, schoolIntervalMs: 5 * MINUTE };

// The portal's answers as it sends them: the read's schemas turn them into the copies kept.
const ENTRIES = {
  TimetableEntries: [
    {
      Id: 7,
      Lesson: { Id: 12, Url: 'x' },
      DayOfTheWeek: 1,
      LessonNo: 2,
      DateFrom: '2026-09-01',
      DateTo: '2027-06-26',
      Classroom: { Id: 22, Symbol: '22' },
    },
    { Id: '8', Lesson: 13, DayOfTheWeek: '2', LessonNo: 1, DateFrom: '2026-09-01', DateTo: null },
  ],
};
const WEEK = {
  Timetable: {
    '2026-11-23': [
      [],
      [{ Lesson: { Id: 12 }, LessonNo: '2', HourFrom: '08:55', Subject: { Id: 5, Name: 'Matematyka' }, Classroom: { Id: 22, Symbol: '22' } }],
    ],
    '2026-11-24': [[{ IsCanceled: true, Teacher: { Id: 3, FirstName: 'Anna', LastName: 'Nowak' }, OrgDate: '2026-11-24' }], 'x'],
  },
};
const SENT = {
  data: [
    { messageId: '101', topic: 'Wycieczka', receiverName: 'Anna Nowak', sendDate: '2026-11-17 18:00:00' },
    { messageId: '99', topic: '' },
  ],
};
const OPENED = {
  data: {
    topic: 'Wycieczka',
    receivers: [
      { name: 'Anna Nowak', readed: '2026-11-17 19:00:00' },
      { firstName: 'Jan', lastName: 'Kos', readed: 0 },
    ],
  },
};

/** One run of the bridge for one login in `dataDir`: its cache, reading the answers above, and what it keeps. */
function run(dataDir: string, clock: FakeClock) {
  const gateway = {
    get: async (endpoint: string, schema: z.ZodType) => schema.parse(endpoint === 'Timetables' ? WEEK : ENTRIES),
  } as unknown as Gateway;
  const messages = {
    sentList: async () => outboxListResponse.parse(SENT),
    sentMessage: async () => sentMessageResponse.parse(OPENED),
  } as unknown as MessagesApi;
  const log = silentLogger();
  const cache = new ResourceCache({ portal: { gateway, messages, identity: () => undefined, clock, log }, resources: RESOURCES });
  const kept = new KeptCopies({ dataDir, login: 'rodzic.ania', cache, resources: RESOURCES, policy: POLICY, clock, log });
  return { cache, kept };
}

const WANTS = [want(TIMETABLE_ENTRIES), want(SENT_BOX), want(SENT_MESSAGE, '101'), want(TIMETABLE, '2026-11-23', { ahead: true })];

/** A first run reads the three copies at 09:00 and keeps them; resolves to what it read, and when. */
async function firstRun(dataDir: string, clock: FakeClock) {
  const first = run(dataDir, clock);
  first.cache.begin();
  for (const w of WANTS) await first.cache.read(w);
  first.cache.end();
  first.kept.save();
  await first.kept.written;
  return { at: clock.now(), values: WANTS.map((w) => first.cache.peek(w.res, w.key)) };
}

/** What a restarted run's cache holds of the three copies before its first pass: each value and when it was read. */
async function restarted(dataDir: string, clock: FakeClock) {
  const next = run(dataDir, clock);
  await next.kept.restore();
  return WANTS.map((w) => ({ value: next.cache.peek(w.res, w.key), at: next.cache.readAt(w.res, w.key) }));
}

describe('the copies kept through a restart', () => {
  it('are, after a restart, the copies the last run read: the same values, read when they were', async () => {
    const [dir, clock] = [await tempDir(), new FakeClock('2026-11-18T09:00:00+01:00')];
    const { at, values } = await firstRun(dir, clock);
    // The standing plan's room, the sent box's receiver and who read the message: as read, not as raw text.
    expect(values[0]).toMatchObject({
      TimetableEntries: [
        { Id: '7', Lesson: '12', Classroom: { id: '22', symbol: '22' } },
        { Id: '8', DayOfTheWeek: 2 },
      ],
    });
    expect(values[1]).toEqual([
      { id: '101', topic: 'Wycieczka', to: 'Anna Nowak', sendDate: '2026-11-17 18:00:00' },
      { id: '99', topic: '', to: undefined, sendDate: undefined },
    ]);
    // Next week's lessons, each reference with the names it carried.
    expect(values[3]).toMatchObject({ Timetable: { '2026-11-23': [[], [{ Lesson: '12', LessonNo: 2, Subject: { id: '5', name: 'Matematyka' } }]] } });
    await clock.advance(10 * MINUTE);
    expect(await restarted(dir, clock)).toEqual(values.map((value) => ({ value, at })));
  });

  it('leaves out a copy older than its age: the sent box after 8 hours, a week after a day, the standing plan after a week', async () => {
    const [dir, clock] = [await tempDir(), new FakeClock('2026-11-18T09:00:00+01:00')];
    const { values } = await firstRun(dir, clock);
    await clock.advance(9 * HOUR);
    expect((await restarted(dir, clock)).map((c) => c.value)).toEqual([values[0], undefined, undefined, values[3]]);
    await clock.advance(DAY);
    expect((await restarted(dir, clock)).map((c) => c.value)).toEqual([values[0], undefined, undefined, undefined]);
    await clock.advance(6 * DAY);
    expect((await restarted(dir, clock)).map((c) => c.value)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('reads again, rather than tells, a copy that no longer fits its shape or was read "in the future"', async () => {
    const [dir, clock] = [await tempDir(), new FakeClock('2026-11-18T09:00:00+01:00')];
    const { at, values } = await firstRun(dir, clock);
    const file = join(dir, 'copies', 'rodzic.ania.json');
    const copies = {
      TimetableEntries: { name: TIMETABLE_ENTRIES.name, at, value: { TimetableEntries: [{ Lesson: '12' }] } },
      [SENT_BOX.name]: { name: SENT_BOX.name, at: at + HOUR, value: values[1] },
      [`${SENT_MESSAGE.name} (101)`]: { name: SENT_MESSAGE.name, key: '101', at, value: values[2] },
    };
    await writeFile(file, JSON.stringify({ version: 1, copies }));
    expect((await restarted(dir, clock)).map((c) => c.value)).toEqual([undefined, undefined, values[2], undefined]);
  });

  it('writes only the copies within their age: a sent message no longer opened leaves the file', async () => {
    const [dir, clock] = [await tempDir(), new FakeClock('2026-11-18T09:00:00+01:00')];
    const { cache, kept } = run(dir, clock);
    cache.begin();
    for (const w of WANTS) await cache.read(w);
    cache.end();
    await clock.advance(30 * MINUTE);
    cache.begin();
    await cache.read(want(SENT_BOX));
    cache.end();
    kept.save();
    await kept.written;
    const file = JSON.parse(await readFile(join(dir, 'copies', 'rodzic.ania.json'), 'utf8')) as { copies: Record<string, unknown> };
    expect(Object.keys(file.copies)).toEqual([TIMETABLE_ENTRIES.name, SENT_BOX.name, `${TIMETABLE.name} (2026-11-23)`]);
  });
});
