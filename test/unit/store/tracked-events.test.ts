// The event gate over the seen memory for a tracked kind: an edit fires `<kind>_changed` with the
// previous values, a record gone from two distinct reads fires `<kind>_removed`, and all of it holds
// across a restart (a new gate on the same data_dir).
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventGate } from '../../../src/poller/event-gate.js';
import type { EventPayload } from '../../../src/feature-kit/state.js';
import type { Tracking } from '../../../src/store/tracked.js';
import { silentLogger } from '../../../src/util/log.js';

let dataDir: string;
let fired: EventPayload[];

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tracked-'));
  fired = [];
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

async function gate(): Promise<EventGate> {
  const g = new EventGate({ dataDir, log: silentLogger(), fire: (_kind, payload) => fired.push(payload), onStorage: () => {} });
  await g.load('ania');
  return g;
}

const grade = (id: number, value: string, extra: Record<string, unknown> = {}) => ({
  id: `grade:${id}`,
  payload: { id: `grade:${id}`, grade: value, subject: 'Matematyka', category: 'Sprawdzian', date: '2026-11-18', teacher: 'Piotr Wiśniewski', ...extra },
});
const tracking = (read: string | undefined, listed?: string[]): Tracking => ({ fields: ['grade', 'subject', 'category', 'date'], reads: { 'grade:': read }, listed });

describe('a tracked kind', () => {
  it('fires grade_changed with only the fields that changed, and not again for the same values', async () => {
    const g = await gate();
    await g.pass([['grade', [grade(1, '4'), grade(2, '5')], tracking('r1')]]);
    expect(fired).toEqual([]); // the first read primes
    await g.pass([['grade', [grade(1, '5'), grade(2, '5', { teacher: 'someone else' })], tracking('r2')]]);
    expect(fired).toEqual([{ event_type: 'grade_changed', ...grade(1, '5').payload, previous: { grade: '4' } }]);
    await g.pass([['grade', [grade(1, '5'), grade(2, '5')], tracking('r3')]]);
    expect(fired).toHaveLength(1);
  });

  it('a field that became unknown (a lookup failing) is no edit, and its old value is kept', async () => {
    const g = await gate();
    await g.pass([['grade', [grade(1, '4')], tracking('r1')]]);
    await g.pass([['grade', [grade(1, '4', { subject: null })], tracking('r2')]]);
    await g.pass([['grade', [grade(1, '4')], tracking('r3')]]);
    expect(fired).toEqual([]);
  });

  it('removes a record only after two distinct successful reads without it', async () => {
    const g = await gate();
    await g.pass([['grade', [grade(1, '4'), grade(2, '5')], tracking('r1')]]);
    await g.pass([['grade', [grade(1, '4')], tracking('r2')]]);
    await g.pass([['grade', [grade(1, '4')], tracking('r2')]]); // the same (cached) answer again
    await g.pass([['grade', [grade(1, '4')], tracking(undefined)]]); // the list was not read
    expect(fired).toEqual([]);
    await g.pass([['grade', [grade(1, '4')], tracking('r3')]]);
    expect(fired).toEqual([{ event_type: 'grade_removed', grade: '5', subject: 'Matematyka', category: 'Sprawdzian', date: '2026-11-18' }]);
    await g.pass([['grade', [grade(1, '4')], tracking('r4')]]);
    expect(fired).toHaveLength(1);
  });

  it('a hiccup: a record missing from one read and back at the next is not removed', async () => {
    const g = await gate();
    await g.pass([['grade', [grade(1, '4'), grade(2, '5')], tracking('r1')]]);
    await g.pass([['grade', [grade(1, '4')], tracking('r2')]]);
    await g.pass([['grade', [grade(1, '4'), grade(2, '5')], tracking('r3')]]);
    await g.pass([['grade', [grade(1, '4')], tracking('r4')]]);
    expect(fired).toEqual([]); // r2's miss was forgotten when it came back: r4 is the first again
  });

  it('a record the read still lists but that is no longer news (a past test) is forgotten quietly', async () => {
    const g = await gate();
    await g.pass([['grade', [grade(1, '4'), grade(2, '5')], tracking('r1')]]);
    await g.pass([['grade', [grade(1, '4')], tracking('r2', ['grade:2'])]]);
    await g.pass([['grade', [grade(1, '4')], tracking('r3', ['grade:2'])]]);
    await g.pass([['grade', [grade(1, '4')], tracking('r4')]]);
    expect(fired).toEqual([]);
  });

  it('holds across a restart: the values and a first miss are remembered in data_dir', async () => {
    let g = await gate();
    await g.pass([['grade', [grade(1, '4'), grade(2, '5')], tracking('a1')]]);
    await g.pass([['grade', [grade(1, '4')], tracking('a2')]]);
    g = await gate();
    await g.pass([['grade', [grade(1, '3')], tracking('b1')]]);
    expect(fired.map((f) => [f.event_type, f.previous ?? f.grade])).toEqual([
      ['grade_changed', { grade: '4' }],
      ['grade_removed', '5'],
    ]);
  });

  it('more than 20 removals at once (a new school year) are forgotten without events', async () => {
    const many = Array.from({ length: 25 }, (_, i) => grade(i + 1, '5'));
    const g = await gate();
    await g.pass([['grade', many, tracking('r1')]]);
    await g.pass([['grade', [], tracking('r2')]]);
    await g.pass([['grade', [], tracking('r3')]]);
    expect(fired).toEqual([]);
  });

  it('reads the memory an older version wrote (ids alone) and starts tracking quietly', async () => {
    await mkdir(join(dataDir, 'seen'), { recursive: true });
    await writeFile(join(dataDir, 'seen', 'ania.json'), JSON.stringify({ grade: ['grade:1'] }));
    const g = await gate();
    await g.pass([['grade', [grade(1, '4'), grade(2, '5')], tracking('r1')]]);
    expect(fired).toEqual([{ event_type: 'grade', ...grade(2, '5').payload }]);
    const saved = JSON.parse(await readFile(join(dataDir, 'seen', 'ania.json'), 'utf8')) as { ids: unknown; records: unknown };
    expect(saved.ids).toEqual({ grade: ['grade:1', 'grade:2'] });
    expect(Object.keys(saved.records as object)).toEqual(['grade']);
  });
});
