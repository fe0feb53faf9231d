// The messaging bootstrap chain (live-notes 15), against the real bridge and broker: a chain through
// the authorization host is followed to the messaging host; a redirect to a host none of the four
// configured is refused (an unexpected answer, naming /wiadomosci3), and the rest keeps updating.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// Over HTTP: the redirects and cookies between the hosts are this file's subject.
const school = simulatedSchool('2026-11-18T09:10:00+01:00', { portal: 'http' });

describe('the messaging bootstrap', () => {
  it('follows a chain through the authorization host', async () => {
    school.sim.messaging.bootstrapRoute = 'auth';
    const h = await school.firstPasses(['unread_messages', 'problem']);
    expect(school.sim.count({ host: 'auth', method: 'GET', path: '/OAuth/Authorization/Messages' })).toBeGreaterThan(0);
    expect(school.sim.count({ host: 'messages', path: '/bootstrap' })).toBeGreaterThan(0);
    expect(h.state('ania', 'unread_messages')).toMatch(/^\d+$/);
    expect(h.state('ania', 'problem')).toBe('OFF');
    expect(school.sim.logins(ANIA.login)).toBe(1);
  });

  it('never follows it to a host outside the four configured', async () => {
    school.sim.messaging.bootstrapRoute = 'outside';
    const h = await school.firstPasses(['problem', 'timetable_today']);
    await h.runUntil(() => h.state('ania', 'problem') === 'ON', 'problem ON');
    expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'unexpected_response' });
    expect(school.sim.count({ host: 'messages' })).toBe(0);
    expect(h.state('ania', 'timetable_today')).toMatch(/^\d+$/);
  });
});
