// The event outbox: an event the gate let through is kept in the event memory's file until the broker
// accepted it, sent again after a restart when it was not (once), and never handed twice while one
// send of it is on its way (nor again when a pass that could not be written is taken back); and a bridge
// taking over from another starts from the memory that one told.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { EventGate } from '../../../src/once/gate.js';
import type { EventPayload } from '../../../src/engine/state.js';
import { silentLogger } from '../../../src/util/log.js';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'outbox-'));
});
/** Every gate a test made: their last writes finish before the folder is removed. */
const gates: EventGate[] = [];
afterEach(async () => {
  await Promise.all(gates.splice(0).map((g) => g.save()));
  await rm(dataDir, { recursive: true, force: true });
});

/** A publisher's side of it: each event handed, and the broker's answer given by the test. */
class Broker {
  readonly handed: { payload: EventPayload; answer: (accepted: boolean) => void }[] = [];
  fire = (_kind: string, payload: EventPayload): Promise<boolean> => new Promise((answer) => this.handed.push({ payload, answer }));
  ids(): unknown[] {
    return this.handed.map((h) => h.payload.id);
  }
}

async function gate(broker: Broker): Promise<EventGate> {
  const g = new EventGate({ child: () => ({ id: 'ania', name: 'Ania' }), dataDir, log: silentLogger(), fire: broker.fire, onStorage: () => {} });
  gates.push(g);
  await g.load('ania');
  return g;
}

const grade = (id: number) => ({ id: `grade:${id}`, payload: { id: `grade:${id}`, grade: '5' } });
const kept = async (): Promise<unknown[]> =>
  (JSON.parse(await readFile(join(dataDir, 'seen', 'ania.json'), 'utf8')) as { outbox: { payload: { id: unknown } }[] }).outbox.map(
    (e) => e.payload.id,
  );
/** The broker's answer taken in and the memory written after it. */
const settled = async (g: EventGate): Promise<void> => {
  await new Promise((resolve) => setImmediate(resolve));
  await g.save();
};

it('keeps an event in data_dir until the broker accepted it, and then no longer', async () => {
  const broker = new Broker();
  const g = await gate(broker);
  await g.pass([['grade', [grade(1)]]]); // the first read of a kind remembers, fires nothing
  await g.pass([['grade', [grade(1), grade(2)]]]);
  expect(broker.ids()).toEqual(['grade:2']);
  expect(await kept()).toEqual(['grade:2']);
  broker.handed[0]!.answer(true);
  await settled(g);
  expect(await kept()).toEqual([]);
  expect(g.unsent).toBe(0);
});

it('sends an event the broker never accepted after a restart, once, and not again once accepted', async () => {
  const before = new Broker();
  const g = await gate(before);
  await g.pass([['grade', [grade(1)]]]);
  await g.pass([['grade', [grade(1), grade(2)]]]);
  // Stopped while the broker was away: the send failed.
  before.handed[0]!.answer(false);
  await g.save();
  const after = new Broker();
  const restarted = await gate(after);
  expect(after.ids()).toEqual(['grade:2']);
  // The grade read again: remembered, so no second event; the one on its way is not handed again.
  await restarted.pass([['grade', [grade(1), grade(2)]]]);
  expect(after.ids()).toEqual(['grade:2']);
  after.handed[0]!.answer(true);
  await settled(restarted);
  const third = new Broker();
  await (await gate(third)).pass([['grade', [grade(1), grade(2)]]]);
  expect(third.ids()).toEqual([]);
});

it('sends again at the next pass an event whose send failed while the bridge ran', async () => {
  const broker = new Broker();
  const g = await gate(broker);
  await g.pass([['grade', [grade(1)]]]);
  await g.pass([['grade', [grade(1), grade(2)]]]);
  broker.handed[0]!.answer(false);
  await settled(g);
  expect(await kept()).toEqual(['grade:2']);
  await g.pass([]);
  expect(broker.ids()).toEqual(['grade:2', 'grade:2']);
  broker.handed[1]!.answer(true);
  await settled(g);
  expect(await kept()).toEqual([]);
});

it('a pass whose memory cannot be written takes back only what it posted: an event the broker took meanwhile is not sent again', async () => {
  const broker = new Broker();
  const g = await gate(broker);
  await g.pass([['grade', [grade(1)]]]);
  await g.pass([['grade', [grade(1), grade(2)]]]);
  // data_dir gone (a file in its place) while grade 3's pass writes, and the broker takes grade 2 meanwhile.
  await rm(dataDir, { recursive: true });
  await writeFile(dataDir, 'not a folder');
  const failing = g.pass([['grade', [grade(1), grade(2), grade(3)]]]);
  broker.handed[0]!.answer(true);
  await failing;
  expect(broker.ids()).toEqual(['grade:2']);
  await rm(dataDir);
  await g.pass([['grade', [grade(1), grade(2), grade(3)]]]);
  expect(broker.ids()).toEqual(['grade:2', 'grade:3']);
});

it("carries an event on its way to the child's new id (its name became known), and lets it go there once the broker took it", async () => {
  const broker = new Broker();
  const g = await gate(broker);
  await g.pass([['grade', [grade(1)]]]);
  await g.pass([['grade', [grade(1), grade(2)]]]);
  await g.load('ania-kowalska');
  expect(broker.ids()).toEqual(['grade:2']); // on its way already: not handed again
  broker.handed[0]!.answer(true);
  await settled(g);
  await g.pass([]);
  expect(broker.ids()).toEqual(['grade:2']);
  expect(g.unsent).toBe(0);
});

it('a bridge taking over from another starts from the memory that one told: nothing it announced again, news since once, its unsent events sent', async () => {
  const told: unknown[] = [];
  const first = new Broker();
  const a = new EventGate({
    child: () => ({ id: 'ania', name: 'Ania' }),
    dataDir: join(dataDir, 'a'),
    log: silentLogger(),
    fire: first.fire,
    onStorage: () => {},
    tell: (m) => told.push(m),
  });
  gates.push(a);
  await a.load('ania');
  await a.pass([['grade', [grade(1)]]]);
  await a.pass([['grade', [grade(1), grade(2)]]]);
  first.handed[0]!.answer(true);
  await settled(a);
  // Then killed with grade 3 sent and not acknowledged: its last told memory holds it to send.
  await a.pass([['grade', [grade(1), grade(2), grade(3)]]]);
  const last = told.at(-1);

  for (const memory of ['older', 'fresh'] as const) {
    const broker = new Broker();
    const folder = join(dataDir, memory);
    if (memory === 'older') {
      // It ran before, knowing grade 1 only, and was stopped with an event of its own unsent.
      const before = new EventGate({
        child: () => ({ id: 'ania', name: 'Ania' }),
        dataDir: folder,
        log: silentLogger(),
        fire: () => Promise.resolve(false),
        onStorage: () => {},
      });
      await before.load('ania');
      await before.pass([['grade', [grade(1)]]]);
      await before.pass([['note', [{ id: 'note:1', payload: { id: 'note:1' } }]]]);
      await before.pass([
        [
          'note',
          [
            { id: 'note:1', payload: { id: 'note:1' } },
            { id: 'note:2', payload: { id: 'note:2' } },
          ],
        ],
      ]);
      await before.save();
    }
    const b = new EventGate({
      child: () => ({ id: 'ania', name: 'Ania' }),
      dataDir: folder,
      log: silentLogger(),
      fire: broker.fire,
      onStorage: () => {},
      told: () => last,
    });
    gates.push(b);
    await b.load('ania');
    await b.pass([['grade', [grade(1), grade(2), grade(3), grade(4)]]]);
    expect(broker.ids(), memory).toEqual(['grade:3', 'grade:4']);
  }
});
