// Replying and writing through the real bridge (interface 7.2, 7.3): the exact POST a reply sends,
// a message written to a named teacher and to the selected recipient, and every refusal of 7.3 with
// nothing going out to the portal.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';
import { command } from '../helpers/commands.js';
import { SimTap } from '../helpers/faults-sim.js';
import type { Harness } from '../helpers/app.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const NOW = '2026-11-18T09:10:00+01:00';
const school = simulatedSchool(NOW);

const REPLY = { host: 'messages' as const, method: 'POST', path: '/api/messages/reply' };
const WRITE = { host: 'messages' as const, method: 'POST', path: '/api/messages' };
const MATHS = 'Matematyka – Piotr Wiśniewski';
const PIOTR = '4417218';
const ANNA = '4417203';
const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

async function bridge(options: { write?: boolean; perDay?: number } = {}): Promise<{ h: Harness; tap: SimTap }> {
  const tap = new SimTap(school.sim);
  const h = await school.start({
    accounts: [{ login: ANIA.login, password: ANIA.password, write_messages: options.write ?? true }],
    ...(options.perDay === undefined ? {} : { messagesPerDay: options.perDay }),
  });
  await h.runUntil(() => h.state('ania', 'last_update') !== undefined && h.state('ania', 'opened_message') !== undefined, 'the first passes');
  return { h, tap };
}

/** A message from Piotr Wiśniewski, opened through the bridge. */
async function opened(h: Harness, init: { from?: number | 'system'; noReply?: 0 | 1 } = {}): Promise<number> {
  const message = school.sim.messaging.addMessage(ANIA.login, {
    topic: 'Poprawa sprawdzianu',
    body: 'Poprawa we wtorek.',
    from: init.from ?? 162002,
    noReply: init.noReply ?? 0,
  });
  await h.runUntil(() => h.attributes('ania', 'newest_message')?.id === String(message.id), 'the new message listed', 3 * 60_000);
  expect(await command(h, 'ania', 'open_message', String(message.id))).toMatchObject({ status: 'ok' });
  return message.id;
}

const posts = (tap: SimTap): number => tap.arrived(REPLY) + tap.arrived(WRITE);

describe('reply', () => {
  it('answers the opened message with one POST /messages/reply: its exact body', async () => {
    const { h, tap } = await bridge();
    const id = await opened(h);
    const text = 'Dzień dobry,\nDziękuję <za> informację & "pozdrawiam"';
    const result = await command(h, 'ania', 'reply', JSON.stringify({ text, transaction: 'r1' }));
    expect(result).toEqual({
      status: 'ok',
      sent: true,
      message_id: String(id),
      topic: 'Poprawa sprawdzianu',
      recipient: 'Piotr Wiśniewski',
      transaction: 'r1',
    });
    const bodies = tap.requestBodies(REPLY);
    expect(bodies).toHaveLength(1);
    expect(JSON.parse(bodies[0]!)).toEqual({
      receivers: { schoolReceivers: [{ accountId: PIOTR }] },
      topic: b64('Re: Poprawa sprawdzianu'),
      content: b64('Dzień dobry,<br>Dziękuję &#60;za&#62; informację &#38; &#34;pozdrawiam&#34;'),
      storageId: null,
      category: 'normal',
      originalMessageId: id,
    });
    expect(school.sim.messaging.sent).toHaveLength(1);
    expect(school.sim.messaging.sent[0]).toMatchObject({ receivers: [PIOTR], originalMessageId: id });
  });
});

describe('write', () => {
  it('writes to a teacher named in "to", and to the selected recipient under message_topic (or the default topic)', async () => {
    const { h, tap } = await bridge();
    const config = JSON.parse(h.rec.last(`${h.prefix}/device/${h.base}_ania/config`)!.text) as { cmps: Record<string, { options?: string[] }> };
    expect(config.cmps.recipient?.options).toEqual(expect.arrayContaining([MATHS, 'Wychowawca – Anna Nowak']));

    const named = await command(
      h,
      'ania',
      'write',
      JSON.stringify({ to: 'Piotr Wiśniewski', topic: 'Zeszyt ćwiczeń', text: 'Czy zeszyt jest potrzebny?' }),
    );
    expect(named).toMatchObject({ status: 'ok', sent: true, recipient: 'Piotr Wiśniewski' });
    expect(JSON.parse(tap.requestBodies(WRITE)[0]!)).toEqual({
      receivers: { schoolReceivers: [{ accountId: PIOTR }] },
      topic: b64('Zeszyt ćwiczeń'),
      content: b64('Czy zeszyt jest potrzebny?'),
      storageId: null,
      category: 'normal',
    });

    expect(await command(h, 'ania', 'recipient', 'Wychowawca – Anna Nowak')).toMatchObject({ status: 'ok' });
    await h.runUntil(() => h.state('ania', 'recipient') === 'Wychowawca – Anna Nowak', 'the recipient state');
    await school.clock.advance(11_000);
    expect(await command(h, 'ania', 'write', JSON.stringify({ text: 'Ania wróci po 12:00.' }))).toMatchObject({ sent: true });
    expect(school.sim.messaging.sent[1]).toMatchObject({ receivers: [ANNA], topic: 'Wiadomość – Ania', content: 'Ania wróci po 12:00.' });

    expect(await command(h, 'ania', 'message_topic', 'Wyjście z lekcji')).toMatchObject({ status: 'ok' });
    await school.clock.advance(11_000);
    expect(await command(h, 'ania', 'write', JSON.stringify({ text: 'Proszę zwolnić Anię.' }))).toMatchObject({ sent: true });
    expect(school.sim.messaging.sent[2]).toMatchObject({ receivers: [ANNA], topic: 'Wyjście z lekcji' });

    // Both kept across a restart.
    await h.restart();
    await h.runUntil(() => h.state('ania', 'last_update') !== undefined, 'the passes after the restart');
    expect(h.state('ania', 'recipient')).toBe('Wychowawca – Anna Nowak');
    expect(h.state('ania', 'message_topic')).toBe('Wyjście z lekcji');
    await school.clock.advance(11_000);
    expect(await command(h, 'ania', 'write', JSON.stringify({ text: 'Po restarcie.' }))).toMatchObject({ sent: true });
    expect(school.sim.messaging.sent[3]).toMatchObject({ receivers: [ANNA], topic: 'Wyjście z lekcji', content: 'Po restarcie.' });
  });
});

describe('refusals (interface 7.3): sent false with the rule, nothing goes out', () => {
  it('without write_messages the entities do not exist and reply and write are refused', async () => {
    const { h, tap } = await bridge({ write: false });
    const config = JSON.parse(h.rec.last(`${h.prefix}/device/${h.base}_ania/config`)!.text) as { cmps: Record<string, unknown> };
    for (const key of ['reply', 'write', 'recipient', 'message_topic']) expect(config.cmps, key).not.toHaveProperty(key);
    expect(config.cmps).toHaveProperty('open_message');
    await opened(h);
    expect(await command(h, 'ania', 'reply', JSON.stringify({ text: 'Dziękuję' }))).toMatchObject({
      status: 'error',
      sent: false,
      code: 'write_off',
    });
    expect(await command(h, 'ania', 'write', JSON.stringify({ to: 'class_tutor', text: 'Dziękuję' }))).toMatchObject({
      status: 'error',
      sent: false,
      code: 'write_off',
    });
    expect(await command(h, 'ania', 'recipient', MATHS)).toMatchObject({ status: 'error' });
    expect(await command(h, 'ania', 'message_topic', 'Temat')).toMatchObject({ status: 'error' });
    expect(posts(tap)).toBe(0);
  });

  it('refuses an empty text, a text over 4,000 characters, an unknown recipient and a noReply original', async () => {
    const { h, tap } = await bridge();
    const write = (payload: object) => command(h, 'ania', 'write', JSON.stringify(payload));
    expect(await write({ to: MATHS, text: '   ' })).toMatchObject({ status: 'error', sent: false, code: 'empty' });
    expect(await write({ to: MATHS, text: 'a'.repeat(4_001) })).toMatchObject({ sent: false, code: 'too_long' });
    expect(await write({ to: 'Zofia Nieznana', text: 'Dzień dobry' })).toMatchObject({ sent: false, code: 'recipient_unknown' });
    expect(await write({ text: 'Dzień dobry' })).toMatchObject({ sent: false, code: 'recipient_unknown' }); // nothing selected
    await opened(h, { from: 'system', noReply: 1 });
    expect(await command(h, 'ania', 'reply', JSON.stringify({ text: 'Dziękuję' }))).toMatchObject({ sent: false, code: 'no_reply' });
    expect(posts(tap)).toBe(0);
    // 4,000 characters exactly still go.
    expect(await write({ to: MATHS, text: 'ą'.repeat(4_000) })).toMatchObject({ sent: true });
    expect(posts(tap)).toBe(1);
  });

  it('refuses a second send within 10 s, the same text to the same person within 2 minutes, and the day over messages_per_day', async () => {
    const { h, tap } = await bridge({ perDay: 3 });
    const write = (payload: object) => command(h, 'ania', 'write', JSON.stringify(payload));
    expect(await write({ to: MATHS, text: 'Pierwsza' })).toMatchObject({ sent: true });
    expect(await write({ to: 'class_tutor', text: 'Druga' })).toMatchObject({ sent: false, code: 'too_soon' });
    await school.clock.advance(11_000);
    expect(await write({ to: MATHS, text: 'Pierwsza' })).toMatchObject({ sent: false, code: 'duplicate' });
    expect(await write({ to: 'class_tutor', text: 'Pierwsza' })).toMatchObject({ sent: true }); // another person
    await school.clock.advance(2 * 60_000);
    expect(await write({ to: MATHS, text: 'Pierwsza' })).toMatchObject({ sent: true }); // after 2 minutes
    await school.clock.advance(11_000);
    expect(await write({ to: MATHS, text: 'Czwarta' })).toMatchObject({ sent: false, code: 'daily_limit' });
    expect(posts(tap)).toBe(3);
  });

  it('a 5xx answer is an unknown outcome (sent: null), never retried', async () => {
    const { h, tap } = await bridge();
    school.sim.messaging.answerNextSend(ANIA.login, { status: 503 });
    const result = await command(h, 'ania', 'write', JSON.stringify({ to: MATHS, text: 'Dzień dobry', transaction: 'x' }));
    expect(result).toMatchObject({ status: 'error', sent: null, code: 'unknown_outcome', transaction: 'x' });
    expect(tap.arrived(WRITE)).toBe(1);
  });
});
