// A refresh flood against the real bridge (simulator, real broker): anyone who may publish to the broker
// can press refresh, so the button, `<c>/refresh/set` and `bridge/request/refresh` sent fifty times at
// once must cost the portal at most one forced pass a minute, every one of them answered by a pass that
// began after it; a refresh in the minute after a pass runs one more pass when the minute is over.
import { describe, expect, it } from 'vitest';
import { sleep, waitUntil } from '../helpers/mqtt.js';
import { simulatedSchool } from '../helpers/school.js';
import type { Harness } from '../helpers/app.js';
import { FORCED_PASS_GAP_MS } from '../../src/runner/refresh-gate.js';

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
  it('fifty refreshes at once through every door: at most one forced pass a minute, all answered; a press inside the minute gets its pass when it is over', async () => {
    const h = await school.firstPasses(['lucky_number', 'last_update']);
    const { sim, clock } = school;

    // One forced pass on its own asks for the grades once.
    sim.resetCounts();
    expect(await bridgeRefresh(h, 'alone')).toMatchObject({ status: 'ok' });
    expect(sim.count(GRADES)).toBe(1);
    await clock.advance(61_000); // past the minute: no scheduled pass falls due in it (the fast tier is 3 min)

    // The flood, while the pass it starts is held by a slow portal.
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
    const got = () => ({ results: h.rec.on(results).length - before.results, responses: h.rec.on(responses).length - before.responses });
    const all = () => got().results === 20 && got().responses === 30;
    const noteFirst = () => {
      if (gradesWhenFirstAnswered === undefined && got().results + got().responses > 0) gradesWhenFirstAnswered = sim.count(GRADES);
    };
    // The presses that came after the first pass began wait for the one after the minute.
    await waitUntil(() => (noteFirst(), sim.count(GRADES) === 1 && got().results + got().responses > 0), 'the first forced pass', 15_000);
    sim.setLatency(0);
    // Every press is in by now: those after the first pass began wait for one more, a minute on.
    await sleep(500);
    if (!all()) await clock.advance(60_000);
    await waitUntil(() => (noteFirst(), all()), 'an answer to each of the fifty', 15_000);
    // No answer came before a pass had its (slow) grades: each waited for a pass that began after it.
    expect(gradesWhenFirstAnswered).toBe(1);
    const newResults = answers(h, results).slice(before.results);
    const newResponses = answers(h, responses).slice(before.responses);
    expect(newResults.every((r) => r.status === 'ok')).toBe(true);
    expect(newResults.filter((r) => r.transaction !== undefined).map((r) => r.transaction)).toEqual(Array.from({ length: 10 }, (_, i) => `c${i}`));
    expect(newResponses.every((r) => r.status === 'ok')).toBe(true);
    expect(new Set(newResponses.map((r) => r.transaction)).size).toBe(30);
    // The whole flood cost the portal at most one forced pass a minute: each resource asked at most
    // once by each, the second a minute after the first.
    const paths = sim.requests.map((r) => `${r.method} ${r.path}`);
    expect(paths.length).toBeGreaterThan(5);
    const grades = sim.requests.filter((r) => r.path === GRADES.path).map((r) => r.at);
    expect(grades.length).toBeLessThanOrEqual(2);
    for (let i = 1; i < grades.length; i++) expect(grades[i]! - grades[i - 1]!).toBeGreaterThanOrEqual(60_000);
    // Within one forced pass, each resource is asked once.
    const first = sim.requests.filter((r) => r.at === grades[0]).map((r) => `${r.method} ${r.path}`);
    expect(first.filter((p, i) => first.indexOf(p) !== i)).toEqual([]);

    // Inside the minute after a pass: nothing asked at once, one pass when the minute is over.
    await clock.advance(61_000);
    sim.resetCounts();
    const firstBegan = clock.now();
    expect(await bridgeRefresh(h, 'first')).toMatchObject({ status: 'ok' });
    await clock.advance(20_000);
    sim.resetCounts();
    const within = bridgeRefresh(h, 'within');
    // The press is in once the bridge sets its timer for the minute's end (the fake clock's, not real time).
    await waitUntil(() => clock.dueTimes().includes(firstBegan + FORCED_PASS_GAP_MS), 'the press to wait for the end of the minute');
    expect(sim.count()).toBe(0);
    await clock.advance(40_000);
    expect(await within).toMatchObject({ status: 'ok' });
    expect(sim.count(GRADES)).toBe(1);
  });
});
