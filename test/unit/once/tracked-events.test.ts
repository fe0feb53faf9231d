// The event gate over the seen memory for a tracked kind: an edit fires `<kind>_changed` with the
// previous values, a record gone from two distinct reads fires `<kind>_removed`, and all of it holds
// across a restart (a new gate on the same data_dir). A flood is told as one event the same on a running
// bridge and after a restart (interface 18.4); only what came while the bridge was away longer than a day is
// remembered without events, and a log line says how many of which kind.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventGate } from '../../../src/once/gate.js';
import type { EventPayload } from '../../../src/engine/state.js';
import type { Tracking } from '../../../src/once/tracked.js';
import { FLOOD_BYTES, floodPayload } from '../../../src/once/flood.js';
import { LogSink } from '../../helpers/faults.js';

let dataDir: string;
let fired: EventPayload[];
let logs: LogSink;
/** Whose every event is: the gate's child (interface 17.2). */
const ANIA = { child: 'ania', child_name: 'Ania' };

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tracked-'));
  fired = [];
  logs = new LogSink();
});
/** Every gate a test made: their last writes finish before the folder is removed. */
const gates: EventGate[] = [];
afterEach(async () => {
  await Promise.all(gates.splice(0).map((g) => g.save()));
  await rm(dataDir, { recursive: true, force: true });
});

async function gate(): Promise<EventGate> {
  const g = new EventGate({
    child: () => ({ id: ANIA.child, name: ANIA.child_name }),
    dataDir,
    log: logs.logger('info'),
    fire: (_kind, payload) => void fired.push(payload),
    onStorage: () => {},
  });
  gates.push(g);
  await g.load('ania');
  return g;
}

const grade = (id: number, value: string, extra: Record<string, unknown> = {}) => ({
  id: `grade:${id}`,
  payload: {
    id: `grade:${id}`,
    grade: value,
    subject: 'Matematyka',
    category: 'Sprawdzian',
    date: '2026-11-18',
    teacher: 'Piotr Wiśniewski',
    ...extra,
  },
});
/** A pass's time as the coordinator gives it: on 18.11.2026 at `hhmm` UTC (`days` later), its hosts read a pass before. */
const at = (hhmm: string, days = 0) => {
  const now = Date.parse(`2026-11-${18 + days}T${hhmm}:00Z`);
  return { now, lastGood: undefined };
};
const tracking = (read: string | undefined, listed?: string[]): Tracking => ({
  fields: ['grade', 'subject', 'category', 'date'],
  reads: { 'grade:': read },
  listed,
});

describe('a tracked kind', () => {
  it('fires grade_changed with only the fields that changed, and not again for the same values', async () => {
    const g = await gate();
    await g.pass([['grade', [grade(1, '4'), grade(2, '5')], tracking('r1')]]);
    expect(fired).toEqual([]); // the first read primes
    await g.pass([['grade', [grade(1, '5'), grade(2, '5', { teacher: 'someone else' })], tracking('r2')]]);
    expect(fired).toEqual([{ event_type: 'grade_changed', ...ANIA, ...grade(1, '5').payload, previous: { grade: '4' } }]);
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

  it('a field that gains a value (a comment written later) is an edit, previous null; not one the first read left unknown', async () => {
    const g = await gate();
    const comments = (read: string): Tracking => ({ ...tracking(read), fields: ['grade', 'comment'] });
    await g.pass([['grade', [grade(1, '4', { comment: null })], comments('r1')]]);
    await g.pass([['grade', [grade(1, '4', { comment: 'Brawo' }), grade(2, '5', { comment: null })], comments('r2')]]);
    expect(fired.map((f) => f.event_type)).toEqual(['grade']);
    const later = [grade(1, '4', { comment: 'Brawo' }), grade(2, '5', { comment: 'Świetna praca!' })];
    await g.pass([['grade', later, comments('r3')]]);
    expect(fired.slice(1)).toEqual([{ event_type: 'grade_changed', ...ANIA, ...later[1]!.payload, previous: { comment: null } }]);
    await g.pass([['grade', [grade(1, '4', { comment: null }), grade(2, '5', { comment: null })], comments('r4')]]);
    expect(fired).toHaveLength(2); // gone unknown again: no edit, the comment kept
  });

  it('removes a record only after two distinct successful reads without it', async () => {
    const g = await gate();
    await g.pass([['grade', [grade(1, '4'), grade(2, '5')], tracking('r1')]]);
    await g.pass([['grade', [grade(1, '4')], tracking('r2')]]);
    await g.pass([['grade', [grade(1, '4')], tracking('r2')]]); // the same (cached) answer again
    await g.pass([['grade', [grade(1, '4')], tracking(undefined)]]); // the list was not read
    expect(fired).toEqual([]);
    await g.pass([['grade', [grade(1, '4')], tracking('r3')]]);
    expect(fired).toEqual([{ event_type: 'grade_removed', ...ANIA, grade: '5', subject: 'Matematyka', category: 'Sprawdzian', date: '2026-11-18' }]);
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

  it('more than 20 removals at once after a restart are one grade_removed event with the count, as on a running bridge', async () => {
    const many = Array.from({ length: 25 }, (_, i) => grade(i + 1, '5'));
    const g = await gate();
    await g.pass([['grade', many, tracking('r1')]], at('09:00'));
    await g.pass([['grade', [], tracking('r2')]], at('09:05'));
    // Stopped for five minutes before the second read that misses them.
    const again = await gate();
    await again.pass([['grade', [], tracking('r3')]], at('09:10'));
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatchObject({ event_type: 'grade_removed', count: 25 });
    expect(logs.matching(/"msg":"flood: told as one event with its count"/)).toEqual([expect.stringContaining('"event":"grade_removed","count":25')]);
  });

  it('more than 20 new items or removals while the bridge was away longer than a day are old news: no event, one log line with the count', async () => {
    const many = Array.from({ length: 25 }, (_, i) => grade(i + 1, '5'));
    const g = await gate();
    await g.pass([['grade', many, tracking('r1')]], at('09:00'));
    await g.pass([['grade', [], tracking('r2')]], at('09:05'));
    // A backup of the day before restored: the bridge reads again two days later.
    const restored = await gate();
    const other = Array.from({ length: 25 }, (_, i) => grade(i + 100, '5'));
    await restored.pass([['grade', other, tracking('r3')]], at('09:05', 2));
    expect(fired).toEqual([]);
    expect(logs.matching(/back after more than a day/)).toEqual([
      expect.stringContaining('"remembered":{"grade":25,"grade_removed":25},"away_h":48'),
    ]);
    // A running bridge's portal down for a day: its floods (new items, then removals) are old news too.
    const afterOutage = { now: Date.parse('2026-11-23T10:00:00Z'), lastGood: Date.parse('2026-11-22T09:00:00Z') };
    const third = Array.from({ length: 25 }, (_, i) => grade(i + 200, '5'));
    await restored.pass([['grade', third, tracking('r4')]], afterOutage);
    await restored.pass([['grade', [], tracking('r5')]], afterOutage);
    await restored.pass([['grade', [], tracking('r6')]], afterOutage);
    expect(fired).toEqual([]);
  });

  it('more than 20 removals at once on a running bridge are one grade_removed event with the count and the first ten', async () => {
    const many = Array.from({ length: 25 }, (_, i) => grade(i + 1, '5'));
    const g = await gate();
    await g.pass([['grade', many, tracking('r1')]]);
    await g.pass([['grade', [], tracking('r2')]]);
    await g.pass([['grade', [], tracking('r3')]], { now: Date.parse('2026-11-20T10:00:00Z'), lastGood: Date.parse('2026-11-20T09:40:00Z') });
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatchObject({ event_type: 'grade_removed', count: 25 });
    expect(fired[0]!.entries).toHaveLength(10);
    expect((fired[0]!.entries as unknown[])[0]).toEqual({ grade: '5', subject: 'Matematyka', category: 'Sprawdzian', date: '2026-11-18' });
  });
});

describe('a flood of new items', () => {
  const many = (from: number) => Array.from({ length: 30 }, (_, i) => grade(from + i, '5'));
  const flood = (from: number) => ({
    event_type: 'grade',
    ...ANIA,
    count: 30,
    entries: many(from)
      .slice(0, 10)
      .map((i) => i.payload),
  });

  it('on a running bridge and at the first read after a restart is one event of its kind with the count and the first ten', async () => {
    const g = await gate();
    await g.pass([['grade', [grade(1, '4')]]], at('09:00'));
    expect(logs.matching(/first read of these kinds/)).toEqual([expect.stringContaining('"remembered":{"grade":1}')]);
    // 30 grades given while the bridge was stopped for ten minutes.
    const restarted = await gate();
    await restarted.pass([['grade', [grade(1, '4'), ...many(100)]]], at('09:10'));
    expect(fired).toEqual([flood(100)]);
    await restarted.pass([['grade', [grade(1, '4'), ...many(100), ...many(200)]]], at('09:15'));
    expect(fired).toEqual([flood(100), flood(200)]);
    expect(logs.matching(/"msg":"flood: told as one event with its count"/)).toHaveLength(2);
    expect(logs.matching(/back after more than a day/)).toEqual([]);
  });

  it('is told after a stop of almost a day, though the time of the last read is kept only hourly', async () => {
    const g = await gate();
    await g.pass([['grade', [grade(1, '4')]]], at('09:00'));
    // Passes every few minutes for 50 minutes: the memory has nothing new to write, nor a read an hour later.
    for (const minute of ['10', '20', '30', '40', '50']) await g.pass([['grade', [grade(1, '4')]]], at(`09:${minute}`));
    const restarted = await gate();
    await restarted.pass([['grade', [grade(1, '4'), ...many(100)]]], at('09:45', 1));
    expect(fired).toEqual([flood(100)]);
  });
});

describe('a flood', () => {
  it('keeps its payload under 8 KB: fewer entries when they are long', () => {
    const long = Array.from({ length: 25 }, (_, i) => ({ id: String(i), preview: 'x'.repeat(2000) }));
    const flood = floodPayload(long);
    expect(flood.count).toBe(25);
    expect(flood.entries.length).toBeGreaterThan(0);
    expect(flood.entries.length).toBeLessThan(10);
    expect(Buffer.byteLength(JSON.stringify(flood))).toBeLessThanOrEqual(FLOOD_BYTES);
  });
});
