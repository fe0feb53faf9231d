// The base topic's claim (interface 14.4) on a fake clock and a fake client. Two bridges with their own
// data folders on one base topic both read and both answered a press. A waiting bridge takes the base
// topic only once the holder's claim is cleared or no renewal came for the grace while it was connected
// (time away from the broker does not count); the holder hears the knocks, and of two holders the one
// that started first keeps the topic.
import type { MqttClient } from 'mqtt';
import { describe, expect, it } from 'vitest';
import { BaseTopicClaim, CLAIM_BEAT_MS, CLAIM_GRACE_MS, type Instance } from '../../../src/mqtt/claim.js';
import { Topics } from '../../../src/ha/topics.js';
import { silentLogger } from '../../../src/util/log.js';
import { FakeClock } from '../../helpers/clock.js';

const topics = new Topics('d2m', 'homeassistant');
const me: Instance = { id: 'aaaa', host: 'pi', pid: 7, since: '2026-11-25T06:00:00.000Z' };
const first: Instance = { id: 'bbbb', host: 'nas', pid: 1, since: '2026-11-25T05:00:00.000Z' };
const later: Instance = { ...first, since: '2026-11-25T07:00:00.000Z' };

/** A client that records what is published through it. */
function fakeClient(): MqttClient & { sent: { topic: string; payload: string }[] } {
  const sent: { topic: string; payload: string }[] = [];
  const publish = (topic: string, payload: string): void => void sent.push({ topic, payload });
  return { connected: true, sent, publish, publishAsync: async (t: string, p: string) => publish(t, p), subscribeAsync: async () => [] } as never;
}

function claimOn(clock: FakeClock) {
  const others: (string | undefined)[] = [];
  const lost: string[] = [];
  const claim = new BaseTopicClaim({ me, topics, log: silentLogger(), clock, other: (o) => others.push(o?.id), lost: (o) => lost.push(o.id) });
  const hear = (topic: string, instance?: Instance): boolean =>
    claim.heard(topic, Buffer.from(instance ? JSON.stringify({ ...instance, beat: 'x' }) : ''));
  return { claim, others, lost, hear };
}

describe('the base topic claim', () => {
  it('a waiting bridge takes the topic only after the grace without a renewal, connected time only, knocking meanwhile', async () => {
    const clock = new FakeClock('2026-11-25T08:00:00Z');
    const { claim, others, hear } = claimOn(clock);
    const client = fakeClient();
    hear(topics.bridgeClaim, first);
    expect(claim.holder).toEqual(expect.objectContaining({ id: 'bbbb' }));
    let done = false;
    const waiting = claim.wait(client, new AbortController().signal).then(() => (done = true));
    // Renewed every beat for a minute: it waits on.
    for (let i = 0; i < 6; i++) {
      await clock.advance(CLAIM_BEAT_MS);
      hear(topics.bridgeClaim, first);
    }
    expect(done).toBe(false);
    // Away from the broker for two graces: that time does not count.
    (client as { connected: boolean }).connected = false;
    await clock.advance(2 * CLAIM_GRACE_MS);
    expect(done).toBe(false);
    (client as { connected: boolean }).connected = true;
    await clock.advance(CLAIM_GRACE_MS - CLAIM_BEAT_MS);
    expect(done).toBe(false);
    await clock.advance(2 * CLAIM_BEAT_MS);
    await waiting;
    expect(others).toEqual(['bbbb', undefined]);
    expect(client.sent.filter((m) => m.topic === topics.bridgeKnock).length).toBeGreaterThanOrEqual(6);
    expect(client.sent.every((m) => m.topic === topics.bridgeKnock && JSON.parse(m.payload).id === 'aaaa')).toBe(true);
  });

  it('a cleared claim ends the wait at once', async () => {
    const clock = new FakeClock('2026-11-25T08:00:00Z');
    const { claim, hear } = claimOn(clock);
    hear(topics.bridgeClaim, first);
    const waiting = claim.wait(fakeClient(), new AbortController().signal);
    await clock.advance(1);
    hear(topics.bridgeClaim);
    await waiting;
    expect(claim.holder).toBeUndefined();
  });

  it('the holder renews its claim, tells of a knock until the knocking stops, keeps bridge/state online, yields only to an earlier start', async () => {
    const clock = new FakeClock('2026-11-25T08:00:00Z');
    const { claim, others, lost, hear } = claimOn(clock);
    const client = fakeClient();
    // Its own retained claim read back is nobody else's.
    expect(hear(topics.bridgeClaim, me)).toBe(true);
    claim.hold(client);
    await clock.advance(CLAIM_BEAT_MS);
    const claims = (): unknown[] => client.sent.filter((m) => m.topic === topics.bridgeClaim).map((m) => JSON.parse(m.payload));
    expect(claims()).toEqual([
      expect.objectContaining({ id: 'aaaa', beat: '2026-11-25T08:00:00.000Z' }),
      expect.objectContaining({ beat: '2026-11-25T08:00:10.000Z' }),
    ]);

    hear(topics.bridgeKnock, later);
    hear(topics.bridgeKnock, later);
    expect(others).toEqual(['bbbb']);
    await clock.advance(CLAIM_GRACE_MS + CLAIM_BEAT_MS);
    expect(others).toEqual(['bbbb', undefined]);

    // A later start claiming it too: said again at once, nothing lost.
    const before = claims().length;
    hear(topics.bridgeClaim, later);
    expect(claims().length).toBe(before + 1);
    expect(lost).toEqual([]);
    // Another's last will saying `offline` for it: `online` again at once.
    claim.heard(topics.bridgeState, Buffer.from('offline'));
    expect(client.sent.at(-1)).toEqual({ topic: topics.bridgeState, payload: 'online' });
    // An earlier one: this one yields, renews no more, and leaves the other's claim at its stop.
    hear(topics.bridgeClaim, first);
    expect(lost).toEqual(['bbbb']);
    await clock.advance(3 * CLAIM_BEAT_MS);
    await claim.clear(client);
    expect(claims().length).toBe(before + 1);
    expect(client.sent.filter((m) => m.topic === topics.bridgeClaim && m.payload === '')).toEqual([]);
    // Not ours to hear: a command goes on to the inbox.
    expect(claim.heard('d2m/ania/refresh/set', Buffer.from('x'))).toBe(false);
  });
});
