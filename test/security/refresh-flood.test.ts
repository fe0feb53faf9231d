// A refresh flood against the real bridge (simulator, real broker): anyone who may publish to the broker
// can press refresh, so the button, `<c>/refresh/set` and `bridge/request/refresh` sent fifty times at
// once must cost the portal one forced poll, every one of them answered once that poll is done; a
// refresh in the minute after it joins it (answered at once, no request), and one after the minute polls.
import { describe, expect, it } from 'vitest';
import { sleep, waitUntil } from '../helpers/mqtt.js';
import { simulatedSchool } from '../helpers/school.js';
import type { Harness } from '../helpers/app.js';

const school = simulatedSchool('2026-11-18T09:10:00+01:00');
const GRADES = { path: '/gateway/api/2.0/Grades' };

/** Publishes the bridge request `refresh` with a transaction and resolves to its answer. */
async function bridgeRefresh(h: Harness, transaction: string): Promise<unknown> {
  const topic = `${h.base}/bridge/response/refresh`;
  await h.rec.publish(`${h.base}/bridge/request/refresh`, JSON.stringify({ transaction }));
  await waitUntil(() => answers(h, topic).some((a) => a.transaction === transaction), `the answer to ${transaction}`, 10_000);
  return answers(h, topic).find((a) => a.transaction === transaction);
}

function answers(h: Harness, topic: string): Record<string, unknown>[] {
  return h.rec.texts(topic).map((t) => JSON.parse(t) as Record<string, unknown>);
}

describe('a refresh flood', () => {
  it('fifty refreshes at once through every door: one forced poll, all answered when it is done; the next minute joins it', async () => {
    const h = await school.polled(['lucky_number', 'last_update']);
    const { sim, clock } = school;

    // One forced poll on its own asks for the grades once.
    sim.resetCounts();
    expect(await bridgeRefresh(h, 'alone')).toMatchObject({ status: 'ok' });
    expect(sim.count(GRADES)).toBe(1);
    await clock.advance(61_000); // past the minute: no scheduled poll falls due in it (the fast tier is 3 min)

    // The flood, while the poll it starts is held by a slow portal.
    sim.resetCounts();
    sim.setLatency(400, GRADES);
    const results = `${h.base}/ania/refresh/result`;
    const responses = `${h.base}/bridge/response/refresh`;
    const before = { results: h.rec.on(results).length, responses: h.rec.on(responses).length };
    await Promise.all([
      ...Array.from({ length: 10 }, () => h.rec.publish(`${h.base}/ania/refresh/set`, 'refresh')), // the button's payload
      ...Array.from({ length: 10 }, (_, i) => h.rec.publish(`${h.base}/ania/refresh/set`, JSON.stringify({ transaction: `c${i}` }))),
      ...Array.from({ length: 30 }, (_, i) => h.rec.publish(`${h.base}/bridge/request/refresh`, JSON.stringify({ transaction: `r${i}` }))),
    ]);
    let gradesWhenFirstAnswered: number | undefined;
    await waitUntil(
      () => {
        const got = { results: h.rec.on(results).length - before.results, responses: h.rec.on(responses).length - before.responses };
        if (gradesWhenFirstAnswered === undefined && got.results + got.responses > 0) gradesWhenFirstAnswered = sim.count(GRADES);
        return got.results === 20 && got.responses === 30;
      },
      'an answer to each of the fifty',
      15_000,
    );
    sim.setLatency(0);
    // No answer came before the poll had its (slow) grades: each waited for the poll it joined.
    expect(gradesWhenFirstAnswered).toBe(1);
    const newResults = answers(h, results).slice(before.results);
    const newResponses = answers(h, responses).slice(before.responses);
    expect(newResults.every((r) => r.status === 'ok')).toBe(true);
    expect(newResults.filter((r) => r.transaction !== undefined).map((r) => r.transaction)).toEqual(Array.from({ length: 10 }, (_, i) => `c${i}`));
    expect(newResponses.every((r) => r.status === 'ok')).toBe(true);
    expect(new Set(newResponses.map((r) => r.transaction)).size).toBe(30);
    // The whole flood cost the portal one forced poll: each resource asked for once.
    const paths = sim.requests.map((r) => `${r.method} ${r.path}`);
    expect(paths.length).toBeGreaterThan(5);
    expect(paths.filter((p, i) => paths.indexOf(p) !== i)).toEqual([]);
    expect(sim.count(GRADES)).toBe(1);

    // Within the minute: answered at once, nothing asked of the portal.
    await clock.advance(50_000);
    sim.resetCounts();
    expect(await bridgeRefresh(h, 'within')).toMatchObject({ status: 'ok' });
    await sleep(100);
    expect(sim.count()).toBe(0);

    // After the minute: a poll again.
    await clock.advance(11_000);
    expect(await bridgeRefresh(h, 'after')).toMatchObject({ status: 'ok' });
    expect(sim.count(GRADES)).toBe(1);
  });
});
