// The MQTT session kept in data_dir (once/session.ts), as mqtt.js uses it: an event's PUBLISH, then its
// PUBREL, is on disk before the store answers, so a new process resends exactly that (a PUBLISH marked
// DUP, or the PUBREL) under the same packet id and never gives that id to a new packet; the event's id
// stays known until its memory settled it. Delivered means acknowledged: the broker's refusal (PUBREC
// 0x87, its ACL) gives the event back to its memory (the old session kept it as handed: lost for good).
import { EventEmitter } from 'node:events';
import { rm, writeFile } from 'node:fs/promises';
import type { MqttClient, Packet } from 'mqtt';
import { describe, expect, it } from 'vitest';
import { MqttSession } from '../../../src/once/session.js';
import { silentLogger } from '../../../src/util/log.js';
import { tempDir } from '../../helpers/temp.js';

const open = (dir: string): Promise<MqttSession> => MqttSession.open(dir, silentLogger());
const put = (session: MqttSession, packet: Packet): Promise<void> =>
  new Promise((resolve, reject) => session.put(packet, (err) => (err ? reject(err) : resolve())));
async function stream(session: MqttSession): Promise<Packet[]> {
  const packets: Packet[] = [];
  for await (const packet of session.createStream() as unknown as AsyncIterable<Packet>) packets.push(packet);
  return packets;
}

describe('the MQTT session in data_dir', () => {
  it('an event stored before it is sent is resent by a new process, once, under its packet id', async () => {
    const dir = await tempDir();
    const first = await open(dir);
    const options = first.kept({ clientId: 'x', clean: true, properties: { maximumPacketSize: 1000 } }, 'dziennik2mqtt_0badcafe');
    expect(options).toMatchObject({
      clientId: 'dziennik2mqtt_0badcafe',
      clean: false,
      properties: { maximumPacketSize: 1000, sessionExpiryInterval: 604_800 },
    });

    first.expect('b/ania/event/grade', '{"id":"g2"}', 'e1');
    const id = first.allocate() ?? 0;
    await put(first, { cmd: 'publish', topic: 'b/ania/event/grade', payload: '{"id":"g2"}', qos: 2, retain: false, dup: false, messageId: id });
    // A retained state at QoS 1 is not kept past the process.
    await put(first, { cmd: 'publish', topic: 'b/ania/x', payload: '1', qos: 1, retain: true, dup: false, messageId: first.allocate() ?? 0 });
    expect(first.outcome('e1')).toBeDefined();

    // Killed: the next process has the event's PUBLISH (DUP) and its id.
    const second = await open(dir);
    expect(await stream(second)).toEqual([
      { cmd: 'publish', topic: 'b/ania/event/grade', payload: '{"id":"g2"}', qos: 2, retain: false, dup: true, messageId: id },
    ]);
    expect(second.outcome('e1')).toBeDefined();
    const ids = new Set(Array.from({ length: 0xffff }, () => second.allocate()));
    expect(ids.has(id)).toBe(false);
    expect(ids.size).toBe(0xfffe);

    // Its PUBREL stored: that is what goes again; after its PUBCOMP nothing does.
    await put(second, { cmd: 'pubrel', messageId: id });
    expect(await stream(await open(dir))).toEqual([{ cmd: 'pubrel', messageId: id }]);
    await new Promise((resolve) => second.del({ messageId: id }, resolve));
    const third = await open(dir);
    expect(await stream(third)).toEqual([]);
    // Known until its memory on disk no longer holds it.
    expect(await third.outcome('e1')).toBe(true);
    third.settle(['e1']);
    await new Promise((resolve) => third.close(resolve));
    expect((await open(dir)).outcome('e1')).toBeUndefined();
  });

  it('an event it cannot write (data_dir gone, full or read-only) is not sent: its publish hears no; a PUBREL goes all the same', async () => {
    const dir = await tempDir();
    const session = await open(dir);
    const removed: number[] = [];
    session.attach({ removeOutgoingMessage: (id: number) => removed.push(id), on: () => undefined } as unknown as MqttClient);
    session.expect('b/ania/event/grade', '{"id":"g1"}', 'e1');
    await put(session, { cmd: 'publish', topic: 'b/ania/event/grade', payload: '{"id":"g1"}', qos: 2, retain: false, dup: false, messageId: 7 });
    await rm(dir, { recursive: true });
    await writeFile(dir, 'not a folder');
    await expect(put(session, { cmd: 'pubrel', messageId: 7 })).resolves.toBeUndefined();
    session.expect('b/ania/event/grade', '{"id":"g2"}', 'e2');
    await expect(
      put(session, { cmd: 'publish', topic: 'b/ania/event/grade', payload: '{"id":"g2"}', qos: 2, retain: false, dup: false, messageId: 8 }),
    ).rejects.toThrow(/ENOTDIR/);
    await new Promise((resolve) => setImmediate(resolve));
    expect(removed).toEqual([8]);
    expect(session.outcome('e2')).toBeUndefined();
    expect(await stream(session)).toEqual([{ cmd: 'pubrel', messageId: 7 }]);
    await rm(dir);
  });

  it('a refusal (PUBREC 0x87) gives the event back to its memory and answers no; a PUBCOMP answers yes, also one resent after a restart', async () => {
    const dir = await tempDir();
    const session = await open(dir);
    const client = Object.assign(new EventEmitter(), { removeOutgoingMessage: () => undefined }) as unknown as MqttClient & EventEmitter;
    session.attach(client);
    const publish = (id: number, event: string): Promise<void> => {
      session.expect('b/ania/event/grade', event, event);
      return put(session, { cmd: 'publish', topic: 'b/ania/event/grade', payload: event, qos: 2, retain: false, dup: false, messageId: id });
    };
    const del = (id: number): Promise<unknown> => new Promise((resolve) => session.del({ messageId: id }, resolve));

    await publish(3, 'refused');
    const refused = session.outcome('refused');
    client.emit('packetreceive', { cmd: 'pubrec', messageId: 3, reasonCode: 0x87 });
    await del(3);
    expect(await refused).toBe(false);
    expect(session.outcome('refused')).toBeUndefined();

    // Stored, then the process killed: the next one holds it, and hears its PUBCOMP after resending it.
    await publish(4, 'delivered');
    await put(session, { cmd: 'pubrel', messageId: 4 });
    const again = await open(dir);
    const delivered = again.outcome('delivered');
    expect(delivered).toBeDefined();
    again.attach(client);
    await new Promise((resolve) => again.del({ messageId: 4 }, resolve));
    expect(await delivered).toBe(true);
    // Known until its memory settled it; answered yes at once meanwhile.
    expect(await again.outcome('delivered')).toBe(true);
    expect(again.parting(5, silentLogger())).toEqual({ properties: { sessionExpiryInterval: 0 } });
  });
});
