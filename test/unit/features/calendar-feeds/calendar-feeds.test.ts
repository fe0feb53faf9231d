// The calendar feeds feature: its entries follow the timetable's and the agenda's outputs, and once
// published (as the account runner does) their changedAt (the calendar feeds' Last-Modified) moves only when the
// content does. That a calendar feed's text is made again only then is test/unit/outputs/web/calendar-feeds.test.ts's.
import { describe, expect, it } from 'vitest';
import { calendarFeeds } from '../../../../src/features/calendar-feeds/calendar-feeds.js';
import type { FeatureAccess } from '../../../../src/features/feature.js';
import type { TimetableOutput } from '../../../../src/features/timetable/entities.js';
import type { AgendaOutput } from '../../../../src/features/agenda/agenda.js';
import type { AgendaItem } from '../../../../src/rules/agenda.js';
import type { Inputs, SourceContext } from '../../../../src/engine/source.js';
import type { Events } from '../../../../src/features/kit/contract.js';
import type { freeDay } from '../../../../src/features/timetable/entities.js';
import { freeDayEvents } from '../../../../src/rules/schooldays.js';
import type { Identity } from '../../../../src/engine/identity.js';
import type { CalendarFeedsState } from '../../../../src/features/calendar-feeds/calendar-feeds.js';
import type { CalendarFeedName } from '../../../../src/rules/calendar-feeds.js';
import { publishCalendarFeeds } from '../../../../src/runner/coordinator.js';
import { WebSnapshot } from '../../../../src/outputs/web/snapshot.js';
import { Bus } from '../../../../src/bus/bus.js';
import { silentLogger } from '../../../../src/util/log.js';

const identity = { firstName: 'Ania', lastName: 'Kowalska', userId: '1', fetchedAt: 0 } as Identity;
const access = (id?: string) => ({ identity: () => identity, childId: () => id ?? 'ania' }) as unknown as FeatureAccess;

const timetable: TimetableOutput = {
  days: {},
  nextSchoolDay: null,
  fortnight: [],
  bells: [],
  freeDays: [{ id: '4', name: 'Ferie zimowe', scope: 'school', from: '2027-02-15', to: '2027-02-28', lessons: null }],
};
const test = (content: string): AgendaItem => ({
  key: 'agenda:7',
  kind: 'test',
  date: '2026-11-24',
  until: null,
  time: '08:55',
  time_to: null,
  subject: 'Matematyka',
  category: 'Sprawdzian',
  content,
  teacher: null,
});
const agenda = (content: string): AgendaOutput => ({ tests: [], items: [test(content)], homework: [] });

const ctx = (now: number, inputs: Inputs) => ({ now, inputs }) as unknown as SourceContext;

/** The feature's passes published on the bus as the account runner publishes them, into the web server's snapshot. */
function published(state: CalendarFeedsState) {
  let now = 0;
  const memory = new WebSnapshot({ language: 'pl', healthy: () => true, now: () => now });
  const bus = new Bus(silentLogger());
  bus.subscribe(memory);
  return {
    compute: async (at: number, inputs: Inputs) => {
      now = at;
      publishCalendarFeeds(bus, 'ania', (await state.compute(ctx(at, inputs))).calendarFeeds ?? {});
    },
    content: (name: CalendarFeedName) => memory.keptCalendarFeed('ania', name),
  };
}

describe('calendar feeds feature', () => {
  it('keeps changedAt while the content stands and moves it when it changes, calendar feed by calendar feed', async () => {
    const state = published(calendarFeeds.create(access()));
    expect(state.content('agenda')).toBeUndefined();
    await state.compute(1000, { timetable, agenda: agenda('Ułamki') });
    await state.compute(2000, { timetable, agenda: agenda('Ułamki') });
    expect(state.content('agenda')?.changedAt).toBe(1000);
    await state.compute(3000, { timetable, agenda: agenda('Ułamki i procenty') });
    expect(state.content('agenda')?.changedAt).toBe(3000);
    expect(state.content('free-days')?.changedAt).toBe(1000);
    expect(state.content('agenda')?.content.entries).toEqual([
      expect.objectContaining({ uid: 'agenda-7.ania@dziennik2mqtt', text: 'Ułamki i procenty' }),
    ]);
  });

  it('reads its inputs by the names and types their features declare', async () => {
    const state = calendarFeeds.create(access());
    // @ts-expect-error -- misspelled: the timetable's output is named `timetable`
    const result = await state.compute(ctx(1000, { timetabel: timetable, agenda: agenda('Ułamki') }));
    expect(result.calendarFeeds?.lessons).toBeUndefined();
    const weeks = (inputs: Inputs) => inputs.timetable?.fortnight.length;
    expect(weeks({ timetable })).toBe(0);
    // @ts-expect-error -- no feature publishes an output named `timetabel`
    expect(((inputs: Inputs) => inputs.timetabel)({ timetable })).toBeUndefined();
  });

  it("knows the free days' event, which the free-days calendar feed mirrors, by the kind and fields the timetable declares", () => {
    const events: Events<typeof freeDay> = { free_day: freeDayEvents(timetable.freeDays, '2026-11-23') };
    expect(events.free_day?.[0]?.payload).toMatchObject({ name: 'Ferie zimowe', from: '2027-02-15', lessons_from: null });
    // @ts-expect-error -- misspelled: the event is free_day
    const misspelled: Events<typeof freeDay> = { free_dya: [] };
    expect(misspelled).not.toHaveProperty('free_day');
    // @ts-expect-error -- misspelled: the field is lessons_from
    expect(events.free_day?.[0]?.payload.lesons_from).toBeUndefined();
  });

  it("shows nothing before the timetable's first pass rather than an empty week", async () => {
    const state = calendarFeeds.create(access());
    const result = await state.compute(ctx(1000, { agenda: agenda('Ułamki') }));
    expect(result.calendarFeeds?.lessons).toBeUndefined();
  });

  it("names UIDs after the configured child id, and each calendar after the child's first name", async () => {
    const state = calendarFeeds.create(access('ania2'));
    const { calendarFeeds: served } = await state.compute(ctx(1000, { timetable, agenda: agenda('Ułamki') }));
    expect(served?.['free-days']?.entries[0]?.uid).toBe('free-school-4.ania2@dziennik2mqtt');
    expect(served?.lessons?.child).toBe('Ania');
  });
});
