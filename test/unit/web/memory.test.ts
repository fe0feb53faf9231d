// The web server's memory of what the bridge published: every call still reaches the broker, and the
// pages see each child's name, class, availability and last states, with when they last changed.
import { describe, expect, it } from 'vitest';
import { WebMemory } from '../../../src/web/memory.js';
import type { Publisher } from '../../../src/ha/publisher.js';

function recorder(): Publisher & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    setChild: (c) => void calls.push(`setChild ${c.id}`),
    removeChild: (id) => void calls.push(`removeChild ${id}`),
    setAvailability: (id, online) => void calls.push(`availability ${id} ${online}`),
    publishState: (id, key, s) => void calls.push(`state ${id} ${key} ${s.state}`),
    publishEvent: (id, kind) => void calls.push(`event ${id} ${kind}`),
  };
}

function memory(feeds?: ConstructorParameters<typeof WebMemory>[0]['feeds']) {
  const target = recorder();
  let now = 1_000;
  let connected = true;
  const m = new WebMemory({ target, language: 'pl', healthy: () => connected, now: () => now, feeds });
  return { m, target, tick: (ms: number) => (now += ms), disconnect: () => (connected = false) };
}

describe('WebMemory', () => {
  it('passes every call on to the bridge, in order', () => {
    const { m, target } = memory();
    m.setChild({ id: 'ania', name: 'Ania Kowalska', model: 'Klasa 4b', entities: [] });
    m.setAvailability('ania', true);
    m.publishState('ania', 'lucky_number', { state: '7' });
    m.publishEvent('ania', 'grade', { event_type: 'new_grade' });
    m.removeChild('ania');
    expect(target.calls).toEqual(['setChild ania', 'availability ania true', 'state ania lucky_number 7', 'event ania grade', 'removeChild ania']);
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

  it('gives feeds only of known children, from the injected feeds', () => {
    const { m } = memory((child, name) => ({ body: `BEGIN:VCALENDAR ${child} ${name}`, modifiedAt: 5 }));
    m.setChild({ id: 'ania', name: 'Ania', entities: [] });
    expect(m.feed('ania', 'lessons')?.body).toBe('BEGIN:VCALENDAR ania lessons');
    expect(m.feed('zosia', 'lessons')).toBeUndefined();
    expect(memory().m.feed('ania', 'agenda')).toBeUndefined();
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
