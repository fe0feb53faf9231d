// The web server's memory of what the bridge published: every call still reaches the bridge, the
// pages see each child's name, class, availability and last states, with when they last changed, and
// the feed route each child's calendar feeds as last published.
import { describe, expect, it } from 'vitest';
import { WebMemory } from '../../../src/web/memory.js';
import type { Publisher } from '../../../src/bus/publisher.js';
import type { AgendaEntry, FeedContent, LessonEntry } from '../../../src/rules/calendar-feeds.js';
import { parseFeed } from '../../helpers/ics.js';

function recorder(): Publisher & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    setChild: (c) => void calls.push(`setChild ${c.id}`),
    removeChild: (id) => void calls.push(`removeChild ${id}`),
    setAvailability: (id, online) => void calls.push(`availability ${id} ${online}`),
    publishState: (id, key, s) => void calls.push(`state ${id} ${key} ${s.state}`),
    publishEvent: (id, kind) => void calls.push(`event ${id} ${kind}`),
    publishFeed: (id, name, content) => void calls.push(`feed ${id} ${name} ${content.entries.length}`),
  };
}

function memory() {
  const target = recorder();
  let now = 1_000;
  let connected = true;
  const m = new WebMemory({ target, language: 'pl', healthy: () => connected, now: () => now });
  return { m, target, tick: (ms: number) => (now += ms), disconnect: () => (connected = false) };
}

describe('WebMemory', () => {
  it('passes every call on to the bridge, in order', () => {
    const { m, target } = memory();
    m.setChild({ id: 'ania', name: 'Ania Kowalska', model: 'Klasa 4b', entities: [] });
    m.setAvailability('ania', true);
    m.publishState('ania', 'lucky_number', { state: '7' });
    void m.publishEvent('ania', 'grade', { event_type: 'new_grade' });
    m.publishFeed('ania', 'lessons', { child: 'Ania', entries: [lesson('Matematyka')] });
    m.removeChild('ania');
    expect(target.calls).toEqual([
      'setChild ania',
      'availability ania true',
      'state ania lucky_number 7',
      'event ania grade',
      'feed ania lessons 1',
      'removeChild ania',
    ]);
  });

  it('shows each child with its name, class, availability and last states', () => {
    const { m } = memory();
    m.setChild({ id: 'ania', name: 'Ania Kowalska', model: 'Klasa 4b', entities: [] });
    m.setAvailability('ania', true);
    m.publishState('ania', 'lucky_number', { state: '7', attributes: { date: '2026-11-23' } });
    m.publishState('ania', 'lucky_number', { state: '12' });
    m.publishState('bartek', 'unread_messages', { state: null });
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
    m.publishState('ania', 'lucky_number', { state: '7', attributes: { a: 1 } });
    expect(m.children()[0]?.changedAt).toBe(1_000);
    expect(calls).toBe(1);
    tick(60_000);
    m.publishState('ania', 'lucky_number', { state: '7', attributes: { a: 1 } });
    m.publishState('ania', 'lucky_number', { state: '7' });
    expect(m.children()[0]?.changedAt).toBe(1_000);
    expect(calls).toBe(1);
    m.publishState('ania', 'lucky_number', { state: '7', attributes: { a: 2 } });
    expect(m.children()[0]?.changedAt).toBe(61_000);
    tick(1_000);
    m.setAvailability('ania', true);
    expect(m.children()[0]?.changedAt).toBe(62_000);
    expect(calls).toBe(3);
    stop();
    m.publishState('ania', 'lucky_number', { state: '8' });
    expect(calls).toBe(3);
  });

  it('forgets a removed child (its id changed)', () => {
    const { m } = memory();
    m.publishState('1234567u', 'lucky_number', { state: '7' });
    m.removeChild('1234567u');
    m.publishState('ania', 'lucky_number', { state: '7' });
    expect(m.children().map((c) => c.id)).toEqual(['ania']);
  });

  it('a listener that throws does not stop publishing', () => {
    const { m, target } = memory();
    m.onChange(() => {
      throw new Error('page broke');
    });
    m.publishState('ania', 'lucky_number', { state: '7' });
    expect(target.calls).toEqual(['state ania lucky_number 7']);
  });

  it('serves the feeds as last published, Last-Modified moving only when the content does, and tells no page', () => {
    const { m, tick } = memory();
    m.setChild({ id: 'ania', name: 'Ania Kowalska', entities: [] });
    let calls = 0;
    m.onChange(() => calls++);
    // Before the first poll of the feeds: nothing (the route answers 503), never an empty calendar.
    expect(m.feed('ania', 'lessons')).toBeNull();

    tick(60_000);
    m.publishFeed('ania', 'lessons', { child: 'Ania', entries: [lesson('Matematyka')] });
    const first = m.feed('ania', 'lessons')!;
    expect(first.modifiedAt).toBe(61_000);
    expect(parseFeed(first.body).events.map((e) => [e.summary, e.start])).toEqual([['Matematyka', '2026-11-18T07:55:00.000Z']]);
    expect(parseFeed(m.feed('ania', 'lessons', 'en')!.body).name).toBe('Ania – lessons');
    // The other feeds are still unknown; an unknown child has none.
    expect(m.feed('ania', 'agenda')).toBeNull();
    expect(m.feed('zosia', 'lessons')).toBeUndefined();

    tick(60_000);
    m.publishFeed('ania', 'lessons', { child: 'Ania', entries: [lesson('Matematyka')] });
    expect(m.feed('ania', 'lessons')).toEqual(first);
    m.publishFeed('ania', 'lessons', { child: 'Ania', entries: [lesson('Fizyka')] });
    expect(m.feed('ania', 'lessons')?.modifiedAt).toBe(121_000);
    expect(parseFeed(m.feed('ania', 'lessons')!.body).events[0]?.summary).toBe('Fizyka');
    expect(m.keptFeed('ania', 'lessons')?.content.entries[0]?.subject).toBe('Fizyka');
    // No page shows a feed.
    expect(calls).toBe(0);
    expect(m.children()[0]).not.toHaveProperty('feeds');
    m.removeChild('ania');
    expect(m.feed('ania', 'lessons')).toBeUndefined();
  });

  it('takes a feed only by a name and with entries the feeds declare', () => {
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
    // @ts-expect-error -- misspelled: the feed is `lessons`
    m.publishFeed('ania', 'lesson', { child: 'Ania', entries: [lesson('Matematyka')] });
    // @ts-expect-error -- an agenda entry is no lesson
    m.publishFeed('ania', 'lessons', { child: 'Ania', entries: [agenda] });
    const content: FeedContent<'lessons'> = { child: 'Ania', entries: [lesson('Matematyka')] };
    // @ts-expect-error -- misspelled: the lesson's field is `subject`
    expect(content.entries[0]?.subjcet).toBeUndefined();
    m.publishFeed('ania', 'agenda', { child: 'Ania', entries: [agenda] });
    // @ts-expect-error -- misspelled: the kept feed's entries are under `content`
    expect(m.keptFeed('ania', 'agenda')?.entries).toBeUndefined();
    expect(m.keptFeed('ania', 'agenda')?.content.entries[0]?.kind).toBe('test');
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
    remark: null,
  };
}
