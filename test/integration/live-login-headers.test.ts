// The headers a browser would send on each login hop (live-notes 14, 16), recorded from the real
// bridge's login against the simulator: Sec-Fetch-Site is same-origin inside the authorization host and
// same-site between it and the portal (sibling subdomains of one site), never cross-site; the entry is
// reached from the family portal, a sibling too.
import { describe, expect, it } from 'vitest';
import { fetchSite } from '../../src/portal/login.js';
import { simulatedSchool } from '../helpers/school.js';

// Over HTTP: the headers each login hop sends are this file's subject.
const school = simulatedSchool('2026-11-18T09:10:00+01:00', { portal: 'http' });

describe('Sec-Fetch-Site on the login hops', () => {
  it('is the exact sequence a desktop browser sends', async () => {
    const h = await school.firstPasses(['last_update']);
    const login = school.sim.requests.filter((r) => !r.path.startsWith('/gateway/') && r.path !== '/wiadomosci3' && r.host !== 'messages');
    expect(login.slice(0, 7).map((r) => `${r.host} ${r.method} ${r.path} ${r.fetchSite}`)).toEqual([
      'portal GET /loguj/portalRodzina same-site',
      'auth GET /OAuth/Authorization same-site',
      'auth POST /OAuth/Authorization same-origin',
      'auth GET /OAuth/Authorization/2FA same-origin',
      'auth GET /OAuth/Authorization/Grant same-origin',
      'portal GET /loguj/portalRodzina/autoryzacja same-site',
      'portal GET /uczen/index same-site',
    ]);
    expect(h.state('ania', 'problem')).toBe('OFF');
  });

  it('tells the public service’s hosts apart as a browser does', () => {
    expect(fetchSite('https://synergia.librus.pl/loguj/portalRodzina', 'https://api.librus.pl/OAuth/Authorization')).toBe('same-site');
    expect(fetchSite('https://api.librus.pl/OAuth/Authorization', 'https://api.librus.pl/OAuth/Authorization/2FA')).toBe('same-origin');
    expect(fetchSite('https://api.librus.pl/x', 'https://example.org/y')).toBe('cross-site');
    expect(fetchSite('https://api.librus.pl/x', 'http://synergia.librus.pl/y')).toBe('cross-site');
    // Configured hosts on other addresses (a test's loopback ones) are still the service's one site.
    const configured = ['http://127.0.0.1:8001', 'http://127.0.0.2:8002'];
    expect(fetchSite('http://127.0.0.1:8001/a', 'http://127.0.0.2:8002/b', configured)).toBe('same-site');
    expect(fetchSite('http://127.0.0.1:8001/a', 'http://127.0.0.3:8003/b', configured)).toBe('cross-site');
  });
});
