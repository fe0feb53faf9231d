// The login as the live portal runs it in 2026 (live-notes 16-20), against the real bridge, the
// simulator with its `login-2026` and `password-leak` switches, and the test broker: one password POST,
// data published, `problem` OFF, and the exact request sequence of each form pinned.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, type LiveLoginSwitch, type SimRequest } from '../../src/simulator/index.js';
import { createLogger } from '../../src/util/log.js';
import { simulatedSchool } from '../helpers/school.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// Over HTTP: the login's hops, cookies and redirects between the hosts are this file's subject.
const school = simulatedSchool('2026-11-18T09:10:00+01:00', { portal: 'http' });

/** A request as the test pins it: host, method, path, the names of its query (never values), Sec-Fetch-Site. */
function line(r: SimRequest): string {
  const names = [...new URLSearchParams(r.query).keys()].join('&');
  return `${r.host} ${r.method} ${r.path}${names === '' ? '' : `?${names}`} ${r.status} ${r.fetchSite ?? '-'}`;
}

/** The login's requests: everything up to and including the first Auth/TokenInfo. */
function loginRequests(): string[] {
  const all = school.sim.requests;
  const end = all.findIndex((r) => r.path === '/gateway/api/2.0/Auth/TokenInfo');
  return all.slice(0, end + 1).map(line);
}

const ENTRY = 'portal GET /loguj/portalRodzina?v 302 same-site';
const AUTHORIZE = 'auth GET /OAuth/Authorization?client_id&response_type&scope&state';
const END = [
  'auth GET /OAuth/Authorization/Grant?client_id 302 same-origin',
  'portal GET /loguj/portalRodzina/autoryzacja?code&state 302 same-site',
  'portal GET /uczen/index 200 same-site',
  'portal GET /gateway/api/2.0/Auth/TokenInfo 200 -',
];

const SEQUENCES: Record<string, string[]> = {
  spec: [
    ENTRY,
    `${AUTHORIZE} 200 same-site`,
    'auth POST /OAuth/Authorization?client_id 200 same-origin',
    'auth GET /OAuth/Authorization/2FA?client_id 302 same-origin',
    ...END,
  ],
  'login-2026': [
    ENTRY,
    `${AUTHORIZE} 302 same-site`,
    'auth GET /OAuth/Authorization?client_id 200 same-site',
    'auth POST /OAuth/Authorization?client_id 200 same-origin',
    'auth GET /OAuth/Authorization/PerformLogin?client_id 302 same-origin',
    ...END,
  ],
  'password-leak': [
    ENTRY,
    `${AUTHORIZE} 200 same-site`,
    'auth POST /OAuth/Authorization?client_id 200 same-origin',
    'auth GET /OAuth/Authorization/2FA?client_id 200 same-origin',
    'auth POST /OAuth/Authorization/2FA?client_id 200 same-origin',
    ...END,
  ],
  'login-2026,password-leak': [
    ENTRY,
    `${AUTHORIZE} 302 same-site`,
    'auth GET /OAuth/Authorization?client_id 200 same-site',
    'auth POST /OAuth/Authorization?client_id 200 same-origin',
    'auth GET /OAuth/Authorization/PerformLogin?client_id 200 same-origin',
    'auth POST /OAuth/Authorization/PerformLogin?client_id 200 same-origin',
    ...END,
  ],
};

describe('the live login on the bridge', () => {
  it.each(Object.keys(SEQUENCES))('logs in with one password POST under %s, publishes data, problem OFF', async (name) => {
    const switches = name === 'spec' ? [] : (name.split(',') as LiveLoginSwitch[]);
    for (const s of switches) school.sim.setLoginSwitch(s, true);
    const lines: string[] = [];
    const log = createLogger('info', { write: (chunk: string) => void lines.push(...chunk.split('\n').filter(Boolean)) }, { format: 'json' });
    const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password, id: 'ania' }], log });
    await h.runUntil(() => h.state('ania', 'newest_grade') !== undefined && h.state('ania', 'problem') !== undefined, 'the first passes');

    expect(loginRequests()).toEqual(SEQUENCES[name]);
    expect(school.sim.count({ host: 'auth', method: 'POST', path: '/OAuth/Authorization' })).toBe(1);
    expect(school.sim.logins(ANIA.login)).toBe(1);
    expect(h.state('ania', 'problem')).toBe('OFF');
    expect(h.state('ania', 'newest_grade')).not.toBe('None');
    // Nothing is read before the new session has proven itself.
    const firstGateway = school.sim.requests.find((r) => r.path.startsWith('/gateway/'));
    expect(firstGateway?.path).toBe('/gateway/api/2.0/Auth/TokenInfo');

    const leak = switches.includes('password-leak');
    const problem = h.attributes('ania', 'problem') ?? {};
    if (leak) expect(problem).toMatchObject({ reason: null, advice: 'password_change_advised' });
    else expect(problem).not.toHaveProperty('advice');
    // The state the Bridge view's advice card is shown by.
    expect(h.state('ania', 'password_change_advised')).toBe(leak ? 'ON' : 'OFF');
    const advised = lines.filter((l) => l.includes('advises changing'));
    expect(advised).toHaveLength(leak ? 1 : 0);
    expect(lines.join('\n')).not.toContain(ANIA.password);
  });

  it('says the advice in the log once a day, however many logins meet it', async () => {
    school.sim.setLoginSwitch('password-leak', true);
    const lines: string[] = [];
    const log = createLogger('info', { write: (chunk: string) => void lines.push(...chunk.split('\n').filter(Boolean)) }, { format: 'json' });
    const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password, id: 'ania' }], log });
    await h.runUntil(() => h.state('ania', 'problem') === 'OFF', 'problem OFF');
    school.sim.expireSessions(); // a dead session: a second login the same day meets the page again
    await h.advanceMinutes(30);
    await h.runUntil(() => school.sim.logins(ANIA.login) === 2, 'a second login');
    expect(h.attributes('ania', 'problem')).toMatchObject({ advice: 'password_change_advised' });
    expect(lines.filter((l) => l.includes('advises changing'))).toHaveLength(1);
  });
});
