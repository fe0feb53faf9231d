// The bus: every sink hears what a pass publishes, in order, and takes only what it has a part for; a
// sink that fails is its own failure; an event is delivered by its carrier's answer, or at once without one.
import { describe, expect, it } from 'vitest';
import { Bus, type BusEvent, type Carrier, type Sink } from '../../../src/bus/bus.js';
import { WebSnapshot } from '../../../src/outputs/web/snapshot.js';
import { createLogger } from '../../../src/util/log.js';
import type { AgendaEntry } from '../../../src/rules/calendar-feeds.js';

function recorder(calls: string[]): Required<Sink> {
  return {
    device: (c) => void calls.push(`device ${c.id}`),
    removed: (id) => void calls.push(`removed ${id}`),
    availability: (id, online) => void calls.push(`availability ${id} ${online}`),
    state: (id, key, s) => void calls.push(`state ${id} ${key} ${s.state}`),
    event: (id, e) => void calls.push(`event ${id} ${e.kind}`),
    calendarFeed: (id, name, content) => void calls.push(`calendarFeed ${id} ${name} ${content.entries.length}`),
    year: (id, records) => void calls.push(`year ${id} ${records.name}`),
    askFacts: (id, facts) => void calls.push(`askFacts ${id} ${Object.keys(facts).join(' ')}`),
    passed: (id) => void calls.push(`passed ${id}`),
  };
}

const agenda: AgendaEntry = {
  uid: 'a1',
  kind: 'test',
  when: { date: '2026-11-20', last: '2026-11-20' },
  subject: 'Matematyka',
  text: 'Ułamki',
  label: 'Sprawdzian',
  teacher: null,
};
const grade: BusEvent = { kind: 'grade', id: 'e1', payload: { event_type: 'grade', child: 'ania', child_name: 'Ania', grade: '5' } };

describe('the bus', () => {
  it('tells every sink everything, in the order published, each taking only its parts', () => {
    const lines: string[] = [];
    const bus = new Bus(createLogger('info', { write: (l: string) => void lines.push(l) }));
    const calls: string[] = [];
    bus.subscribe(recorder(calls));
    const snapshot = new WebSnapshot({ language: 'pl', healthy: () => true, now: () => 1 });
    bus.subscribe(snapshot);
    bus.device({ id: 'ania', name: 'Ania Kowalska', model: 'Klasa 4b', entities: [] });
    bus.availability('ania', true);
    bus.state('ania', 'lucky_number', { state: '7' });
    expect(bus.event('ania', grade)).toBeUndefined();
    bus.calendarFeed('ania', 'agenda', { child: 'Ania', entries: [agenda] });
    bus.askFacts('ania', { lucky: { number: 7 } });
    bus.passed('ania');
    bus.removed('ania');
    expect(calls).toEqual([
      'device ania',
      'availability ania true',
      'state ania lucky_number 7',
      'event ania grade',
      'calendarFeed ania agenda 1',
      'askFacts ania lucky',
      'passed ania',
      'removed ania',
    ]);
    // The snapshot kept what it takes, and let the child go with its device.
    expect(snapshot.children()).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('a sink that throws is logged and the others still hear it; one unsubscribed hears nothing more', () => {
    const lines: string[] = [];
    const bus = new Bus(createLogger('info', { write: (l: string) => void lines.push(l) }));
    const calls: string[] = [];
    bus.subscribe({
      state: () => {
        throw new Error('the page broke');
      },
    });
    const unsubscribe = bus.subscribe(recorder(calls));
    bus.state('ania', 'lucky_number', { state: '7' });
    unsubscribe();
    bus.state('ania', 'lucky_number', { state: '8' });
    expect(calls).toEqual(['state ania lucky_number 7']);
    expect(lines.map((l) => JSON.parse(l) as { msg: string; err: string })).toEqual([
      expect.objectContaining({ err: 'the page broke', msg: 'an output failed to take what a pass published' }),
      expect.objectContaining({ err: 'the page broke' }),
    ]);
  });

  it("answers an event and 'delivered' with its carrier's acknowledgement", async () => {
    const bus = new Bus(createLogger('silent'));
    expect(await bus.delivered()).toBe(true);
    const answers: Array<(ok: boolean) => void> = [];
    const carried: string[] = [];
    const carrier: Carrier & Sink = {
      carry: (child, event) => {
        carried.push(`${child} ${event.id}`);
        return new Promise((resolve) => answers.push(resolve));
      },
      delivered: () => Promise.resolve(false),
    };
    const stop = bus.carryWith(carrier);
    const answered = bus.event('ania', grade);
    expect(carried).toEqual(['ania e1']);
    answers[0]?.(false);
    expect(await answered).toBe(false);
    expect(await bus.delivered()).toBe(false);
    stop();
    expect(bus.event('ania', grade)).toBeUndefined();
    expect(await bus.delivered()).toBe(true);
  });
});
