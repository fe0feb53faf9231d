// The MQTT session kept in data_dir (once/session.ts), as mqtt.js uses it, served from the children's event
// memories: an event's PUBLISH, then its PUBREL, is written into its outbox entry before the store answers,
// so a new process resends exactly that (a PUBLISH marked DUP, or the PUBREL) under the same packet id and
// never gives that id to a new packet; its PUBCOMP takes the entry out of the outbox in the same write.
// Delivered means acknowledged: the broker's refusal (PUBREC 0x87, its ACL) returns the event to waiting.
import { EventEmitter } from 'node:events';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MqttClient, Packet } from 'mqtt';
import { describe, expect, it, vi } from 'vitest';
import { SeenStore } from '../../../src/once/memory.js';
import { MqttSession } from '../../../src/once/session.js';
import { EventGate } from '../../../src/once/gate.js';
import * as files from '../../../src/util/files.js';
import { silentLogger } from '../../../src/util/log.js';
import { tempDir } from '../../helpers/temp.js';

// Every file written, counted (a write of the memory or the session is a write of files.ts).
vi.mock('../../../src/util/files.js', async (original) => {
  const real = await original<typeof files>();
  return { ...real, writeJson: vi.fn(real.writeJson) };
});

const TOPIC = 'b/ania/event/grade';
/** A session as the bridge opens it, with the child's memory its event gate takes. */
async function open(dir: string): Promise<MqttSession> {
  const session = await MqttSession.open(dir, silentLogger());
  await session.memoryOf('ania').load();
  return session;
}
const put = (session: MqttSession, packet: Packet): Promise<void> =>
  new Promise((resolve, reject) => session.put(packet, (err) => (err ? reject(err) : resolve())));
const del = (session: MqttSession, id: number): Promise<unknown> => new Promise((resolve) => session.del({ messageId: id }, resolve));
const publish = (id: number, payload: string): Packet => ({
  cmd: 'publish',
  topic: TOPIC,
  payload,
  qos: 2,
  retain: false,
  dup: false,
  messageId: id,
});
async function stream(session: MqttSession): Promise<Packet[]> {
  const packets: Packet[] = [];
  for await (const packet of session.createStream() as unknown as AsyncIterable<Packet>) packets.push(packet);
  return packets;
}
/** Events the event gate let through, in ania's outbox (grade g<n> as event e<n>, unless named). */
async function waiting(dir: string, ...events: string[]): Promise<void> {
  const memory = new SeenStore(dir, 'ania');
  await memory.load();
  memory.post(events.map((id) => ({ kind: 'grade', id, payload: { id: id.replace(/^e/, 'g') } })));
  await memory.save();
}
/** ania's outbox as it is on disk. */
const outbox = async (dir: string): Promise<unknown[]> =>
  (JSON.parse(await readFile(join(dir, 'seen', 'ania.json'), 'utf8')) as { outbox: unknown[] }).outbox;

describe('the MQTT session in data_dir', () => {
  it("an event's PUBLISH is written into its outbox entry before it goes, resent by a new process under its packet id, and its PUBCOMP takes it out", async () => {
    const dir = await tempDir();
    await waiting(dir, 'e1');
    const first = await open(dir);
    const options = first.kept({ clientId: 'x', clean: true, properties: { maximumPacketSize: 1000 } }, 'dziennik2mqtt_0badcafe');
    expect(options).toMatchObject({
      clientId: 'dziennik2mqtt_0badcafe',
      clean: false,
      properties: { maximumPacketSize: 1000, sessionExpiryInterval: 604_800 },
    });

    first.expect(TOPIC, '{"id":"g1"}', 'e1');
    const id = first.allocate() ?? 0;
    await put(first, publish(id, '{"id":"g1"}'));
    // A retained state at QoS 1 is not kept past the process.
    await put(first, { cmd: 'publish', topic: 'b/ania/x', payload: '1', qos: 1, retain: true, dup: false, messageId: first.allocate() ?? 0 });
    expect(first.outcome('e1')).toBeDefined();
    // One record: the child's memory holds the event with its packet; the session's file holds no event.
    expect(await outbox(dir)).toEqual([{ kind: 'grade', id: 'e1', payload: { id: 'g1' }, packet: { id, topic: TOPIC, released: false } }]);
    expect(JSON.parse(await readFile(join(dir, 'mqtt-session.json'), 'utf8'))).toEqual({});

    // Killed: the next process has the event's PUBLISH (DUP) and its id.
    const second = await open(dir);
    expect(await stream(second)).toEqual([{ cmd: 'publish', topic: TOPIC, payload: '{"id":"g1"}', qos: 2, retain: false, dup: true, messageId: id }]);
    expect(second.outcome('e1')).toBeDefined();
    const ids = new Set(Array.from({ length: 0xffff }, () => second.allocate()));
    expect(ids.has(id)).toBe(false);
    expect(ids.size).toBe(0xfffe);

    // Its PUBREL stored: that is what goes again; its PUBCOMP takes the entry out of the outbox, and nothing goes.
    await put(second, { cmd: 'pubrel', messageId: id });
    expect(await stream(await open(dir))).toEqual([{ cmd: 'pubrel', messageId: id }]);
    await del(second, id);
    expect(await outbox(dir)).toEqual([]);
    const third = await open(dir);
    expect(await stream(third)).toEqual([]);
    expect(third.outcome('e1')).toBeUndefined();
  });

  it('an event it cannot write (data_dir gone, full or read-only) is not sent: its publish hears no; a PUBREL goes all the same', async () => {
    const dir = await tempDir();
    await waiting(dir, 'e1', 'e2');
    const session = await open(dir);
    const removed: number[] = [];
    session.attach({ removeOutgoingMessage: (id: number) => removed.push(id), on: () => undefined } as unknown as MqttClient);
    session.expect(TOPIC, '{"id":"g1"}', 'e1');
    await put(session, publish(7, '{"id":"g1"}'));
    await rm(dir, { recursive: true });
    await writeFile(dir, 'not a folder');
    await expect(put(session, { cmd: 'pubrel', messageId: 7 })).resolves.toBeUndefined();
    session.expect(TOPIC, '{"id":"g2"}', 'e2');
    await expect(put(session, publish(8, '{"id":"g2"}'))).rejects.toThrow(/ENOTDIR/);
    await new Promise((resolve) => setImmediate(resolve));
    expect(removed).toEqual([8]);
    expect(session.outcome('e2')).toBeUndefined();
    expect(await stream(session)).toEqual([{ cmd: 'pubrel', messageId: 7 }]);
    await rm(dir);
  });

  it('a refusal (PUBREC 0x87) returns the event to waiting and answers no; a PUBCOMP answers yes, also one resent after a restart', async () => {
    const dir = await tempDir();
    await waiting(dir, 'refused', 'delivered');
    const session = await open(dir);
    const client = Object.assign(new EventEmitter(), { removeOutgoingMessage: () => undefined }) as unknown as MqttClient & EventEmitter;
    session.attach(client);
    const sent = (id: number, event: string): Promise<void> => {
      session.expect(TOPIC, JSON.stringify({ id: event }), event);
      return put(session, publish(id, JSON.stringify({ id: event })));
    };

    await sent(3, 'refused');
    const refused = session.outcome('refused');
    client.emit('packetreceive', { cmd: 'pubrec', messageId: 3, reasonCode: 0x87 });
    await del(session, 3);
    expect(await refused).toBe(false);
    expect(session.outcome('refused')).toBeUndefined();
    expect(await outbox(dir)).toEqual([
      { kind: 'grade', id: 'refused', payload: { id: 'refused' } },
      { kind: 'grade', id: 'delivered', payload: { id: 'delivered' } },
    ]);

    // Stored, then the process killed: the next one holds it, and hears its PUBCOMP after resending it.
    await sent(4, 'delivered');
    await put(session, { cmd: 'pubrel', messageId: 4 });
    const again = await open(dir);
    const delivered = again.outcome('delivered');
    expect(delivered).toBeDefined();
    again.attach(client);
    await del(again, 4);
    expect(await delivered).toBe(true);
    expect(again.outcome('delivered')).toBeUndefined();
    expect(await outbox(dir)).toEqual([{ kind: 'grade', id: 'refused', payload: { id: 'refused' } }]);
    expect(again.parting(5, silentLogger())).toEqual({ properties: { sessionExpiryInterval: 0 } });
  });

  it('an event on its way in a memory whose file was lost while stopped: its last good copy is read at open, and its gate told so', async () => {
    const dir = await tempDir();
    await waiting(dir, 'e1');
    const first = await open(dir);
    first.expect(TOPIC, '{"id":"g1"}', 'e1');
    await put(first, publish(31, '{"id":"g1"}'));
    await rm(join(dir, 'seen', 'ania.json'));
    const session = await MqttSession.open(dir, silentLogger());
    expect(await stream(session)).toEqual([
      { cmd: 'publish', topic: TOPIC, payload: '{"id":"g1"}', qos: 2, retain: false, dup: true, messageId: 31 },
    ]);
    const restored: string[] = [];
    await session.memoryOf('ania').load(undefined, (why) => restored.push(why));
    expect(restored).toEqual(['missing']);
  });

  it("a child's event on its way in the memory of its old name and of its new one (a kill between their writes): sent once, its PUBCOMP takes it out of both", async () => {
    const dir = await tempDir();
    const entry = { kind: 'grade', id: 'e1', payload: { id: 'g1' }, packet: { id: 21, topic: TOPIC, released: false } };
    for (const name of ['1234567u', 'ania']) {
      const memory = new SeenStore(dir, name);
      await memory.load();
      memory.post([entry]);
      await memory.save();
    }
    const session = await open(dir);
    expect(await stream(session)).toEqual([
      { cmd: 'publish', topic: TOPIC, payload: '{"id":"g1"}', qos: 2, retain: false, dup: true, messageId: 21 },
    ]);
    await del(session, 21);
    expect(await outbox(dir)).toEqual([]);
    const old = JSON.parse(await readFile(join(dir, 'seen', '1234567u.json'), 'utf8')) as { outbox: unknown[] };
    expect(old.outbox).toEqual([]);
    expect(await stream(await open(dir))).toEqual([]);
  });

  it("one event costs four synced writes, all of its child's memory: the pass's, its PUBLISH's, its PUBREL's and its PUBCOMP's", async () => {
    // Before one record per child it cost six: two of the memory and four of mqtt-session.json (the PUBLISH,
    // the PUBREL, the PUBCOMP and the memory settled), each a disk flush of a Raspberry Pi's SD card.
    const dir = await tempDir();
    const session = await MqttSession.open(dir, silentLogger());
    // The broker as mqtt.js meets it: the PUBLISH stored, its PUBREC, the PUBREL stored, its PUBCOMP.
    const broker = async (kind: string, payload: unknown, event: string): Promise<boolean> => {
      const topic = `b/ania/event/${kind}`;
      session.expect(topic, JSON.stringify(payload), event);
      const id = session.allocate() ?? 0;
      await put(session, { cmd: 'publish', topic, payload: JSON.stringify(payload), qos: 2, retain: false, dup: false, messageId: id });
      await put(session, { cmd: 'pubrel', messageId: id });
      await del(session, id);
      return true;
    };
    const gate = new EventGate({
      child: () => ({ id: 'ania', name: 'Ania' }),
      dataDir: dir,
      log: silentLogger(),
      fire: broker,
      memory: (id) => session.memoryOf(id),
      onStorage: () => {},
    });
    await gate.load('ania');
    const grade = (n: number) => ({ id: `g${n}`, payload: { id: `g${n}` } });
    await gate.pass([['grade', [grade(1)]]]);
    await gate.save();
    const written = vi.mocked(files.writeJson);
    written.mockClear();

    await gate.pass([['grade', [grade(1), grade(2)]]]);
    await vi.waitFor(() => expect(gate.unsent).toBe(0));
    await gate.save();
    const synced = written.mock.calls.filter(([, , options]) => options?.durable !== false).map(([path]) => path.slice(dir.length));
    expect(synced).toEqual(Array.from({ length: 4 }, () => '/seen/ania.json'));
    expect(await outbox(dir)).toEqual([]);
  });
});
