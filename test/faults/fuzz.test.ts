// Bad input on the command topics. Every command topic of a running bridge gets random bytes (seeded),
// a 500 KB payload, wrong JSON and ids built to escape (../../Me, 1 OR 1=1, %2e%2e/): each gets an error
// result, nothing reaches the portal, and the bridge still does a good command afterwards. The config
// loader's fuzzing is in config-fuzz.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seeded } from '../helpers/faults.js';
import { ANIA, PortalWorld } from '../helpers/faults-world.js';
import { changesPortal } from '../helpers/portal.js';

// Over HTTP (`portal: 'http'`): the portal's broken answers as the sockets carry them are the subject.

const SEED = 0x0d2a_2026;

describe('command topics', () => {
  let w: PortalWorld;

  beforeAll(async () => {
    w = await PortalWorld.start({ portal: 'http' });
    await w.firstPass({ accounts: [w.account({ messages: [...(ANIA.messages ?? [])] })] });
  });

  afterAll(async () => {
    await w.stop();
  });

  function payloads(): { name: string; payload: Buffer }[] {
    const random = seeded(SEED);
    const list: { name: string; payload: Buffer }[] = [];
    for (let i = 0; i < 16; i++) {
      const bytes = Buffer.alloc(1 + Math.floor(random() * 200));
      for (let j = 0; j < bytes.length; j++) bytes[j] = Math.floor(random() * 256);
      list.push({ name: `random bytes #${i} (seed ${SEED})`, payload: bytes });
    }
    const texts: [string, string][] = [
      // Larger ones never reach the bridge: the broker drops them (test/security/mqtt-size.test.ts).
      ['500 KB', 'x'.repeat(500 * 1024)],
      ['just over 1 KB', 'a'.repeat(1025)],
      ['a long id of 1024 letters', 'a'.repeat(1024)],
      ['../../Me', '../../Me'],
      ['1 OR 1=1', '1 OR 1=1'],
      ['%2e%2e/', '%2e%2e/'],
      ['..%2F..%2FMe', '..%2F..%2FMe'],
      ['sick/../../x', 'sick/../../x'],
      ['NUL inside', 'sick\u0000'],
      ['newline inside', 'sick\nall'],
      ['unknown notice id', 'LID-NBOARD-NOTICE-unknown'],
      ['SQL in JSON', JSON.stringify({ id: "1'; DROP TABLE x; --", transaction: 't' })],
      ['path in JSON', JSON.stringify({ id: '../../Me' })],
      ['broken JSON', '{"id": "sick"'],
      ['JSON array', '[1,2,3]'],
      ['JSON id object', '{"id": {"$ne": null}}'],
      ['JSON id null', '{"id": null}'],
      ['JSON transaction list', '{"id": "x", "transaction": []}'],
      ['JSON number id', '{"id": 1e400}'],
      ['deep JSON', `${'['.repeat(5000)}${']'.repeat(5000)}`],
      ['template', '${jndi:ldap://example.invalid/a}'],
      ['markup', '<script>alert(1)</script>'],
      ['empty', ''],
      ['spaces', '   '],
      ['emoji', '😀'.repeat(100)],
      ['ALL in capitals', 'ALL'],
    ];
    for (const [name, text] of texts) list.push({ name, payload: Buffer.from(text, 'utf8') });
    return list;
  }

  /** Publishes one command and waits for its result. */
  async function command(topic: string, payload: Buffer): Promise<Record<string, unknown>> {
    return (await commands(topic, [payload]))[0]!;
  }

  /**
   * A refresh press: one inside the minute after a forced pass waits for the pass when that minute is
   * over, so the fake clock is moved a minute on when no result came. Answers the result and the
   * minutes it took.
   */
  async function press(payload: Buffer): Promise<{ result: Record<string, unknown>; minutes: number }> {
    const h = w.h;
    const topic = `${h.base}/ania/refresh/result`;
    const n = h.rec.on(topic).length;
    await h.rec.publish(`${h.base}/ania/refresh/set`, payload);
    let minutes = 0;
    const answered = (): boolean => h.rec.on(topic).length > n;
    for (const deadline = Date.now() + 10_000; !answered(); ) {
      if (Date.now() > deadline) throw new Error(`no result on ${topic}`);
      // 200 ms for a result that needs no clock, looked for every 5 ms: most presses are answered at once.
      for (const waited = Date.now() + 200; !answered() && Date.now() < waited; ) await new Promise((resolve) => setTimeout(resolve, 5));
      if (!answered() && minutes < 2) {
        await w.clock.advance(60_000);
        minutes++;
      }
    }
    return { result: JSON.parse(h.rec.on(topic)[n]!.text) as Record<string, unknown>, minutes };
  }

  /**
   * Publishes several commands at once (fewer than the router's queue limit) and waits for as many
   * results; results come in the order the bridge finished them.
   */
  async function commands(topic: string, payloads: Buffer[]): Promise<Record<string, unknown>[]> {
    const h = w.h;
    const result = `${topic.slice(0, -'/set'.length)}/result`;
    const n = h.rec.on(result).length;
    await Promise.all(payloads.map((p) => h.rec.publish(topic, p)));
    for (const deadline = Date.now() + 10_000; h.rec.on(result).length < n + payloads.length; ) {
      if (Date.now() > deadline) throw new Error(`not every result on ${result}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return h.rec
      .on(result)
      .slice(n)
      .map((m) => JSON.parse(m.text) as Record<string, unknown>);
  }

  const secretsIn = async (): Promise<string[]> => w.h.leaks();

  it.each(['mark_notices_read', 'send_message', 'no_such_command', 'send_sick'])(
    '%s/set: an error result for every bad payload, no portal request, nothing marked or sent',
    async (name) => {
      const h = w.h;
      const before = w.sim.requests.length;
      const read = w.sim.account(w.login).notices.filter((n) => n.WasRead).length;
      const all = payloads();
      for (let i = 0; i < all.length; i += 10) {
        const batch = all.slice(i, i + 10);
        const results = await commands(
          `${h.base}/ania/${name}/set`,
          batch.map((b) => b.payload),
        );
        const text = JSON.stringify(results);
        expect(
          results.map((r) => r.status),
          `${name} <- ${batch.map((b) => b.name).join(', ')}: ${text}`,
        ).toEqual(batch.map(() => 'error'));
        // A result never repeats a long payload back.
        for (const b of batch) if (b.payload.length > 40) expect(text, b.name).not.toContain(b.payload.toString('utf8').slice(0, 40));
      }
      expect(w.sim.requests.slice(before)).toEqual([]);
      expect(w.sim.account(w.login).notices.filter((n) => n.WasRead)).toHaveLength(read);
      expect(w.sim.messaging.sent).toEqual([]);
      expect(await secretsIn()).toEqual([]);
    },
  );

  it('an unknown child, and a topic with extra levels: error results or nothing, no portal request', async () => {
    const h = w.h;
    const before = w.sim.requests.length;
    for (const child of ['nobody', 'bridge', 'ANIA', '..', '%2e%2e']) {
      const result = await command(`${h.base}/${child}/refresh/set`, Buffer.from('PRESS'));
      expect(result, child).toMatchObject({ status: 'error', error: `unknown child "${child}"` });
    }
    for (const topic of [`${h.base}/ania/refresh/x/set`, `${h.base}/ania/set`, `${h.base}//refresh/set`, `${h.base}/ania/../set`]) {
      await h.rec.publish(topic, 'PRESS');
    }
    await w.refresh('PRESS'); // a good command still answers, and in order
    // The refresh's pass may POST what reads (the partial grades) or registers the change feed's device
    // (the pass after a start's first): neither marks nor sends anything.
    expect(w.sim.requests.slice(before).filter(changesPortal)).toEqual([]);
  });

  it('refresh/set with any payload: at most one pass a minute, no POST that changes anything', async () => {
    const grades = (): number => w.sim.count({ path: '/gateway/api/2.0/Grades' });
    let presses = 0;
    let minutes = 0;
    const before = grades();
    const requests = w.sim.requests.length;
    for (const { name, payload } of payloads()) {
      const g = grades();
      const answer = await press(payload);
      expect(['ok', 'error'], name).toContain(answer.result.status);
      expect(grades() - g, name).toBeLessThanOrEqual(1);
      if (answer.result.status === 'ok') presses++;
      minutes += answer.minutes;
    }
    // One forced pass for the first press, then at most one for each minute the clock moved on
    // (test/security/refresh-flood.test.ts floods at once: there all join one).
    expect(presses).toBeGreaterThan(0);
    expect(grades() - before).toBeLessThanOrEqual(1 + minutes);
    // A forced pass may read partial grades (a POST that reads); it never marks or sends anything.
    expect(w.sim.requests.slice(requests).filter(changesPortal)).toEqual([]);
    expect(w.sim.messaging.sent).toEqual([]);
  });

  it('after all that: the bridge still answers good commands', async () => {
    const h = w.h;
    expect((await press(Buffer.from(''))).result).toEqual({ status: 'ok' });
    expect(await command(`${h.base}/ania/mark_notices_read/set`, Buffer.from('all'))).toMatchObject({ status: 'ok', marked: 3 });
    expect(await command(`${h.base}/ania/send_message/set`, Buffer.from('sick'))).toMatchObject({ status: 'ok', sent: true });
    expect(w.sim.messaging.sent).toHaveLength(1);
    expect(h.state('ania', 'problem')).toBe('OFF');
    expect(await secretsIn()).toEqual([]);
  });
});
