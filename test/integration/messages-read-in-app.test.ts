// A message the parent already read in the register's own app (issue 36, item 1): its unread counter
// never changes, so only the mailbox list's age brings it: news to the other parent, not urgent (issue 47
// decides it), so within four hours by day. Against the real bridge at the default schedule, the
// simulator's clock and a real broker.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';
import type { PayloadOf } from '../../src/features/kit/contract.js';
import type { messageEvent } from '../../src/features/messages/messages.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// The second lesson of a Wednesday (school_interval 5 minutes, the unread counters every 3).
const school = simulatedSchool('2026-11-18T09:11:30+01:00');

describe('a message read in the app before the bridge looked', () => {
  it('fires its message event once, with read: true, and becomes newest_message, within four hours by day', async () => {
    const h = await school.firstPasses(['unread_messages', 'newest_message']);
    const unread = h.state('ania', 'unread_messages');
    const added = school.sim.messaging.addMessage(ANIA.login, {
      topic: 'Wycieczka do muzeum',
      body: 'Proszę o zgodę do piątku.',
      from: 162001,
      read: true,
    });
    const topic = `${h.base}/ania/event/message`;
    const before = h.rec.on(topic).length;
    // The inbox's list is at most four hours old (and its eighth) by day: the event within 270 minutes
    // (passed from timer to timer, every pass on the way run and published).
    await h.advanceMinutes(270);
    expect(h.rec.on(topic).length - before).toBe(1);
    const events = h.rec
      .on(topic)
      .slice(before)
      .map((m) => JSON.parse(m.text) as PayloadOf<typeof messageEvent>);
    expect(events.map((e) => ({ id: e.id, topic: e.topic, read: e.read }))).toEqual([
      { id: String(added.id), topic: 'Wycieczka do muzeum', read: true },
    ]);
    expect(h.state('ania', 'unread_messages')).toBe(unread); // the counter never told
    expect(h.state('ania', 'newest_message')).toBe('Wycieczka do muzeum');
    expect(h.attributes('ania', 'newest_message')).toMatchObject({ id: String(added.id), read: true });
    await h.advanceMinutes(30);
    expect(h.rec.on(topic).length - before).toBe(1);
  }, 120_000);
});
