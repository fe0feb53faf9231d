// Each property held against the reference model can fail on a fault in the product's own code (interface 19.1,
// "Done when"): a mutation is planted in how the bridge reads the portal (its schemas, src/portal/schemas/, wrapped
// here by vi.mock), not in what a door is fed, and a property against the model fails in a generated world, while
// the same world holds unplanted. The mutations are the faults issue 120 found, put back after their fixes:
// TimeTo ignored, the standing plan's own entry unknown (one entry a slot, the first), the lessons missed
// within 14 days alone, a message without a subject dropped; and the agenda's category not read (the tests of the
// coming days), an announcement's subject not read (its event), each first lesson read as cancelled and a lesson moved
// away read as held where it left (the lessons feed, both ways); and another
// class's free day taken for the child's (a class changed within the year).
//
// Budget: each mutation stops at the first world it fails in among worlds drawn to have what it breaks (a few tens
// of passes at most), then runs that world unplanted: about 10 s of CPU in all (the worlds' share, worlds.test.ts).
import { describe, expect, it, vi } from 'vitest';
import type * as agenda from '../../../src/portal/schemas/agenda.js';
import type * as calendar from '../../../src/portal/schemas/calendar.js';
import type * as attendance from '../../../src/portal/schemas/attendance.js';
import type * as grades from '../../../src/portal/schemas/grades.js';
import type * as messages from '../../../src/portal/schemas/messages.js';
import type * as notices from '../../../src/portal/schemas/notices.js';
import type * as timetable from '../../../src/portal/schemas/timetable.js';
import { TRUTHS } from '../../helpers/worlds/truths.js';
import { SEED, WorldFailure, Worlds } from '../../helpers/worlds/suite.js';
import { worldArb, type ChildWorld, type World } from '../../helpers/worlds/world.js';

type Row = Record<string, unknown>;

/**
 * The mutation planted now (none: the product as it is), and a schema changed while one is: each record of its list
 * as `change` makes it. Hoisted with the mocks that use it.
 */
const { planted, mutated } = vi.hoisted(() => {
  const planted = { now: undefined as string | undefined };
  const mutated =
    (name: string, key: string, change: (rows: Row[]) => Row[]) =>
    <S extends { transform: (f: (value: unknown) => unknown) => unknown }>(schema: S): S =>
      schema.transform((value: unknown) => {
        if (planted.now !== name) return value;
        const out = value as Row;
        return { ...out, [key]: change(out[key] as Row[]) };
      }) as S;
  return { planted, mutated };
});

vi.mock('../../../src/portal/schemas/agenda.js', async (original) => {
  const real = await original<typeof agenda>();
  const withoutEnd = mutated('TimeTo ignored', 'HomeWorks', (rows) => rows.map(({ TimeTo: _end, ...row }) => row));
  // A test known by its content alone: the entry's category not read.
  const uncategorised = mutated("the agenda's category not read", 'HomeWorks', (rows) => rows.map(({ Category: _category, ...row }) => row));
  return { ...real, homeWorksResponse: uncategorised(withoutEnd(real.homeWorksResponse)) };
});
vi.mock('../../../src/portal/schemas/timetable.js', async (original) => {
  const real = await original<typeof timetable>();
  // One entry a slot, the first: a split class's other group, where it comes first, is taken for the child's own.
  const bySlot = mutated('the standing plan by slot alone', 'TimetableEntries', (rows) => {
    const slots = new Set<string>();
    return rows.filter((row) => {
      const slot = `${String(row.DayOfTheWeek)} ${String(row.LessonNo)}`;
      if (slots.has(slot)) return false;
      slots.add(slot);
      return true;
    });
  });
  // Each day's first lesson read as cancelled, whatever the timetable says of it.
  const firstOff = mutated('each first lesson read as cancelled', 'Timetable', (days) => {
    const week = days as unknown as Record<string, Row[][]>;
    const first = (slots: Row[][]) => slots.findIndex((slot) => slot.length > 0);
    return Object.fromEntries(
      Object.entries(week).map(([date, slots]) => [
        date,
        slots.map((slot, i) => (i === first(slots) ? slot.map((l) => ({ ...l, IsCanceled: true })) : slot)),
      ]),
    ) as unknown as Row[];
  });
  // A lesson moved away read as held where it left: the timetable's IsCanceled and the move's new day and number not
  // read (a cancellation the year's list carries is still told by the list).
  const unmoved = mutated('a lesson moved away read as held', 'Timetable', (days) => {
    const week = days as unknown as Record<string, Row[][]>;
    const held = ({ NewDate: _day, NewLessonNo: _no, ...l }: Row): Row => ({ ...l, IsCanceled: false });
    return Object.fromEntries(Object.entries(week).map(([date, slots]) => [date, slots.map((slot) => slot.map(held))])) as unknown as Row[];
  });
  return {
    ...real,
    timetableEntriesResponse: bySlot(real.timetableEntriesResponse),
    timetablesResponse: unmoved(firstOff(real.timetablesResponse)),
  };
});
vi.mock('../../../src/portal/schemas/attendance.js', async (original) => {
  const real = await original<typeof attendance>();
  // The marks of the last 14 days before the newest alone.
  const recent = mutated('the lessons missed within 14 days alone', 'Attendances', (rows) => {
    const newest = rows.reduce((last, r) => (String(r.Date) > last ? String(r.Date) : last), '');
    const since = new Date(Date.parse(`${newest}T00:00:00Z`) - 14 * 86_400_000).toISOString().slice(0, 10);
    return rows.filter((r) => String(r.Date) >= since);
  });
  return { ...real, attendancesResponse: recent(real.attendancesResponse) };
});
vi.mock('../../../src/portal/schemas/messages.js', async (original) => {
  const real = await original<typeof messages>();
  const titled = mutated('a message without a subject dropped', 'items', (rows) => rows.filter((m) => String(m.topic).trim() !== ''));
  return { ...real, messageListResponse: titled(real.messageListResponse) };
});

vi.mock('../../../src/portal/schemas/notices.js', async (original) => {
  const real = await original<typeof notices>();
  const untitled = mutated("an announcement's subject not read", 'SchoolNotices', (rows) => rows.map((row) => ({ ...row, Subject: '' })));
  return { ...real, noticesResponse: untitled(real.noticesResponse) };
});

vi.mock('../../../src/portal/schemas/calendar.js', async (original) => {
  const real = await original<typeof calendar>();
  // Every class's free day taken for the child's class (the last listed, the class it moved to in a world that moved it).
  const anyClass = mutated("another class's free day taken for the child's", 'ClassFreeDays', (rows) =>
    rows.map((row) => ({ ...row, Class: rows.at(-1)?.Class })),
  );
  return { ...real, classFreeDaysResponse: anyClass(real.classFreeDaysResponse) };
});

vi.mock('../../../src/portal/schemas/grades.js', async (original) => {
  const real = await original<typeof grades>();
  const allCount = mutated('every category counted', 'Categories', (rows) => rows.map((row) => ({ ...row, CountToTheAverage: true })));
  return { ...real, gradeCategoriesResponse: allCount(real.gradeCategoriesResponse) };
});

/** A grade on the 1 to 6 scale (no mark the spec leaves out of the average). */
const SCALE = /^[1-6][+-]?$/;

/** Each mutation, the property against the model it fails, and the worlds that carry what it breaks. */
const MUTATIONS: { name: string; property: string; has: (c: ChildWorld) => boolean }[] = [
  { name: 'TimeTo ignored', property: 'an agenda entry starts and ends when the school says', has: (c) => c.agenda.some((a) => a.end === 'late') },
  {
    name: 'the standing plan by slot alone',
    property: 'the standing plan differs where the plan and the day differ',
    has: (c) => c.groups.length > 0,
  },
  {
    name: 'TimeTo ignored',
    property: 'an event tells the record it is of',
    has: (c) => c.news.some((n) => n.kind === 'agenda' && n.entry.end === 'late' && n.entry.days >= 0),
  },
  {
    name: "the agenda's category not read",
    property: 'the tests of the next seven days are named',
    has: (c) => c.agenda.some((a) => a.days >= 0 && a.days <= 7),
  },
  {
    name: 'the standing plan by slot alone',
    property: 'the board tells the standing plan as the plan and the day differ',
    has: (c) => c.groups.length > 0,
  },
  {
    name: 'the lessons missed within 14 days alone',
    property: 'the lessons missed on a day are told',
    has: (c) => c.absences.some((a) => a.daysAgo > 12),
  },
  {
    name: 'each first lesson read as cancelled',
    property: 'the lessons feed cancels what the timetable does',
    has: () => true,
  },
  {
    name: 'a lesson moved away read as held',
    property: 'the lessons feed cancels what the timetable does',
    has: (c) => c.changes.some((ch) => ch.kind === 'moved'),
  },
  {
    name: "another class's free day taken for the child's",
    property: "a day's lessons as the timetable holds them",
    has: (c) => c.movedClass !== null && c.movedClass.oldClassTrip >= 0,
  },
  {
    name: "an announcement's subject not read",
    property: 'an event tells the record it is of',
    has: (c) => c.news.some((n) => n.kind === 'notice'),
  },
  // Not one of issue 120's: a fault the product does not have, so that a mutation is seen failing a property that holds.
  {
    name: 'every category counted',
    property: 'a grade counts as the spec says',
    has: (c) =>
      c.grades.every((g) => SCALE.test(g.value) && g.period === 'ordinary' && !g.corrects) &&
      c.grades.some((g) => typeof g.category === 'object' && g.category.weight === null),
  },
  {
    name: 'a message without a subject dropped',
    property: 'every unread message is told',
    has: (c) => c.messages.some((m) => m.mailbox === 'inbox' && !m.read && m.subject.trim() === '' && m.hoursAgo < 72),
  },
];

/** `use` with worlds of their own (a fresh simulator, no world run before). */
async function inWorlds<T>(use: (worlds: Worlds) => Promise<T>): Promise<T> {
  const worlds = new Worlds();
  await worlds.start();
  try {
    return await use(worlds);
  } finally {
    await worlds.stop();
  }
}

describe('a mutation planted in how the bridge reads the portal', () => {
  for (const mutation of MUTATIONS) {
    const property = TRUTHS.find((p) => p.name === mutation.property);
    const carrying = worldArb.filter((w) => w.children.some((c) => c.kind === 'pupil' && mutation.has(c)));

    it(`"${mutation.name}" fails "${mutation.property}", and that world holds without it`, async () => {
      expect(property, mutation.property).toBeDefined();
      const error = await inWorlds(async (worlds) => {
        planted.now = mutation.name;
        return worlds
          .check(property!, { runs: 30, seed: SEED, shrink: false, arb: carrying })
          .then(
            () => undefined,
            (e: unknown) => e,
          )
          .finally(() => (planted.now = undefined));
      });
      expect(error, `${mutation.name}: no world failed "${mutation.property}"`).toBeInstanceOf(WorldFailure);
      const world = (error as WorldFailure).world as World;
      // A fresh bridge, unplanted, on the same world: the mutation, not another fault, is what failed it.
      expect(await inWorlds(async (worlds) => property!.check(await worlds.doors(world)))).toEqual([]);
    }, 300_000);
  }
});
