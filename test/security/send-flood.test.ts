// Issue 20, item 2: whoever can publish to the bridge's command topics must not be able to make it
// write to teachers without end. A flood of sends of every kind (fixed, reply, write) costs the
// portal one POST; over a day the child's account sends at most messages_per_day, counted across a
// restart; every send is logged with child, kind, recipient and topic, and never with its text.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { createLogger } from '../../src/util/log.js';
import { simulatedSchool } from '../helpers/school.js';
import { command } from '../helpers/commands.js';
import { SimTap } from '../helpers/faults-sim.js';
import { waitUntil } from '../helpers/mqtt.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const NOW = '2026-11-18T09:10:00+01:00';
const school = simulatedSchool(NOW);
const SENDS = [
  { host: 'messages' as const, method: 'POST', path: '/api/messages' },
  { host: 'messages' as const, method: 'POST', path: '/api/messages/reply' },
];
const SECRET_TEXT = 'Tekst, którego log nie może zawierać';

describe('the send flood and the daily cap', () => {
  it('a flood of every kind of send makes one POST; a day never gets more than messages_per_day, across a restart', async () => {
    const lines: string[] = [];
    const log = createLogger('info', { write: (chunk: string) => void lines.push(...chunk.split('\n').filter(Boolean)) }, { format: 'json' });
    const tap = new SimTap(school.sim);
    const posts = (): number => SENDS.reduce((n, s) => n + tap.arrived(s), 0);
    const message = school.sim.messaging.addMessage(ANIA.login, { topic: 'Pytanie', body: 'Treść', from: 162002 });
    const h = await school.start({
      accounts: [{ login: ANIA.login, password: ANIA.password, write_messages: true, messages: [...(ANIA.messages ?? [])] }],
      log,
      // Every tier every 20 minutes: the cap counts sends by the Warsaw day, whatever the passes between,
      // and the 15 simulated hours to the next day read at the default tiers: 13.5 s -> 10 s of CPU alone.
      poll: { fast_interval: '20m', school_interval: '20m' },
    });
    await h.runUntil(
      () => h.state('ania', 'last_update') !== undefined && h.attributes('ania', 'newest_message')?.id === String(message.id),
      'the first passes',
    );
    expect(await command(h, 'ania', 'open_message', String(message.id))).toMatchObject({ status: 'ok' });

    // The flood: 60 commands at once, fixed, reply and write mixed.
    const kinds = ['send_message', 'reply', 'write'] as const;
    const results = kinds.map((k) => `${h.base}/ania/${k}/result`);
    for (let i = 0; i < 60; i++) {
      const kind = kinds[i % 3]!;
      const payload =
        kind === 'send_message' ? 'sick' : JSON.stringify({ text: `${SECRET_TEXT} ${i}`, ...(kind === 'write' ? { to: 'class_tutor' } : {}) });
      void h.rec.publish(`${h.base}/ania/${kind}/set`, payload);
    }
    await waitUntil(() => results.reduce((n, t) => n + h.rec.on(t).length, 0) === 60, 'an answer to every command of the flood', 15_000);
    const answers = results.flatMap((t) =>
      h.rec.on(t).map((m) => JSON.parse(m.text) as { status: string; sent?: boolean; code?: string; error?: string }),
    );
    expect(posts()).toBe(1);
    expect(answers.filter((a) => a.sent === true)).toHaveLength(1);
    // Everything else was refused, saying why: the pause between sends, or the queue being full.
    for (const a of answers.filter((x) => x.sent !== true)) expect(a.code ?? a.error).toMatch(/too_soon|busy/);

    // Over the day: a new text every 11 s; the 11th send of the day is refused, and stays refused after a restart.
    const write = (i: number) => command(h, 'ania', 'write', JSON.stringify({ to: 'Matematyka – Piotr Wiśniewski', text: `${SECRET_TEXT} nr ${i}` }));
    for (let i = 2; i <= 10; i++) {
      await school.clock.advance(11_000);
      expect(await write(i), `send ${i}`).toMatchObject({ sent: true });
    }
    await school.clock.advance(11_000);
    expect(await write(11)).toMatchObject({ status: 'error', sent: false, code: 'daily_limit' });
    await h.restart();
    await h.runUntil(() => h.state('ania', 'last_update') !== undefined, 'the passes after the restart');
    await school.clock.advance(11_000);
    expect(await write(12)).toMatchObject({ sent: false, code: 'daily_limit' });
    expect(await command(h, 'ania', 'send_message', 'sick')).toMatchObject({ sent: false, code: 'daily_limit' });
    expect(posts()).toBe(10);

    // The next Warsaw day has its own ten.
    await h.advanceMinutes(15 * 60);
    expect(await write(13)).toMatchObject({ sent: true });
    expect(posts()).toBe(11);

    const sends = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'sending a message');
    expect(sends).toHaveLength(11);
    for (const s of sends) {
      expect(s).toMatchObject({ level: 'info', child: 'ania' });
      expect(['fixed', 'reply', 'write']).toContain(s.kind);
      expect(typeof s.recipient).toBe('string');
      expect(typeof s.topic).toBe('string');
    }
    expect(lines.filter((l) => l.includes(SECRET_TEXT))).toEqual([]);
  }, 120_000);
});
