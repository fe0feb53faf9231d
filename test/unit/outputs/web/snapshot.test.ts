// The web server's snapshot of what the bridge published (a sink of the bus, test/unit/bus/bus.test.ts): the
// pages see each child's name, class, availability and last states, with when they last changed, and
// the calendar feed route each child's calendar feeds as last published.
import { describe, expect, it } from 'vitest';
import { WebSnapshot } from '../../../../src/outputs/web/snapshot.js';
import type { AgendaEntry, CalendarFeedContent, LessonEntry } from '../../../../src/rules/calendar-feeds.js';
import { parseCalendarFeed } from '../../../helpers/ics.js';
import { upcomingTestsEntity } from '../../../../src/features/agenda/entities.js';

function memory() {
  let now = 1_000;
  let connected = true;
  const m = new WebSnapshot({ language: 'pl', healthy: () => connected, now: () => now });
  return { m, tick: (ms: number) => (now += ms), disconnect: () => (connected = false) };
}

describe('WebSnapshot', () => {
  it('shows each child with its name, class, availability and last states', () => {
    const { m } = memory();
    m.device({ id: 'ania', name: 'Ania Kowalska', model: 'Klasa 4b', entities: [] });
    m.availability('ania', true);
    m.state('ania', 'lucky_number', { state: '7', attributes: { date: '2026-11-23' } });
    m.state('ania', 'lucky_number', { state: '12' });
    m.state('bartek', 'unread_messages', { state: null });
    const [ania, bartek] = m.children();
    expect(ania).toMatchObject({ id: 'ania', name: 'Ania Kowalska', model: 'Klasa 4b', online: true });
    // Attributes left out stay as they were, as on MQTT.
    expect(ania?.states.get('lucky_number')).toEqual({ state: '12', attributes: { date: '2026-11-23' } });
    expect(bartek).toMatchObject({ id: 'bartek', name: null, model: null, online: false });
    expect(bartek?.states.get('unread_messages')?.state).toBeNull();
    expect(m.language).toBe('pl');
  });

  it('moves changedAt and tells listeners only when something changed', () => {
    const { m, tick } = memory();
    let calls = 0;
    const stop = m.onChange(() => calls++);
    m.state('ania', 'lucky_number', { state: '7', attributes: { a: 1 } });
    expect(m.children()[0]?.changedAt).toBe(1_000);
    expect(calls).toBe(1);
    tick(60_000);
    m.state('ania', 'lucky_number', { state: '7', attributes: { a: 1 } });
    m.state('ania', 'lucky_number', { state: '7' });
    expect(m.children()[0]?.changedAt).toBe(1_000);
    expect(calls).toBe(1);
    m.state('ania', 'lucky_number', { state: '7', attributes: { a: 2 } });
    expect(m.children()[0]?.changedAt).toBe(61_000);
    tick(1_000);
    m.availability('ania', true);
    expect(m.children()[0]?.changedAt).toBe(62_000);
    expect(calls).toBe(3);
    stop();
    m.state('ania', 'lucky_number', { state: '8' });
    expect(calls).toBe(3);
  });

  it('forgets a removed child (its id changed)', () => {
    const { m } = memory();
    m.state('1234567u', 'lucky_number', { state: '7' });
    m.removed('1234567u');
    m.state('ania', 'lucky_number', { state: '7' });
    expect(m.children().map((c) => c.id)).toEqual(['ania']);
  });

  it('a listener that throws does not stop keeping what is published, nor the other listeners', () => {
    const { m } = memory();
    let heard = 0;
    m.onChange(() => {
      throw new Error('page broke');
    });
    m.onChange(() => void heard++);
    m.state('ania', 'lucky_number', { state: '7' });
    m.state('ania', 'lucky_number', { state: '8' });
    expect(m.children()[0]?.states.get('lucky_number')?.state).toBe('8');
    expect(heard).toBe(2);
  });

  it('serves the calendar feeds as last published, Last-Modified moving only when the content does, and tells no page', () => {
    const { m, tick } = memory();
    // Her device declares the agenda: she has each calendar feed.
    m.device({ id: 'ania', name: 'Ania Kowalska', entities: [upcomingTestsEntity] });
    let calls = 0;
    m.onChange(() => calls++);
    // Before the first pass of the calendar feeds: nothing (the route answers 503), never an empty calendar.
    expect(m.calendarFeedSource('ania', 'lessons')).toBeNull();

    tick(60_000);
    m.calendarFeed('ania', 'lessons', { child: 'Ania', entries: [lesson('Matematyka')] });
    const first = m.calendarFeedSource('ania', 'lessons')!;
    expect(first.modifiedAt).toBe(61_000);
    expect(parseCalendarFeed(first.body).events.map((e) => [e.summary, e.start])).toEqual([['Matematyka', '2026-11-18T07:55:00.000Z']]);
    expect(parseCalendarFeed(m.calendarFeedSource('ania', 'lessons', 'en')!.body).name).toBe('Ania – lessons');
    // The other calendar feeds are still unknown; an unknown child has none.
    expect(m.calendarFeedSource('ania', 'agenda')).toBeNull();
    expect(m.calendarFeedSource('zosia', 'lessons')).toBeUndefined();

    tick(60_000);
    m.calendarFeed('ania', 'lessons', { child: 'Ania', entries: [lesson('Matematyka')] });
    expect(m.calendarFeedSource('ania', 'lessons')).toEqual(first);
    m.calendarFeed('ania', 'lessons', { child: 'Ania', entries: [lesson('Fizyka')] });
    expect(m.calendarFeedSource('ania', 'lessons')?.modifiedAt).toBe(121_000);
    expect(parseCalendarFeed(m.calendarFeedSource('ania', 'lessons')!.body).events[0]?.summary).toBe('Fizyka');
    expect(m.keptCalendarFeed('ania', 'lessons')?.content.entries[0]?.subject).toBe('Fizyka');
    // No page shows a calendar feed.
    expect(calls).toBe(0);
    expect(m.children()[0]).not.toHaveProperty('calendarFeedContents');
    m.removed('ania');
    expect(m.calendarFeedSource('ania', 'lessons')).toBeUndefined();
  });

  it("serves no agenda calendar feed of a child whose device declares no agenda (a kindergarten child's), and says so to the board", () => {
    const { m } = memory();
    m.device({ id: 'zofia', name: 'Zofia Kowalska', entities: [] });
    m.calendarFeed('zofia', 'agenda', { child: 'Zofia', entries: [] });
    m.calendarFeed('zofia', 'lessons', { child: 'Zofia', entries: [lesson('rytmika')] });
    expect(m.calendarFeedSource('zofia', 'agenda')).toBeUndefined();
    expect(m.calendarFeedSource('zofia', 'lessons')).not.toBeNull();
    expect(m.children()[0]?.calendarFeeds).toEqual(['lessons', 'free-days']);
    // Her device declaring the agenda after all (a pupil after all): the calendar feed is served.
    m.device({ id: 'zofia', name: 'Zofia Kowalska', entities: [upcomingTestsEntity] });
    expect(m.calendarFeedSource('zofia', 'agenda')).not.toBeUndefined();
    expect(m.children()[0]?.calendarFeeds).toEqual(['lessons', 'agenda', 'free-days']);
  });

  it('takes a calendar feed only by a name and with entries the calendar feeds declare', () => {
    const { m } = memory();
    const agenda: AgendaEntry = {
      uid: 'agenda-7.ania@dziennik2mqtt',
      kind: 'test',
      when: { date: '2026-11-24', last: '2026-11-24' },
      subject: 'Matematyka',
      text: null,
      label: null,
      teacher: null,
    };
    // @ts-expect-error -- misspelled: the calendar feed is `lessons`
    m.calendarFeed('ania', 'lesson', { child: 'Ania', entries: [lesson('Matematyka')] });
    // @ts-expect-error -- an agenda entry is no lesson
    m.calendarFeed('ania', 'lessons', { child: 'Ania', entries: [agenda] });
    const content: CalendarFeedContent<'lessons'> = { child: 'Ania', entries: [lesson('Matematyka')] };
    // @ts-expect-error -- misspelled: the lesson's field is `subject`
    expect(content.entries[0]?.subjcet).toBeUndefined();
    m.calendarFeed('ania', 'agenda', { child: 'Ania', entries: [agenda] });
    // @ts-expect-error -- misspelled: the kept calendar feed's entries are under `content`
    expect(m.keptCalendarFeed('ania', 'agenda')?.entries).toBeUndefined();
    expect(m.keptCalendarFeed('ania', 'agenda')?.content.entries[0]?.kind).toBe('test');
  });

  it('reports health and time from the bridge', () => {
    const { m, disconnect, tick } = memory();
    expect(m.healthy()).toBe(true);
    disconnect();
    expect(m.healthy()).toBe(false);
    tick(5);
    expect(m.now()).toBe(1_005);
  });
});

/** A lesson on Wednesday 18 November 2026, 08:55-09:40 in Warsaw. */
function lesson(subject: string): LessonEntry {
  return {
    uid: `lesson-2026-11-18-2.ania@dziennik2mqtt`,
    when: { date: '2026-11-18', from: '08:55', to: '09:40' },
    lessonNo: 2,
    subject,
    teacher: null,
    room: null,
    change: null,
    original_subject: undefined,
    original_teacher: undefined,
    original_room: undefined,
    extra: undefined,
    remark: null,
  };
}
