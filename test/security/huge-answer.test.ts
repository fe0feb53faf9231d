// An 80 MB portal answer (issue 20, item 4): the bridge runs with a 64 MB heap, so a broken or hostile
// server's endless answer must be refused while it streams in, at its cap (Grades: 4 MB), never held whole. That source
// fails (problem names it), the rest of the pass goes on, and the next pass recovers.
import { afterAll, describe, expect, it } from 'vitest';
import { FaultTable } from '../helpers/faults.js';
import { MIN, worldFor, type PortalWorld } from '../helpers/faults-world.js';

// Over HTTP (`portal: 'http'`): a huge answer streams to a socket (the in-process dispatcher has none).

const table = new FaultTable('Fault table: hostile portal answers');
afterAll(() => table.print());

const MB = 1024 * 1024;
const GRADES = '/gateway/api/2.0/Grades';

/** Bytes the simulator really wrote for the huge answers to Grades (it logs what it sent before the client hung up). */
function sentForGrades(w: PortalWorld, from: number): number[] {
  return w.sim.requests
    .slice(from)
    .filter((r) => r.path === GRADES && r.bytes > MB)
    .map((r) => r.bytes);
}

describe.concurrent('a huge portal answer', () => {
  it.for<[string, boolean, number]>([
    // Chunked: only counting the body can stop it; the kernel's socket buffers hold a few MB more.
    ['chunked, no length', false, 24 * MB],
    // Announced: refused from the headers, before the body is read.
    ['with its Content-Length', true, 8 * MB],
  ])('80 MB on Grades (%s): refused at 4 MB, grades fail, the rest updates, the next pass recovers', async ([label, announceLength, most], ctx) => {
    const w = await worldFor(ctx, { portal: 'http' });
    const h = await w.firstPass();
    const before = w.snapshot();
    const from = w.sim.requests.length;
    w.sim.answerHugeNext(1, 80 * MB, { host: 'portal', path: GRADES }, { announceLength });
    w.sim.account(w.login).addNotice({ Subject: 'Zebranie', Content: 'Zebranie z rodzicami w czwartek.' });
    await h.runUntil(() => h.state('ania', 'unread_notices') === '4' && h.state('ania', 'problem') === 'ON', 'the other entities updating', 20 * MIN);
    expect(h.attributes('ania', 'problem')).toMatchObject({ reason: 'unexpected_response', detail: 'source grades' });
    expect(h.state('ania', 'average')).toBe(before.average);
    const sent = sentForGrades(w, from);
    expect(sent).toHaveLength(1);
    // The bridge hung up long before the 80 MB were through.
    expect(sent[0]).toBeLessThan(most);
    expect(h.logs.matching(/larger than 4 MB/).length).toBeGreaterThan(0);
    const end = await w.recover(() => undefined);
    expect(end.survived).toBe(true);
    table.record({ fault: `an 80 MB JSON answer (${label})`, ...end, secretLeaked: (await h.leaks()).length > 0 });
  });
});

describe("a hostile portal's standing plan", () => {
  it('refuses 28,000 entries and 5,000 repeats (2 MB) unread at 1 MB: no difference told from it, the rest updates', async (ctx) => {
    const w = await worldFor(ctx, { portal: 'http' });
    w.sim.account(w.login).serveHostileStandingTimetable();
    const h = await w.firstPass();
    const from = w.sim.requests.length;
    w.sim.account(w.login).addNotice({ Subject: 'Zebranie', Content: 'Zebranie z rodzicami w czwartek.' });
    // The start's first pass leaves the standing plan for the next, which reads it.
    await h.runUntil(() => w.sim.requests.slice(from).some((r) => r.path.endsWith('/TimetableEntries')), 'the standing plan asked', 20 * MIN);
    await h.runUntil(() => h.state('ania', 'unread_notices') === '4', 'the other entities updating', 20 * MIN);
    expect(h.logs.matching(/larger than its most, refused unread/)).toEqual([expect.stringMatching(/TimetableEntries.*larger than 1 MB/)]);
    expect(h.logs.matching(/a portal list cut at its most/)).toEqual([]);
    // Not known rather than told from a plan no class has; nothing the family must fix.
    expect(h.attributes('ania', 'timetable_today')?.standing_differences ?? null).toBeNull();
    expect(h.state('ania', 'problem')).toBe('OFF');
    const sent = w.sim.requests.slice(from).filter((r) => r.path.endsWith('/TimetableEntries') && r.bytes > MB);
    expect(sent.every((r) => r.bytes < 2 * MB)).toBe(true);
    expect((await h.leaks()).length).toBe(0);
  });
});
