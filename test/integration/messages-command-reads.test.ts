// An open or a reply names a message the bridge has not listed yet (it came in since the last list, an
// hour old at night): the bridge lists that mailbox at once and answers the message meant, at 23:30 as
// at 10:30; the reply's result names the message it answered (its id and topic), never the one
// opened before; a wrong id lists at most once a minute and changes nothing.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { SimulatedSchool } from '../helpers/school.js';
import { command } from '../helpers/commands.js';
import { afterEach } from 'vitest';

const ANIA = DEMO_ACCOUNTS[0]!;
const school = new SimulatedSchool();
afterEach(() => school.close());

describe.each([
  ['by day', '2026-11-18T10:30:00+01:00'],
  ['at night', '2026-11-18T23:30:00+01:00'],
])('a message added since the last list, %s', (_when, now) => {
  it('is opened, and a reply with its message_id answers it, not the message opened before', async () => {
    await school.open(now);
    const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password, write_messages: true }] });
    await h.runUntil(() => h.state('ania', 'last_update') !== undefined && h.state('ania', 'newest_message') !== undefined, 'the first passes');
    // The message opened (and answered) a minute before.
    const before = school.sim.messaging.addMessage(ANIA.login, { topic: 'Wycieczka', body: 'Zgoda do piątku.', from: 162002, noReply: 0 });
    expect(await command(h, 'ania', 'open_message', String(before.id))).toMatchObject({ status: 'ok', message_id: String(before.id) });

    // A new message, not listed yet: no pass runs between its arrival and the commands.
    const fresh = school.sim.messaging.addMessage(ANIA.login, {
      topic: 'Zebranie rodziców',
      body: 'Zebranie w czwartek o 17:00.',
      from: 162002,
      noReply: 0,
    });
    const lists = school.sim.count({ host: 'messages', path: '/api/inbox/messages' });
    expect(await command(h, 'ania', 'open_message', String(fresh.id))).toMatchObject({
      status: 'ok',
      message_id: String(fresh.id),
      mailbox: 'inbox',
    });
    expect(school.sim.count({ host: 'messages', path: '/api/inbox/messages' })).toBe(lists + 1);
    expect(h.state('ania', 'opened_message')).toBe('Zebranie rodziców');

    // Opened through the bridge, then another message is opened by hand... the reply names its message.
    expect(await command(h, 'ania', 'open_message', String(before.id))).toMatchObject({ status: 'ok' });
    const result = await command(h, 'ania', 'reply', JSON.stringify({ text: 'Dziękuję', message_id: String(fresh.id) }));
    expect(result).toMatchObject({ status: 'ok', sent: true, message_id: String(fresh.id), topic: 'Zebranie rodziców' });
    expect(school.sim.messaging.sent.at(-1)).toMatchObject({ originalMessageId: fresh.id });
  });
});

describe('a message id nobody listed', () => {
  it('is refused after one listing of each mailbox, and no mailbox is listed again for a minute', async () => {
    await school.open('2026-11-18T23:30:00+01:00');
    const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password, write_messages: true }] });
    await h.runUntil(() => h.state('ania', 'newest_message') !== undefined, 'the first passes');
    const lists = (): number => school.sim.count({ host: 'messages', path: /^\/api\/\w+\/messages$/ });
    const before = lists();
    expect(await command(h, 'ania', 'open_message', '999999999')).toMatchObject({ status: 'error' });
    const once = lists();
    expect(once).toBeGreaterThan(before);
    expect(await command(h, 'ania', 'open_message', '999999998')).toMatchObject({ status: 'error' });
    expect(lists()).toBe(once);
    // Not a number: refused without a request.
    expect(await command(h, 'ania', 'open_message', 'abc')).toMatchObject({ status: 'error' });
    expect(lists()).toBe(once);
    await h.advanceMinutes(2);
    const later = lists();
    expect(await command(h, 'ania', 'open_message', '999999997')).toMatchObject({ status: 'error' });
    expect(lists()).toBeGreaterThan(later);
  });
});
