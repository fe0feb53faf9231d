// A mailbox read down to the last message already told (interface 19.2, issue 121 item 6): however many messages came
// between two reads, each is told once by its own `message` event, or counted in one flood event (interface 18.4).
// The inbox's list used to be its newest ten alone: 15 new messages made 10 events and 5 were never told. Against
// the running bridge, the simulated portal and the real broker.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';
import type { Harness } from '../helpers/app.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// The second lesson of a Wednesday (the unread counters every 3 minutes).
const school = simulatedSchool('2026-11-18T09:11:30+01:00');

type Told = { id?: string; count?: number; entries?: { id: string }[] };
const told = (h: Harness): Told[] => h.rec.on(`${h.base}/ania/event/message`).map((m) => JSON.parse(m.text) as Told);

/** `n` new unread messages in Ania's inbox; their ids. */
function newMessages(n: number, label: string): string[] {
  return Array.from({ length: n }, (_, i) =>
    String(school.sim.messaging.addMessage(ANIA.login, { topic: `${label} ${i + 1}`, body: `Wiadomość ${i + 1}.`, from: 162001 }).id),
  );
}

describe('a mailbox read down to the last message told', () => {
  it('15 new messages are 15 events, each once; then 40 are one flood event counting 40', async () => {
    const h = await school.firstPasses(['unread_messages', 'newest_message']);
    const before = told(h).length;

    const fifteen = newMessages(15, 'Informacja');
    await h.advanceMinutes(10);
    const first = told(h).slice(before);
    expect(first.map((e) => e.id).sort()).toEqual([...fifteen].sort());

    const forty = newMessages(40, 'Ogłoszenie');
    await h.advanceMinutes(10);
    const second = told(h).slice(before + first.length);
    expect(second).toHaveLength(1);
    expect(second[0]).toMatchObject({ count: 40 });
    for (const entry of second[0]?.entries ?? []) expect(forty).toContain(entry.id);

    // Nothing told again later.
    await h.advanceMinutes(30);
    expect(told(h)).toHaveLength(before + 16);
  }, 120_000);

  it('25 messages that came while the bridge was stopped are one flood event counting 25 at the first read after the start', async () => {
    const h = await school.firstPasses(['unread_messages', 'newest_message']);
    const before = told(h).length;
    await h.app.stop();
    newMessages(25, 'Komunikat');
    await h.advanceMinutes(10);
    await h.restart();
    await h.runUntil(() => h.state('ania', 'newest_message') !== undefined, 'the first pass after the start');
    await h.advanceMinutes(10);
    expect(told(h).slice(before)).toEqual([expect.objectContaining({ count: 25 })]);
  }, 120_000);
});
