// Every read the bridge makes is of a declared resource: over a school day and a night of both demo
// children's passes (and a refresh), each data request to the register (the cookie gateway, the
// family road's API) and to the messaging host is one of the declarations' endpoints. What else the
// bridge sends is the session's own (the login, the messaging bootstrap) or a command's write.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { RESOURCES } from '../../src/features/resources.js';
import { simulatedSchool } from '../helpers/school.js';
import type { SimRequest } from '../../src/simulator/types.js';

const [ANIA, JANEK] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!];
// A Wednesday in the first semester, during the second lesson.
const school = simulatedSchool('2026-11-18T09:10:00+01:00');

/** A declaration's endpoint as a pattern of paths: `<id>` (and the like) stands for one segment. */
function pattern(endpoint: string): RegExp {
  return new RegExp(`^${endpoint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/<[a-z]+>/g, '[^/]+')}$`);
}

const REGISTER = RESOURCES.filter((r) => r.host === 'register').flatMap((r) => r.endpoints.map(pattern));
const MESSAGING = RESOURCES.filter((r) => r.host === 'messaging').flatMap((r) => r.endpoints.map(pattern));

/** The data read a request is, as the declarations would spell its endpoint; undefined for the session's own requests. */
function dataRead(r: SimRequest): { endpoint: string; host: 'register' | 'messaging' } | undefined {
  // The change feed's registration and acknowledgements are writes of the change feed, not reads.
  if (r.method === 'DELETE' || r.path.endsWith('/ChangeRegister')) return undefined;
  const gateway = /^\/gateway\/api\/2\.0\/(.+)$/.exec(r.path);
  if (r.host === 'portal' && gateway) return { endpoint: gateway[1]!, host: 'register' };
  if (r.host === 'portal' && r.path === '/informacja') return { endpoint: r.path, host: 'register' };
  const api = /^\/[23]\.0\/(.+)$/.exec(r.path);
  if (r.host === 'auth' && api && api[1] !== 'AutoLoginToken') return { endpoint: api[1]!, host: 'register' };
  if (r.host === 'messages' && r.method === 'GET' && r.path.startsWith('/api/') && r.path !== '/api/me')
    return { endpoint: r.path, host: 'messaging' };
  return undefined;
}

describe('every read is a declared resource', () => {
  it('asks the portal for no data outside a declaration', async () => {
    // Which endpoints are read, not how often: every tier every 20 minutes reads the same 67 endpoints over these 16
    // hours as the default 3- and 5-minute tiers (863 reads against 1,670), for some 30% less CPU.
    const poll = { fast_interval: '20m', school_interval: '20m' };
    const h = await school.start({ accounts: [ANIA, JANEK].map((c) => ({ login: c.login, password: c.password })), poll });
    await h.runUntil(() => ['ania', 'jan'].every((c) => h.state(c, 'newest_grade') !== undefined), 'the first passes');
    await h.rec.publish(`${h.base}/ania/refresh/set`, '');
    await h.advanceMinutes(16 * 60);
    const reads = school.sim.requests.map(dataRead).filter((r) => r !== undefined);
    expect(reads.length).toBeGreaterThan(500);
    const undeclared = reads.filter((r) => !(r.host === 'register' ? REGISTER : MESSAGING).some((p) => p.test(r.endpoint)));
    expect([...new Set(undeclared.map((r) => `${r.host} ${r.endpoint}`))]).toEqual([]);
  }, 120_000);

  it('holds a read the declarations do not name for one (the test can fail)', () => {
    expect(REGISTER.some((p) => p.test('Grades/Unknown'))).toBe(false);
    expect(REGISTER.some((p) => p.test('Calendars/12345'))).toBe(true);
    expect(MESSAGING.some((p) => p.test('/api/notes/messages'))).toBe(true);
  });
});
