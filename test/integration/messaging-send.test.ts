// Sending a fixed message against the simulated portal: recipients, exactly one POST per press, the
// outcome classes (sent / refused / unknown), the duplicate guard, and a restart in the middle.
import { describe, expect, it } from 'vitest';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { PortalSimulator } from '../../src/simulator/index.js';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import type { FakeClock } from '../helpers/clock.js';
import { silentLogger } from '../../src/util/log.js';
import type { Identity } from '../../src/engine/identity.js';
import { fetchIdentity } from '../../src/engine/resources/identity.js';
import { FixedMessageSender } from '../../src/features/messaging/sender.js';
import { userLookup } from '../../src/engine/resources/lookups.js';
import { ResourceCache } from '../../src/engine/cache.js';
import type { MessagesApi } from '../../src/portal/messaging-api.js';
import { MessageNotSentError } from '../../src/features/messaging/errors.js';
import { CommandError } from '../../src/features/kit/commands.js';
import { tempDir, simulatorPerTest } from '../helpers/portal.js';
import { SimTap } from '../helpers/faults-sim.js';
import { waitUntil } from '../helpers/mqtt.js';
import { messagingClient } from '../unit/features/messaging/sim-client.js';
import type { FixedMessage } from '../../src/config/schema.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const JANEK = DEMO_ACCOUNTS[1]!;
const MIN = 60_000;
const POST = { host: 'messages' as const, method: 'POST', path: '/api/messages' };

const MESSAGES: FixedMessage[] = [
  {
    id: 'sick',
    name: 'Nieobecność',
    to: 'class_tutor',
    topic: 'Nieobecność {first_name}',
    body: 'Dzień dobry, {first_name} jest dziś nieobecna z powodu choroby.',
  },
  { id: 'math', name: 'Do matematyka', to: { teacher: 'piotr wisniewski' }, topic: 'Pytanie <{class}>', body: 'Czy "zadanie" & test\nsą {date}?' },
  { id: 'anna', name: 'Do pani Nowak', to: { teacher: 'Anna Nowak' }, topic: 'Pytanie', body: 'Treść' },
  { id: 'ghost', name: 'Do nieznanej', to: { teacher: 'Zofia Nieznana' }, topic: 'Pytanie', body: 'Treść' },
  { id: 'direct', name: 'Sekretariat', to: { account_id: '4417316' }, topic: 'Legitymacja', body: 'Prośba o duplikat legitymacji.' },
];

let sim: PortalSimulator;
let clock: FakeClock;
simulatorPerTest((world) => ({ sim, clock } = world));

async function setup(options: { account?: typeof ANIA; dataDir?: string; timeoutMs?: number; noIdentity?: boolean } = {}) {
  const account = options.account ?? ANIA;
  const { api, gateway } = messagingClient({ sim, clock, login: account.login, password: account.password, timeoutMs: options.timeoutMs });
  const identity: Identity | undefined = options.noIdentity ? undefined : await fetchIdentity(gateway, clock.now(), silentLogger());
  const dataDir = options.dataDir ?? (await tempDir());
  const sender = new FixedMessageSender({
    account: account.login,
    messages: MESSAGES,
    api,
    // The class tutor's name through the Users lookup's declaration, as the bridge's own sender reads it.
    user: userLookup(
      new ResourceCache({
        portal: { gateway, messages: {} as MessagesApi, identity: () => identity, clock, log: silentLogger() },
      }),
    ),
    identity: () => identity,
    dataDir,
    clock,
    log: silentLogger(),
  });
  await sender.start();
  return { sender, dataDir };
}

async function refusal(promise: Promise<unknown>): Promise<MessageNotSentError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MessageNotSentError);
  expect(error).toBeInstanceOf(CommandError);
  return error as MessageNotSentError;
}

const posts = () => sim.messaging.sent.length;

describe('sending a fixed message', () => {
  it('sends to the class tutor once: /me checked first, one POST, the right recipient, topic and body', async () => {
    const { sender } = await setup();
    sim.resetCounts();
    const result = await sender.send('sick', 'tx-1');
    expect(result).toEqual({ sent: true, message_id: String(sim.messaging.sent[0]!.id), recipient: 'Nowak Anna' });
    expect(sim.messaging.sent).toHaveLength(1);
    expect(sim.messaging.sent[0]).toMatchObject({
      login: ANIA.login,
      receivers: ['4417203'],
      topic: 'Nieobecność Ania',
      content: 'Dzień dobry, Ania jest dziś nieobecna z powodu choroby.',
      category: 'normal',
    });
    expect(sim.count(POST)).toBe(1);
    const order = sim.requests.filter((r) => r.host === 'messages' && r.path.startsWith('/api/')).map((r) => `${r.method} ${r.path}`);
    expect(order.at(-2)).toBe('GET /api/me');
    expect(order.at(-1)).toBe('POST /api/messages');
  });

  it("finds another class's tutor for another child", async () => {
    const { sender } = await setup({ account: JANEK });
    await sender.send('sick');
    expect(sim.messaging.sent[0]).toMatchObject({ receivers: ['4417269'], topic: 'Nieobecność Jan' });
  });

  it('matches a teacher by name ignoring case, diacritics and word order; escapes the body as HTML', async () => {
    const { sender } = await setup();
    await sender.send('math');
    expect(sim.messaging.sent[0]).toMatchObject({
      receivers: ['4417218'],
      topic: 'Pytanie <4b>',
      content: 'Czy &#34;zadanie&#34; &#38; test<br>są 20.11.2026?',
    });
  });

  it('uses an account_id as it is', async () => {
    const { sender } = await setup();
    await sender.send('direct');
    expect(sim.messaging.sent[0]?.receivers).toEqual(['4417316']);
  });

  it('refuses an ambiguous teacher name with no POST', async () => {
    sim.messaging.addStaff({ accountId: '4419901', label: 'Nowak Anna', groups: ['counsellor'] });
    const { sender } = await setup();
    const error = await refusal(sender.send('anna'));
    expect(error.fields).toEqual({ sent: false, code: 'recipient_ambiguous' });
    expect(sim.count(POST)).toBe(0);
  });

  it('refuses an unknown teacher with no POST', async () => {
    const { sender } = await setup();
    expect((await refusal(sender.send('ghost'))).code).toBe('recipient_unknown');
    expect(sim.count(POST)).toBe(0);
  });

  it('refuses an id that is not configured before any request', async () => {
    const { sender } = await setup();
    sim.resetCounts();
    const error = await refusal(sender.send('../../api/me'));
    expect(error.fields).toEqual({ sent: false, code: 'unknown_message' });
    expect(error.message).not.toContain('../');
    expect(sim.count()).toBe(0);
  });

  it('refuses before the first pass knows the child', async () => {
    const { sender } = await setup({ noIdentity: true });
    expect((await refusal(sender.send('sick'))).code).toBe('not_ready');
    expect(sim.count(POST)).toBe(0);
  });

  it('refuses the same message pressed again within 2 minutes, and sends it after', async () => {
    const { sender } = await setup();
    await sender.send('sick');
    await clock.advance(MIN);
    const error = await refusal(sender.send('sick'));
    expect(error.message).toBe('not sent: the same text went to Nowak Anna less than 2 minutes ago');
    expect(error.fields).toEqual({ sent: false, code: 'duplicate' });
    await sender.send('direct'); // another message is not a duplicate
    expect(posts()).toBe(2);
    await clock.advance(MIN);
    await sender.send('sick');
    expect(posts()).toBe(3);
  });

  it.each([500, 502, 503])('a %i is an unknown outcome (sent: null) with no second POST', async (status) => {
    const { sender } = await setup();
    sim.failNext(1, status, POST);
    const error = await refusal(sender.send('sick'));
    expect(error.fields).toEqual({ sent: null, code: 'unknown_outcome' });
    expect(error.message).toMatch(/check the sent messages/);
    expect(sim.count(POST)).toBe(1);
    // An unknown outcome may have gone out: pressing again soon (after the 10 s pause) is a duplicate.
    expect((await refusal(sender.send('sick'))).code).toBe('too_soon');
    await clock.advance(11_000);
    expect((await refusal(sender.send('sick'))).code).toBe('duplicate');
    expect(sim.count(POST)).toBe(1);
  });

  it('a 5xx after which the portal did store the message is still unknown, never retried', async () => {
    const { sender } = await setup();
    sim.messaging.answerNextSend(ANIA.login, { status: 500, deliver: true });
    expect((await refusal(sender.send('sick'))).sent).toBeNull();
    expect(posts()).toBe(1);
  });

  it('a timeout is an unknown outcome with exactly one POST reaching the portal', async () => {
    const { sender } = await setup({ timeoutMs: 400 });
    const tap = new SimTap(sim);
    sim.setLatency(1_200, POST);
    expect((await refusal(sender.send('sick'))).sent).toBeNull();
    // The portal stores the held POST once its latency ends; by then a retry sent after the timeout
    // would long have arrived.
    await waitUntil(() => posts() === 1, 'the held POST to be stored', 10_000);
    expect(tap.arrived(POST)).toBe(1);
    expect(posts()).toBe(1);
    sim.setLatency(0);
  });

  it('a success status whose answer reports errors is an unknown outcome', async () => {
    const { sender } = await setup();
    sim.messaging.answerNextSend(ANIA.login, { status: 200, body: { status: 'error', errors: ['Błąd zapisu'] } });
    expect((await refusal(sender.send('sick'))).fields).toEqual({ sent: null, code: 'unknown_outcome' });
  });

  it.each([400, 401, 403, 422])('a %i is refused (sent: false) and may be pressed again at once', async (status) => {
    const { sender } = await setup();
    sim.messaging.answerNextSend(ANIA.login, { status });
    expect((await refusal(sender.send('sick'))).fields).toEqual({ sent: false, code: 'rejected' });
    expect(sim.count(POST)).toBe(1);
    await expect(sender.send('sick')).resolves.toMatchObject({ sent: true });
  });

  it.each([404, 405, 409, 413, 429])('any other 4xx (%i) is an unknown outcome (sent: null), not a refusal', async (status) => {
    const { sender } = await setup();
    sim.messaging.answerNextSend(ANIA.login, { status });
    expect((await refusal(sender.send('sick'))).fields).toEqual({ sent: null, code: 'unknown_outcome' });
    expect(sim.count(POST)).toBe(1);
  });

  it('refuses with no POST when the session check fails or the school has no messages module', async () => {
    const { sender } = await setup();
    sim.failNext(3, 401, { host: 'messages', path: '/api/me' });
    expect((await refusal(sender.send('direct'))).fields).toEqual({ sent: false, code: 'session' });
    expect(sim.count(POST)).toBe(0);

    const other = await setup({ account: JANEK });
    sim.messaging.setModuleAbsent(JANEK.login, true);
    sim.messaging.expireSessions(JANEK.login);
    expect((await refusal(other.sender.send('direct'))).sent).toBe(false);
    expect(sim.count(POST)).toBe(0);
  });

  it('a restart in the middle of a send never sends it again, and a press right after is a duplicate', async () => {
    const dataDir = await tempDir();
    const first = await setup({ dataDir, timeoutMs: 10_000 });
    const tap = new SimTap(sim);
    sim.setLatency(800, POST);
    const inFlight = first.sender.send('sick').catch((e: unknown) => e);
    // The POST has reached the portal (held there), so the journal entry written before it exists.
    await waitUntil(() => tap.arrived(POST) === 1, 'the POST to reach the portal');

    const after = await setup({ dataDir });
    const interrupted = await after.sender.start();
    expect(interrupted).toEqual([expect.objectContaining({ message: 'sick', state: 'unknown' })]);
    expect((await refusal(after.sender.send('sick'))).code).toBe('too_soon');
    await clock.advance(11_000);
    expect((await refusal(after.sender.send('sick'))).code).toBe('duplicate');

    await inFlight;
    sim.setLatency(0);
    // Both senders are done (the first answered, the second refused): every POST either made is counted.
    expect(tap.arrived(POST)).toBe(1);
    expect(posts()).toBe(1);
    const mode = (await stat(join(dataDir, 'messages', `${ANIA.login}-sent.json`))).mode & 0o777;
    expect(mode).toBe(0o600);
  });
});
