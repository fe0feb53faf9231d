// The base topic's claim (interface 14.4, 15.3) on a fake monotonic clock and a fake client that plays the
// broker (its echo of what is published, its acknowledgement). A candidate takes the topic only once the
// holder's claim is given up, is its own folder's last run, or stood still for the grace of connected time,
// whatever the wall clock does (the old claim measured with Date.now()). A live holder is never silenced by
// another's claim (the old one stopped at once: exit 1, bridge/state left `online`): it says so and claims
// again. A holder whose renewals went unanswered acts on nothing until it looked, and yields only to a
// higher fence. Of two taking at once, the broker's order decides. A claim with this installation's id
// from another folder is a copy running: the candidate takes an identity of its own.
import type { MqttClient } from 'mqtt';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BaseTopicClaim, type ClaimOptions } from '../../../src/lease/claim.js';
import { Topics } from '../../../src/outputs/mqtt/topics.js';
import { Lease, LEASE_TIMING, type LeaseRecord } from '../../../src/lease/lease.js';
import { createLogger } from '../../../src/util/log.js';
import { FakeClock, settledOn } from '../../helpers/clock.js';
import { tempDir } from '../../helpers/temp.js';

const { beatMs: BEAT_MS, graceMs: GRACE_MS } = LEASE_TIMING;
const topics = new Topics('d2m', 'homeassistant');
const other: LeaseRecord = {
  id: 'bbbbbbbb',
  place: 'nas-data',
  run: 'r-nas',
  host: 'nas',
  pid: 1,
  since: '2026-11-25T05:00:00.000Z',
  fence: 4,
  beat: 0,
};

afterEach(() => {
  vi.useRealTimers();
});

interface FakeClient {
  client: MqttClient & { connected: boolean };
  sent: Array<{ topic: string; payload: string }>;
  /**
   * Whether the fake broker passes a claim back and acknowledges it, the claim it keeps retained (sent at a
   * subscription), and claims it sent that wait unread in the socket (read before the answer to the next request).
   */
  broker: { echo: boolean; ack: boolean; retained?: LeaseRecord; unread: LeaseRecord[] };
}

/** A client whose broker echoes what is published on the claim topic and acknowledges it, as told. */
function fakeClient(claim: () => BaseTopicClaim): FakeClient {
  const sent: Array<{ topic: string; payload: string }> = [];
  const broker: FakeClient['broker'] = { echo: true, ack: true, unread: [] };
  const publish = (topic: string, payload: string, _options?: unknown, cb?: (err?: Error) => void): void => {
    sent.push({ topic, payload });
    if (broker.echo && topic === topics.bridgeClaim) queueMicrotask(() => claim().heard(topic, Buffer.from(payload)));
    if (broker.ack && cb) queueMicrotask(() => cb());
  };
  const client = {
    connected: true,
    publish,
    publishAsync: async (topic: string, payload: string) => publish(topic, payload),
    subscribeAsync: async () => {
      if (broker.retained) claim().heard(topics.bridgeClaim, Buffer.from(JSON.stringify(broker.retained)));
      return [];
    },
    unsubscribeAsync: async () => {
      for (const record of broker.unread.splice(0)) claim().heard(topics.bridgeClaim, Buffer.from(JSON.stringify(record)));
    },
  } as unknown as MqttClient & { connected: boolean };
  return { client, sent, broker };
}

async function setup(ctx: { onTestFinished(fn: () => unknown): void }, send?: ClaimOptions['send']) {
  const clock = new FakeClock(0);
  const lease = await Lease.take(await tempDir(), createLogger('silent'), { clock });
  ctx.onTestFinished(() => lease.release());
  const said: string[] = [];
  const log = createLogger(
    'info',
    {
      write: (chunk: string) =>
        void said.push(
          ...chunk
            .split('\n')
            .filter(Boolean)
            .map((l) => (JSON.parse(l) as { msg: string }).msg),
        ),
    },
    { format: 'json' },
  );
  const others: Array<string | undefined> = [];
  const lost: string[] = [];
  const claim = new BaseTopicClaim({
    lease,
    topics,
    log,
    other: (o) => others.push(o),
    lost: (o) => lost.push(o.id),
    refused: () => undefined,
    send,
  });
  const fake = fakeClient(() => claim);
  const hear = (record: LeaseRecord | '', topic = topics.bridgeClaim): boolean =>
    claim.heard(topic, Buffer.from(record === '' ? '' : JSON.stringify(record)));
  return { clock, lease, claim, said, others, lost, hear, ...fake };
}

/** Lets the fake broker's answers (microtasks) and the claim's awaits run. */
const settle = (clock: FakeClock): Promise<void> => clock.advance(0);

/** Moves the clock `ms` a beat at a time, each beat's renewal done (the lease, taken at 0, looks at its lock file first). */
async function beats(clock: FakeClock, lease: Lease, ms: number): Promise<void> {
  for (let moved = 0; moved < ms; moved += BEAT_MS) {
    await clock.advance(BEAT_MS);
    await expect.poll(() => lease.record.beat).toBe(Math.floor(clock.now() / BEAT_MS));
    await settle(clock);
  }
}

describe('the base topic claim', () => {
  it.for([+1, -1])(
    'a candidate waits while the claim beats (the wall clock %i h: no matter), counting connected time only, knocking; takes it after a grace of stillness',
    async (hours, ctx) => {
      const { clock, claim, hear, client, sent, said, lease } = await setup(ctx);
      vi.useFakeTimers({ toFake: ['Date'] });
      hear(other);
      let done = false;
      const waiting = claim.wait(client, new AbortController().signal).then(() => (done = true));
      // Renewed every beat for a minute, the wall clock jumping meanwhile: it waits on.
      for (let beat = 1; beat <= 12; beat++) {
        await clock.advance(BEAT_MS);
        if (beat === 2) vi.setSystemTime(Date.now() + hours * 3_600_000);
        hear({ ...other, beat });
      }
      expect(done).toBe(false);
      expect(said.filter((l) => l.includes('is held by another dziennik2mqtt (installation bbbbbbbb on nas, pid 1'))).toHaveLength(1);
      // Away from the broker for two graces: that time does not count.
      client.connected = false;
      await clock.advance(2 * GRACE_MS);
      expect(done).toBe(false);
      client.connected = true;
      await clock.advance(GRACE_MS - 2 * BEAT_MS);
      expect(done).toBe(false);
      await clock.advance(3 * BEAT_MS);
      await settledOn(clock, waiting, BEAT_MS);
      expect(said.at(-1)).toContain('has not renewed its claim for 15 s; taking it over');
      const knocks = sent.filter((m) => m.topic === topics.bridgeKnock);
      expect(knocks.length).toBeGreaterThanOrEqual(12);
      expect(knocks.every((m) => JSON.parse(m.payload).run === lease.record.run)).toBe(true);
      expect(claim.predecessor).toMatchObject({ id: 'bbbbbbbb', beat: 12 });
    },
  );

  it("a candidate that stalled for the grace reads the holder's renewals waiting for it before it judges the claim still", async (ctx) => {
    const { clock, claim, hear, client, broker } = await setup(ctx);
    hear(other);
    let done = false;
    const waiting = claim.wait(client, new AbortController().signal).then(() => (done = true));
    await settle(clock);
    // The candidate's process did not run for a grace and more (a busy machine): the holder renewed meanwhile,
    // and its claims wait in the socket when the candidate's timer fires.
    broker.unread.push({ ...other, beat: 1 }, { ...other, beat: 2 });
    await clock.advance(GRACE_MS + BEAT_MS);
    expect(done).toBe(false);
    expect(claim.predecessor).toMatchObject({ beat: 2 });
    // The holder then stops renewing: a grace of stillness, looked at after it, and the candidate takes over.
    await clock.advance(GRACE_MS + BEAT_MS);
    await settledOn(clock, waiting, BEAT_MS);
    expect(done).toBe(true);
  });

  it("a claim given up ends the wait at once; this folder's own last run is taken at once", async (ctx) => {
    const { clock, claim, hear, client, lease } = await setup(ctx);
    hear(other);
    const waiting = claim.wait(client, new AbortController().signal);
    await clock.advance(BEAT_MS);
    hear({ ...other, released: true });
    await settledOn(clock, waiting, 0);
    expect(claim.predecessor).toMatchObject({ id: 'bbbbbbbb', released: true });

    hear({ ...lease.record, run: 'an-earlier-run', fence: 9 });
    await settledOn(clock, claim.wait(client, new AbortController().signal), 0);
    expect(claim.predecessor).toBeUndefined();
  });

  it('the holder renews on the beat; another claim while its lease is alive is a conflict it says and answers, never an order', async (ctx) => {
    const { clock, claim, client, broker, sent, said, others, lost, lease, hear } = await setup(ctx);
    broker.retained = other;
    expect(await settledOn(clock, claim.take(client), 150)).toBeUndefined();
    // One more than the fence it took the topic from.
    expect(lease.record.fence).toBe(5);
    const claims = (): LeaseRecord[] => sent.filter((m) => m.topic === topics.bridgeClaim).map((m) => JSON.parse(m.payload) as LeaseRecord);
    await clock.advance(BEAT_MS);
    await expect.poll(() => claims().length).toBe(2);
    expect(claim.alive).toBe(true);

    // A stranger's retained claim, renewed every 20 s for a minute: each time said, and claimed again.
    const stranger: LeaseRecord = { ...other, id: 'ffffffff', run: 'x', host: 'somewhere', fence: 99 };
    for (let i = 0; i < 3; i++) {
      const before = claims().length;
      hear({ ...stranger, beat: i });
      expect(claims().length).toBe(before + 1);
      expect(claims().at(-1)).toMatchObject({ run: lease.record.run, fence: 5 });
      await beats(clock, lease, 20_000);
    }
    expect(claim.alive).toBe(true);
    expect(lost).toEqual([]);
    expect(said.filter((l) => l.includes('claims base topic d2m: a conflict, not an order'))).toHaveLength(1);
    // Said once in the log, and in `problem` each time it claimed (cleared in between: 20 s is over a grace).
    expect(others.filter((o) => o?.includes('installation ffffffff on somewhere'))).toHaveLength(3);
    // A knock is told too; once none was heard for a grace, the conflict is over.
    hear({ ...other, run: 'waiting' }, topics.bridgeKnock);
    expect(said.at(-1)).toContain('knocks at base topic d2m');
    expect(others.at(-1)).toContain('installation bbbbbbbb on nas');
    await beats(clock, lease, GRACE_MS + 2 * BEAT_MS);
    expect(others.at(-1)).toBeUndefined();
    // Another's last will saying `offline` for it: `online` again at once.
    claim.heard(topics.bridgeState, Buffer.from('offline'));
    expect(sent.at(-1)).toEqual({ topic: topics.bridgeState, payload: 'online' });
    // A clean stop gives it up with its fence.
    await claim.giveUp(client);
    expect(claims().at(-1)).toMatchObject({ released: true, fence: 5 });
  });

  it('a holder whose renewals went unanswered acts on nothing; then yields to a higher fence only', async (ctx) => {
    const { clock, claim, client, broker, lost, lease } = await setup(ctx);
    expect(await settledOn(clock, claim.take(client), 150)).toBeUndefined();
    broker.ack = false;
    await clock.advance(GRACE_MS - BEAT_MS);
    expect(claim.alive).toBe(false);
    // Looking again: the claim as the broker keeps it is a lower fence's (a stranger's): claimed again.
    broker.ack = true;
    broker.retained = { ...other, fence: 0 };
    // (A look begun while the broker was silent waits out its beat first.)
    await beats(clock, lease, 2 * BEAT_MS);
    await expect.poll(() => claim.alive).toBe(true);
    expect(lost).toEqual([]);
    // Unanswered again, and meanwhile a successor took it with a higher fence: lost.
    broker.ack = false;
    await clock.advance(GRACE_MS);
    await expect.poll(() => claim.alive).toBe(false);
    broker.retained = { ...other, fence: lease.record.fence + 1 };
    await beats(clock, lease, 2 * BEAT_MS);
    await expect.poll(() => lost).toEqual(['bbbbbbbb']);
  });

  it('a holder renews in the bridge’s turn (within the broker’s receive maximum): a renewal waiting behind a burst is sent, not lost', async (ctx) => {
    // The bridge's turns, held as a burst of events would hold them: each renewal waits here until let go.
    const waiting: Array<() => void> = [];
    const to: { client?: MqttClient } = {};
    const { clock, claim, sent, lease, ...fake } = await setup(ctx, (topic, payload, options, answered) => {
      waiting.push(() => to.client?.publish(topic, payload, options, answered));
      return true;
    });
    to.client = fake.client;
    const taking = claim.take(fake.client);
    await settle(clock);
    waiting.splice(0).forEach((go) => go());
    expect(await settledOn(clock, taking, 150)).toBeUndefined();
    const renewals = (): number => sent.filter((m) => m.topic === topics.bridgeClaim).length;
    const before = renewals();
    await clock.advance(BEAT_MS);
    await expect.poll(() => lease.record.beat).toBe(1);
    await settle(clock);
    // Its turn not come yet: nothing on the client beside the window.
    expect(waiting.length).toBeGreaterThan(0);
    expect(renewals()).toBe(before);
    waiting.splice(0).forEach((go) => go());
    await settle(clock);
    expect(renewals()).toBeGreaterThan(before);
    expect(claim.alive).toBe(true);
  });

  it("a holder that lapsed for less than a grace (its own stall) claims again over a stranger's higher fence", async (ctx) => {
    const { clock, claim, client, broker, lost, lease } = await setup(ctx);
    expect(await settledOn(clock, claim.take(client), 150)).toBeUndefined();
    // Its renewal at the next beat goes unanswered (the process stalled), and a stranger's claim is what the broker keeps.
    broker.ack = false;
    await beats(clock, lease, BEAT_MS);
    broker.ack = true;
    broker.retained = { ...other, id: 'ffffffff', run: 'x', fence: 99 };
    // At the beat after, it has lapsed (two beats unanswered) but no honest bridge could have taken over yet.
    await beats(clock, lease, BEAT_MS);
    await expect.poll(() => claim.alive).toBe(true);
    expect(lost).toEqual([]);
  });

  it('of two taking it at the same moment, the one whose claim the broker acknowledged first keeps it', async (ctx) => {
    const { clock, claim, client, broker, hear } = await setup(ctx);
    broker.ack = false;
    const taking = claim.take(client);
    await settle(clock);
    hear({ ...other, fence: 1 });
    expect(await settledOn(clock, taking, BEAT_MS)).toMatchObject({ id: 'bbbbbbbb' });
    expect(claim.alive).toBe(false);
  });

  it("a claim or knock with this installation's id from another folder: the candidate is a copy, and takes an identity of its own", async (ctx) => {
    const { clock, claim, client, lease, said, hear } = await setup(ctx);
    const id = lease.record.id;
    const original: LeaseRecord = { ...other, id, place: 'the-original' };
    hear(original);
    const waiting = claim.wait(client, new AbortController().signal);
    await clock.advance(BEAT_MS);
    hear({ ...original, beat: 1 });
    await expect
      .poll(() => said.filter((l) => l.includes("runs with this installation's identity from another folder: this data_dir is a copy")))
      .toHaveLength(1);
    expect(lease.record.id).not.toBe(id);
    // Still waiting for the original, which runs.
    await clock.advance(BEAT_MS);
    hear({ ...original, beat: 2 });
    await clock.advance(BEAT_MS);
    hear({ ...original, released: true });
    await settledOn(clock, waiting, 0);
    expect(claim.predecessor).toMatchObject({ id, place: 'the-original' });
  });
});
