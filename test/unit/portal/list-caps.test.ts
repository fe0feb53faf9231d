// Every list a portal answer holds is cut to its resource's most before anything works on it (interface 19.2): the
// standing plan's 28,000 entries become its 2,000, a mailbox answering 5,000 messages for ten asked its 100, and
// each cut is one log line however often the portal sends it again.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ResourceCache } from '../../../src/engine/cache.js';
import { want } from '../../../src/engine/resource.js';
import { INBOX } from '../../../src/engine/resources/messaging.js';
import { STANDING_ENTRIES_MAX, TIMETABLE_ENTRIES } from '../../../src/features/timetable/resources.js';
import { capLists, cutListsInText, type ListCap } from '../../../src/portal/list-caps.js';
import { ChangeFeed, CHANGES_MAX } from '../../../src/portal/change-feed.js';
import { MAILBOX_MAX, MessagesApi } from '../../../src/portal/messaging-api.js';
import type { MessagingClient } from '../../../src/portal/messaging.js';
import type { Gateway } from '../../../src/portal/gateway.js';
import * as z from 'zod';
import { DEMO_ACCOUNTS, type PortalSimulator } from '../../../src/simulator/index.js';
import { FakeClock } from '../../helpers/clock.js';
import { portalClient, simulatorPerTest } from '../../helpers/portal.js';
import { LogSink } from '../../helpers/faults.js';

const entries = (n: number) => Array.from({ length: n }, (_, i) => ({ Id: i + 1, Lesson: { Id: '1' }, DayOfTheWeek: 1, LessonNo: i + 1 }));
const messages = (n: number) => Array.from({ length: n }, (_, i) => ({ messageId: String(i + 1), topic: `t${i}`, readDate: null }));

/** A cache over a gateway answering `answer` and a messaging host answering `mailbox`, logging into `logs`. */
function cacheOver(answer: () => unknown, mailbox: () => unknown, logs: LogSink) {
  // As the gateway reads an answer: each list cut to the most the resource asks (the text cut itself is held below).
  const gateway = {
    get: async (_e: string, schema: { parse(v: unknown): unknown }, { lists }: { lists?: ListCap } = {}) =>
      schema.parse(lists === undefined ? answer() : capLists(answer(), lists.max, lists.cut)),
  } as unknown as Gateway;
  const client = { get: async () => mailbox(), available: true } as unknown as MessagingClient;
  const clock = new FakeClock('2026-11-18T09:00:00+01:00');
  const portal = { gateway, messages: new MessagesApi(client, 'ania'), identity: () => undefined, clock, log: logs.logger('info') };
  return new ResourceCache({ portal, resources: [TIMETABLE_ENTRIES, INBOX] });
}

describe('a portal list cut to its most', () => {
  it('cuts every list to the most, keeping the first, and says where and how many', () => {
    const cuts: string[] = [];
    const answer = { Outer: [1, 2, 3, 4], Week: { '2026-11-16': [[1, 2, 3], [1]] }, Short: [1] };
    expect(capLists(answer, 2, (at, listed) => cuts.push(`${at} ${listed}`))).toEqual({
      Outer: [1, 2],
      Week: { '2026-11-16': [[1, 2], [1]] },
      Short: [1],
    });
    expect(cuts).toEqual(['Outer 4', 'Week.2026-11-16 3']);
  });

  it("cuts the lists in an answer's text as capLists cuts the parsed answer, telling the same cuts in the same order", () => {
    const json = fc.jsonValue({ maxDepth: 6 });
    fc.assert(
      fc.property(json, fc.integer({ min: 0, max: 4 }), fc.boolean(), (value, max, spaced) => {
        const text = Buffer.from(JSON.stringify(value, null, spaced ? 1 : undefined));
        const fromText: string[] = [];
        const fromParsed: string[] = [];
        const cutText = cutListsInText(text, max, (at, listed) => fromText.push(`${at} ${listed}`)).toString('utf8');
        expect(JSON.parse(cutText)).toEqual(capLists(JSON.parse(text.toString('utf8')), max, (at, listed) => fromParsed.push(`${at} ${listed}`)));
        expect(fromText).toEqual(fromParsed);
      }),
      { numRuns: 400 },
    );
  });

  it('hands back text that is not JSON as it came, telling no cut', () => {
    const cuts: string[] = [];
    for (const broken of ['[1,2,3,4,5,6', '{"a":[1,2,3,4,5,6]]', '["1,2,3,4,5,6]']) {
      const bytes = Buffer.from(broken);
      expect(cutListsInText(bytes, 2, (at) => cuts.push(at))).toBe(bytes);
    }
    expect(cuts).toEqual([]);
  });

  it('reads 28,000 standing-plan entries as its 2,000 and a mailbox of 5,000 as its 100, each cut told once', async () => {
    const logs = new LogSink();
    const cache = cacheOver(
      () => ({ TimetableEntries: entries(28_000) }),
      () => ({ data: messages(5_000), total: 5_000 }),
      logs,
    );
    for (let pass = 0; pass < 2; pass++) {
      cache.begin();
      await cache.read(want(TIMETABLE_ENTRIES));
      await cache.read(want(INBOX));
      cache.end();
    }
    expect(cache.peek(TIMETABLE_ENTRIES)?.TimetableEntries).toHaveLength(STANDING_ENTRIES_MAX);
    expect(cache.peek(INBOX)?.items).toHaveLength(MAILBOX_MAX);
    const cut = logs.matching(/a portal list cut at its most/);
    expect(cut).toHaveLength(2);
    expect(cut[0]).toMatch(/"resource":"TimetableEntries","list":"TimetableEntries","listed":28000,"kept":2000/);
    expect(cut[1]).toMatch(/"resource":"messaging inbox\/messages","list":"data","listed":5000,"kept":100/);
  });

  it('reads at most 1,000 of 5,000 changes the change feed lists, the rest left listed for the next read', async () => {
    const listed = Array.from({ length: 5_000 }, (_, i) => ({ Id: String(100_000 + i), Type: 'Add', Resource: { Type: 'Grades', Id: String(i) } }));
    const gateway = { answer: async () => ({ status: 200, json: { Changes: listed, ChangesTimestamp: 1 } }) } as unknown as Gateway;
    const cuts: string[] = [];
    const read = await new ChangeFeed({ gateway, account: 'ania' }).changes('device', (at, n) => cuts.push(`${at} ${n}`));
    expect(read.changes.map((c) => c.id)).toEqual(listed.slice(0, CHANGES_MAX).map((c) => c.Id));
    expect(cuts).toEqual(['Changes 5000']);
  });

  describe('through the gateway, from the simulator', () => {
    let sim: PortalSimulator;
    let clock: FakeClock;
    simulatorPerTest((world) => ({ sim, clock } = world));
    const [ania] = DEMO_ACCOUNTS;

    it("cuts the hostile standing plan's 33,000 entries in the answer's text: the schema is handed its first 2,000", async () => {
      sim.account(ania!.login).serveHostileStandingTimetable();
      const { gateway } = portalClient({ sim, clock, login: ania!.login, password: ania!.password, dispatcher: sim.dispatcher() });
      const cuts: string[] = [];
      const seen: number[] = [];
      // A schema that reads nothing but counts what it is handed: no cut but the text's is between them.
      const counting = z.unknown().transform((json) => (seen.push((json as { TimetableEntries: unknown[] }).TimetableEntries.length), json));
      const lists = { max: STANDING_ENTRIES_MAX, cut: (at: string, listed: number) => void cuts.push(`${at} ${listed}`) };
      const answer = (await gateway.get('TimetableEntries', counting, { lists })) as { TimetableEntries: { Id: number }[] };
      expect(seen).toEqual([STANDING_ENTRIES_MAX]);
      expect(answer.TimetableEntries.map((e) => e.Id)).toEqual(Array.from({ length: STANDING_ENTRIES_MAX }, (_, i) => i + 1));
      expect(cuts).toEqual(['TimetableEntries 33000']);
    });
  });
});
