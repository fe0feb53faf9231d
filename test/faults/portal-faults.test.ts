// The fault suite, portal answers: the real bridge against the simulated portal and the real broker
// while the portal answers badly (5xx, 429, timeouts, resets, slowness, HTML, truncated or drifted
// JSON). Each test is one row of the fault table printed at the end: the bridge survived (a good pass
// after the fault), lost nothing (last good values kept during the fault, the change made during it
// delivered afterwards), sent nothing twice, and leaked no secret in any MQTT payload or log line.
import { afterAll, describe, expect, it } from 'vitest';
import { FaultTable } from '../helpers/faults.js';
import { clearSimFaults } from '../helpers/faults-sim.js';
import { cuttingDispatcher } from '../helpers/faults-app.js';
import { waitUntil } from '../helpers/mqtt.js';
import { GATEWAY, MIN, problemReasons, worldFor } from '../helpers/faults-world.js';

// Over HTTP (`portal: 'http'`): resets, slow answers cut by the dispatcher and the portal's faults on the socket are the subject.

const table = new FaultTable('Fault table: portal answers');
afterAll(() => table.print());

// Every test owns its world (simulator, clock, bridge): they run concurrently, the hour-long ones 11-14 s
// each beside the other files (vitest's report), too near the default 20 s on a loaded machine.
describe.concurrent('portal answers', { timeout: 60_000 }, () => {
  it.for([
    [500, 'portal 500 (empty HTML) for an hour'],
    [502, 'portal 502 for an hour'],
    [503, 'portal 503 maintenance for an hour'],
    [429, 'portal 429 Too Many Requests for an hour'],
  ] as const)('%i on every portal page: service_down, last values kept, no login, recovers', async ([status, fault], ctx) => {
    const w = await worldFor(ctx, { portal: 'http' });
    const h = await w.firstPass();
    const before = w.snapshot();
    const logins = w.passwordPosts();
    const problems = w.problemCount();
    w.sim.failNext(100_000, status, { host: 'portal' });
    w.addGrade();
    await h.runUntil(() => h.state('ania', 'problem') === 'ON', 'problem ON', 20 * MIN);
    await h.advanceMinutes(60);
    // The account's own failure says service_down, never a wrong password; so does the messages source,
    // whose bootstrap page is on the portal host too (a maintenance window is not "please report it").
    const reasons = problemReasons(h, problems);
    expect(reasons.account).toEqual(['service_down']);
    expect(reasons.sources.every((r) => r === 'service_down:source messages')).toBe(true);
    expect(w.snapshot()).toEqual(before);
    expect(h.state('ania', 'availability')).toBe('online'); // an hour of outage is not yet stale
    expect(w.passwordPosts()).toBe(logins); // a 5xx or a 429 is never a reason to log in
    const end = await w.recover(() => clearSimFaults(w.sim));
    table.record({ fault, ...end, secretLeaked: (await h.leaks()).length > 0 });
  });

  it('503 on the login host while the session must be renewed: service_down, not wrong_credentials, no pause', async (ctx) => {
    const w = await worldFor(ctx, { portal: 'http' });
    const h = await w.firstPass();
    const before = w.snapshot();
    w.sim.failNext(100_000, 503, { host: 'auth' });
    w.sim.expireSessions(w.login);
    w.addGrade();
    await h.runUntil(() => h.state('ania', 'problem') === 'ON', 'problem ON', 20 * MIN);
    await h.advanceMinutes(30);
    expect(problemReasons(h, 0).account).toEqual(['service_down']);
    expect(w.snapshot()).toEqual(before);
    // Maintenance pauses nothing: the next pass after it ends logs in (no hour of wrong-password pause).
    const end = await w.recover(() => clearSimFaults(w.sim), 20 * MIN);
    expect(w.sim.logins(w.login)).toBe(2);
    table.record({ fault: 'auth host 503 during a re-login', ...end, secretLeaked: (await h.leaks()).length > 0 });
  });

  it('timeouts (answers slower than the client waits): service_down, no login, recovers', async (ctx) => {
    const w = await worldFor(ctx, { portal: 'http' });
    // The App takes no timeout option; while the portal is slow, a dispatcher cuts every request after 1 s instead of 30 s.
    const { dispatcher, cut } = cuttingDispatcher();
    const h = await w.firstPass({ dispatcher });
    const before = w.snapshot();
    const logins = w.passwordPosts();
    cut(1_000);
    // Far beyond when the cut fires (cuttingDispatcher): a 1.5 s answer once came before it, on both cores kept busy,
    // and the pass read the timetable without a fault.
    w.sim.setLatency(10_000, { host: 'portal', path: GATEWAY });
    w.addGrade();
    await h.runUntil(() => h.state('ania', 'problem') === 'ON', 'problem ON', 20 * MIN);
    await h.app.runners[0]!.idle();
    expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'service_down' });
    expect(h.logs.matching(/timed out|UND_ERR_HEADERS_TIMEOUT/).length).toBeGreaterThan(0);
    expect(w.snapshot()).toEqual(before);
    expect(w.passwordPosts()).toBe(logins);
    const end = await w.recover(() => {
      clearSimFaults(w.sim);
      cut(undefined);
    }, 2 * MIN);
    table.record({ fault: 'timeouts (10 s answers, 1 s client timeout)', ...end, secretLeaked: (await h.leaks()).length > 0 });
  });

  it('connection resets: service_down, no login, recovers', async (ctx) => {
    const w = await worldFor(ctx, { portal: 'http' });
    const h = await w.firstPass();
    const before = w.snapshot();
    const logins = w.passwordPosts();
    w.tap.resetNext(100_000, { host: 'portal', path: GATEWAY });
    w.addGrade();
    await h.runUntil(() => h.state('ania', 'problem') === 'ON', 'problem ON', 20 * MIN);
    await h.advanceMinutes(30);
    expect(w.tap.resetsDone).toBeGreaterThan(0);
    expect(problemReasons(h, 0).account).toEqual(['service_down']);
    expect(w.snapshot()).toEqual(before);
    expect(w.passwordPosts()).toBe(logins);
    const end = await w.recover(() => w.tap.clear());
    table.record({ fault: 'connection resets (TCP RST) on the gateway', ...end, secretLeaked: (await h.leaks()).length > 0 });
  });

  it('a connection reset in the middle of a login: service_down, no pause, the next pass logs in', async (ctx) => {
    const w = await worldFor(ctx, { portal: 'http' });
    const h = await w.firstPass();
    w.tap.resetNext(1, { host: 'auth', method: 'POST' });
    w.sim.expireSessions(w.login);
    w.addGrade();
    // Minute by minute: the pass after the reset would log in again and clear the problem.
    await h.advanceUntil(() => h.state('ania', 'problem') === 'ON', 'problem ON', 20);
    expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'service_down' });
    expect(w.tap.resetsDone).toBe(1);
    // The next pass logs in again; the grade comes with the Grades' next read, at their news age.
    const end = await w.recover(() => undefined, 5 * MIN);
    expect(w.sim.logins(w.login)).toBe(2);
    table.record({ fault: 'connection reset during the login POST', ...end, secretLeaked: (await h.leaks()).length > 0 });
  });

  it('latency spikes below the timeout: everything still works', async (ctx) => {
    const w = await worldFor(ctx, { portal: 'http' });
    const h = await w.firstPass();
    w.sim.setLatency(250, { host: 'portal' });
    w.sim.setLatency(250, { host: 'messages' });
    w.addGrade();
    const from = w.tap.delays.length;
    const result = await w.refresh();
    // The refresh really met the spikes: every request it sent to those hosts was held 250 ms first.
    const delays = w.tap.delays.slice(from).filter((d) => d.host === 'portal' || d.host === 'messages');
    expect(delays.length).toBeGreaterThan(0);
    expect(delays.filter((d) => d.ms !== 250)).toEqual([]);
    expect(result).toEqual({ status: 'ok' });
    expect(h.state('ania', 'problem')).toBe('OFF');
    await waitUntil(() => w.gradeEvents() === 1 && h.state('ania', 'newest_grade') === '3', 'the grade');
    expect(w.sim.logins(w.login)).toBe(1);
    const end = await w.recover(() => clearSimFaults(w.sim));
    table.record({ fault: 'latency spikes of 250 ms on every request', ...end, secretLeaked: (await h.leaks()).length > 0 });
  });

  it('HTML instead of JSON on Grades: unexpected_response for grades, grades kept, the rest updates', async (ctx) => {
    const w = await worldFor(ctx, { portal: 'http' });
    const h = await w.firstPass();
    const before = w.snapshot();
    w.tap.bodyFault(100_000, 'html', { host: 'portal', path: '/gateway/api/2.0/Grades' });
    w.addGrade();
    w.sim.account(w.login).addNotice({ Subject: 'Zebranie', Content: 'Zebranie z rodzicami w czwartek.' });
    // problem is published last in a pass, after the states and the event memory.
    await h.runUntil(() => h.state('ania', 'unread_notices') === '4' && h.state('ania', 'problem') === 'ON', 'the other entities updating', 20 * MIN);
    expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'unexpected_response', detail: 'source grades' });
    expect(h.state('ania', 'newest_grade')).toBe(before.newest_grade);
    expect(h.state('ania', 'average')).toBe(before.average);
    const end = await w.recover(() => w.tap.clear());
    table.record({ fault: 'HTML page (200) instead of JSON', ...end, secretLeaked: (await h.leaks()).length > 0 });
  });

  it('truncated JSON on SchoolNotices: unexpected_response for notices, notices kept, the rest updates', async (ctx) => {
    const w = await worldFor(ctx, { portal: 'http' });
    const h = await w.firstPass();
    const before = w.snapshot();
    w.tap.bodyFault(100_000, 'truncated', { host: 'portal', path: '/gateway/api/2.0/SchoolNotices' });
    w.sim.account(w.login).addNotice({ Subject: 'Zebranie', Content: 'Zebranie z rodzicami w czwartek.' });
    w.addGrade();
    await h.runUntil(() => h.state('ania', 'newest_grade') === '3' && h.state('ania', 'problem') === 'ON', 'the other entities updating', 20 * MIN);
    expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'unexpected_response', detail: 'source notices' });
    expect(h.state('ania', 'unread_notices')).toBe(before.unread_notices);
    w.tap.clear();
    const notices = (): number => h.rec.on(`${h.base}/ania/event/notice`).length;
    await h.runUntil(() => h.state('ania', 'unread_notices') === '4' && notices() > 0, 'the notice after the fault', 20 * MIN);
    const events = notices();
    await h.advanceMinutes(21);
    table.record({
      fault: 'truncated JSON (half the body)',
      survived: h.state('ania', 'problem') === 'OFF',
      lost: events !== 1,
      sentTwice: h.rec.on(`${h.base}/ania/event/notice`).length > 1 || w.gradeEvents() > 1,
      secretLeaked: (await h.leaks()).length > 0,
    });
  });

  it('drifted shape, new fields everywhere: read as before, no problem', async (ctx) => {
    const w = await worldFor(ctx, { portal: 'http' });
    const h = await w.firstPass();
    await w.allRead();
    const before = w.snapshot();
    const grades = w.tap.lastServed('Grades') as { Grades: Record<string, unknown>[] };
    w.sim.account(w.login).setResource('Grades', {
      ...grades,
      Resources: { Extra: { Url: 'x' } },
      Grades: grades.Grades.map((g) => ({ ...g, NewFlag: true, Weights: [1, 2], Meta: { Source: 'v3' } })),
    });
    await w.refresh();
    expect(w.snapshot()).toEqual(before);
    expect(h.state('ania', 'problem')).toBe('OFF');
    w.sim.account(w.login).setResource('Grades', undefined);
    const end = await w.recover(() => undefined);
    table.record({ fault: 'drifted shape: new fields', ...end, secretLeaked: (await h.leaks()).length > 0 });
  });

  it('drifted shape, strings for numbers: read as numbers, no problem', async (ctx) => {
    const w = await worldFor(ctx, { portal: 'http' });
    const h = await w.firstPass();
    await w.allRead();
    const before = w.snapshot();
    const grades = w.tap.lastServed('Grades') as { Grades: Record<string, unknown>[] };
    w.sim.account(w.login).setResource('Grades', { Grades: grades.Grades.map((g) => ({ ...g, Id: String(g.Id) })) });
    w.sim.account(w.login).setResource('LuckyNumbers', { LuckyNumber: { LuckyNumber: '17', LuckyNumberDay: '{{today}}' } });
    await w.refresh();
    expect(w.snapshot()).toEqual({ ...before, lucky_number: '17' });
    expect(h.state('ania', 'problem')).toBe('OFF');
    w.sim.account(w.login).setResource('Grades', undefined);
    const end = await w.recover(() => undefined);
    table.record({ fault: 'drifted shape: strings for numbers', ...end, secretLeaked: (await h.leaks()).length > 0 });
  });

  it('drifted shape, missing fields: unexpected_response names the source, last values kept, the rest updates', async (ctx) => {
    const w = await worldFor(ctx, { portal: 'http' });
    const h = await w.firstPass();
    await w.allRead();
    const before = w.snapshot();
    // The lucky number's object is gone, and the grade list became an object.
    w.sim.account(w.login).setResource('LuckyNumbers', { Status: 'ok' });
    w.sim.account(w.login).setResource('Grades', { Grades: { Items: [] } });
    w.sim.account(w.login).addNotice({ Subject: 'Zebranie', Content: 'Zebranie z rodzicami w czwartek.' });
    await w.refresh();
    expect(h.state('ania', 'unread_notices')).toBe('4');
    expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'unexpected_response' });
    expect(String(h.attributes('ania', 'problem')?.detail)).toMatch(/^source (lucky|grades)$/);
    expect(w.snapshot()).toEqual({ ...before, unread_notices: '4' });
    w.sim.account(w.login).setResource('LuckyNumbers', undefined);
    w.sim.account(w.login).setResource('Grades', undefined);
    const end = await w.recover(() => undefined);
    table.record({ fault: 'drifted shape: missing fields', ...end, secretLeaked: (await h.leaks()).length > 0 });
  });

  // Records that lost their fields pass the lenient schemas; the average becomes None and problem tells.
  it('drifted shape, every grade lost its Subject and Category: problem tells', async (ctx) => {
    const w = await worldFor(ctx, { portal: 'http' });
    const h = await w.firstPass();
    const grades = w.tap.lastServed('Grades') as { Grades: Record<string, unknown>[] };
    w.sim.account(w.login).setResource('Grades', { Grades: grades.Grades.map(({ Subject: _s, Category: _c, ...rest }) => rest) });
    await w.refresh();
    expect(h.state('ania', 'average')).toBe('None');
    await waitUntil(() => h.state('ania', 'problem') === 'ON', 'problem ON');
    expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'unexpected_response', detail: 'source grades' });
  });

  // A bug (see the report): a fast-tier pass that succeeds (messages, the lucky number already known)
  // publishes problem OFF and resets the failure count while the normal tier is still failing, so during
  // a maintenance window `problem` flaps ON/OFF every few minutes and the normal tier's backoff never grows.
  it('503 on the data gateway for an hour: problem stays ON until the portal is back', async (ctx) => {
    const w = await worldFor(ctx, { portal: 'http' });
    const h = await w.firstPass();
    w.sim.failNext(100_000, 503, { host: 'portal', path: GATEWAY });
    await h.runUntil(() => h.state('ania', 'problem') === 'ON', 'problem ON', 20 * MIN);
    const from = h.rec.on(`${h.base}/ania/problem`).length;
    await h.advanceMinutes(60);
    expect(h.rec.texts(`${h.base}/ania/problem`).slice(from)).not.toContain('OFF');
  });
});
