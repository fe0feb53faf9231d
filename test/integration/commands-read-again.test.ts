// What a command changed on the portal is read again at once, not at the row's next age: tried at night,
// unread_messages stayed at 4 after the bridge itself opened a message, until the hourly read; a message
// the bridge sent showed in sent_message only at the next normal pass (up to 20 minutes, 2 hours at night).
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';
import { command } from '../helpers/commands.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// A Wednesday night: the counters are read hourly, the sent box every 8 hours.
const school = simulatedSchool('2026-11-18T23:10:00+01:00');

describe('after a command', () => {
  it('reads the unread counters again at once after the bridge opened a message', async () => {
    const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password }] });
    await h.runUntil(() => h.state('ania', 'unread_messages') !== undefined && h.state('ania', 'newest_message') !== undefined, 'the first passes');
    await h.advanceMinutes(3);
    const unread = Number(h.state('ania', 'unread_messages'));
    expect(unread).toBeGreaterThan(0);
    const id = String(h.attributes('ania', 'newest_message')?.id);
    expect(await command(h, 'ania', 'open_message', id)).toMatchObject({ status: 'ok' });
    await h.advanceMinutes(1);
    expect(Number(h.state('ania', 'unread_messages'))).toBe(unread - 1);
  }, 60_000);

  it('reads the sent box again at once after a reply went out', async () => {
    const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password, write_messages: true }] });
    await h.runUntil(() => h.state('ania', 'newest_message') !== undefined, 'the first passes');
    // The sent box is not read at a start's first pass: the second pass reads it.
    await h.advanceUntil(() => h.state('ania', 'sent_message') !== undefined, 'the sent box', 30);
    const message = school.sim.messaging.addMessage(ANIA.login, { topic: 'Zebranie', body: 'W czwartek.', from: 162002, noReply: 0 });
    expect(await command(h, 'ania', 'reply', JSON.stringify({ text: 'Będę.', message_id: String(message.id) }))).toMatchObject({
      status: 'ok',
      sent: true,
    });
    await h.advanceMinutes(1);
    expect(h.state('ania', 'sent_message')).toBe('Re: Zebranie');
  }, 60_000);
});
