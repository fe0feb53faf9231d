// The download limits: two slots per process handed out in order, the 5-10 s pass delays, and the
// deadline that rejects on the injected clock even while work is still running.
import { describe, expect, it } from 'vitest';
import { DEFAULT_DOWNLOAD_LIMITS, DownloadSlots, checkDelay } from '../../../src/portal/attachments/downloader.js';
import { withDeadline } from '../../../src/util/clock.js';
import { ConnectionError } from '../../../src/portal/errors.js';
import { FakeClock } from '../../helpers/clock.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('DownloadSlots', () => {
  it('lets two run and queues the rest in order', async () => {
    const slots = new DownloadSlots(2);
    const order: number[] = [];
    let running = 0;
    let most = 0;
    const gates: (() => void)[] = [];
    const job = async (n: number) => {
      const release = await slots.acquire();
      running++;
      most = Math.max(most, running);
      order.push(n);
      await new Promise<void>((resolve) => gates.push(resolve));
      running--;
      release();
    };
    const all = Promise.all([1, 2, 3, 4, 5].map(job));
    await tick();
    expect([slots.active, slots.waiting]).toEqual([2, 3]);
    while (gates.length) {
      gates.shift()!();
      await tick();
      await tick();
    }
    await all;
    expect(most).toBe(2);
    expect(order).toEqual([1, 2, 3, 4, 5]);
    expect([slots.active, slots.waiting]).toEqual([0, 0]);
  });

  it('ignores a second release of the same slot', async () => {
    const slots = new DownloadSlots(1);
    const release = await slots.acquire();
    void slots.acquire();
    void slots.acquire();
    await tick();
    release();
    release();
    await tick();
    expect([slots.active, slots.waiting]).toEqual([1, 1]);
  });

  it('is rested once every download is done or asleep on the clock, not while one is at work', async () => {
    const slots = new DownloadSlots(2);
    const clock = new FakeClock(0);
    let rested = false;
    const look = () => void slots.rested().then(() => (rested = true));
    let answer: () => void = () => undefined;
    // A download that waits for its answer (a request in flight), then for 5 s on the clock, then for another answer.
    const download = slots.atWork(async () => {
      await new Promise<void>((resolve) => (answer = resolve));
      await slots.asleep(() => clock.sleep(5_000));
      await new Promise<void>((resolve) => (answer = resolve));
    });
    look();
    await tick();
    expect(rested).toBe(false);
    answer();
    await tick();
    expect(rested).toBe(true);
    // Woken on the clock: at work again until its answer comes and it ends.
    await clock.advance(5_000);
    rested = false;
    look();
    await tick();
    expect(rested).toBe(false);
    answer();
    await download;
    await tick();
    expect(rested).toBe(true);
  });
});

describe('pollDelay', () => {
  it('checks at once, then every 5 to 10 s, about two minutes over 15 checks', () => {
    const delays = Array.from({ length: 15 }, (_, i) => checkDelay(i + 1, DEFAULT_DOWNLOAD_LIMITS));
    expect(delays[0]).toBe(0);
    for (const d of delays.slice(1)) {
      expect(d).toBeGreaterThanOrEqual(5_000);
      expect(d).toBeLessThanOrEqual(10_000);
    }
    const total = delays.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(100_000);
    expect(total).toBeLessThan(DEFAULT_DOWNLOAD_LIMITS.totalMs);
  });
});

describe('withDeadline', () => {
  it('rejects with ConnectionError at the deadline and aborts the work signal', async () => {
    const clock = new FakeClock('2026-11-20T08:00:00Z');
    let signal: AbortSignal | undefined;
    const result = withDeadline(
      clock,
      150_000,
      () => new ConnectionError('homework file 1: gave up', { account: 'a' }),
      (s) => {
        signal = s;
        return new Promise<never>(() => undefined);
      },
    );
    let error: unknown;
    result.catch((e: unknown) => (error = e));
    await clock.advance(149_999);
    expect(error).toBeUndefined();
    await clock.advance(1);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(signal?.aborted).toBe(true);
  });

  it('leaves no timer behind when the work finishes first', async () => {
    const clock = new FakeClock('2026-11-20T08:00:00Z');
    await expect(
      withDeadline(
        clock,
        1_000,
        () => new ConnectionError('x', { account: 'a' }),
        () => Promise.resolve(7),
      ),
    ).resolves.toBe(7);
    expect(clock.timerCount).toBe(0);
  });
});
