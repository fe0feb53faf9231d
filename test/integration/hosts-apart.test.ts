// A tier is a host: the register's API failing (its connections reset) never stops the messaging host's
// reads. The lucky number reads the register API; it used to be read on the messages' pass, so while its
// day's number was not known yet a failing register ended that pass before the unread counters were read.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// A Wednesday in the first semester, during the second lesson.
const school = simulatedSchool('2026-11-18T09:10:00+01:00');

describe('hosts, not tiers', () => {
  it('reads the messages on while the register API fails, the lucky number not known for the day yet', async () => {
    // Yesterday's number only: the lucky number is asked at every look until today's is known.
    school.sim.account(ANIA.login).setLuckyNumber(7, '2026-11-17');
    const h = await school.firstPasses(['unread_messages', 'lucky_number']);
    // The register API resets every connection from now on.
    school.sim.failNext(100_000, 0, { host: 'portal', path: /^\/gateway\// });
    const unread = Number(h.state('ania', 'unread_messages'));
    school.sim.messaging.addMessage(ANIA.login, { topic: 'Zebranie', body: 'W czwartek o 17:00.', from: 162002 });
    await h.advanceMinutes(4);
    expect(Number(h.state('ania', 'unread_messages'))).toBe(unread + 1);
    expect(h.state('ania', 'newest_message')).toBe('Zebranie');
    // The register's failure is said, as ever.
    await h.advanceUntil(() => h.state('ania', 'problem') === 'ON', 'the register failing', 10);
  }, 60_000);
});
