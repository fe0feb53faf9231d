// The simulated messaging host by hand (its own tiny browser, nothing of the client): the bootstrap,
// previews cut mid-character, reading marks read, receivers, sending, replies and noReply.
import { describe, expect, it } from 'vitest';
import type { PortalSimulator } from '../../src/simulator/index.js';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { simulatorPerTest } from '../helpers/portal.js';
import type { FakeClock } from '../helpers/clock.js';
import { follow, logIn, type TinyBrowser } from '../helpers/simulator.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const JANEK = DEMO_ACCOUNTS[1]!;

let sim: PortalSimulator;
let clock: FakeClock;
simulatorPerTest((world) => ({ sim, clock } = world));

async function bootstrapped(account = ANIA): Promise<TinyBrowser> {
  const browser = await logIn(sim, account.login, account.password);
  const { res, body } = await follow(browser, `${sim.urls.base_url}/wiadomosci3`);
  expect(res.status).toBe(200);
  expect(body).not.toContain('Brak dostępu');
  return browser;
}

// The answers are read field by field in the assertions; typing every shape here would only repeat them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function api(browser: TinyBrowser, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const init: RequestInit = body === undefined ? {} : { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } };
  const res = await browser.request(`${sim.urls.messages_url}${path}`, init);
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('simulated messaging host', () => {
  it('answers 401 without a messaging session and Brak dostępu for a school without the module', async () => {
    const browser = await logIn(sim, ANIA.login, ANIA.password);
    expect((await api(browser, '/api/me')).status).toBe(401);
    sim.messaging.setModuleAbsent(ANIA.login, true);
    expect((await follow(browser, `${sim.urls.base_url}/wiadomosci3`)).body).toContain('Brak dostępu');
    expect((await api(browser, '/api/me')).status).toBe(401);
  });

  it('cuts list previews at a byte count, inside a Polish character, and lists without marking read', async () => {
    const browser = await bootstrapped();
    const list = await api(browser, '/api/inbox/messages?limit=10');
    expect(list.json.total).toBe(5);
    const newest = list.json.data[0];
    expect(newest).toMatchObject({
      messageId: '8811240',
      readDate: null,
      isAnyFileAttached: false,
      senderFirstName: 'Anna',
      senderLastName: 'Nowak',
    });
    const bytes = Buffer.from(newest.content, 'base64');
    expect(bytes.length).toBe(sim.messaging.fixture.previewBytes);
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toThrow();
    expect((await api(browser, '/api/inbox/unreadMessagesCount')).json.data.inbox).toBe(1);
  });

  it('opening a message marks it read and gives the wrapped body', async () => {
    const browser = await bootstrapped();
    const full = await api(browser, '/api/inbox/messages/8811240');
    expect(Buffer.from(full.json.data.Message, 'base64').toString()).toMatch(/^<Message><Content><!\[CDATA\[Szanowni Państwo/);
    expect(full.json.data.noReply).toBe(0);
    expect((await api(browser, '/api/inbox/unreadMessagesCount')).json.data.inbox).toBe(0);
  });

  it('serves a bare array for notes and 404 for the mailboxes a flagged account lacks', async () => {
    const browser = await bootstrapped(JANEK);
    expect(Array.isArray((await api(browser, '/api/notes/messages')).json)).toBe(true);
    expect((await api(browser, '/api/alerts/messages')).status).toBe(404);
    expect((await api(browser, '/api/substitutions/messages')).status).toBe(404);
    expect((await api(browser, '/api/inbox/messages')).status).toBe(200);
  });

  it('offers the receivers: types, the class tutor, a group, the student teachers', async () => {
    const browser = await bootstrapped();
    expect((await api(browser, '/api/receivers/types?includeClass=true')).json.data.list.map((t: { id: string }) => t.id)).toContain('tutors');
    expect((await api(browser, '/api/receivers/groups/school-employees?receiverType=tutors')).json.receivers).toEqual([
      { accountId: '4417203', label: 'Nowak Anna', userId: '1102231', availabilityStatus: { isAvailable: true, returnAt: null } },
    ]);
    expect((await api(browser, '/api/receivers/groups/school-employees?receiverType=nobody')).json.receivers).toEqual([]);
    const teachers = (await api(browser, '/api/receivers/student-subjects')).json as { teacherIdentifier: string }[];
    expect(teachers.map((t) => t.teacherIdentifier)).toContain('4417218');
  });

  it('records a sent message, refuses bad receivers and empty texts', async () => {
    const browser = await bootstrapped();
    const body = {
      receivers: { schoolReceivers: [{ accountId: '4417203' }] },
      topic: b64('Temat ż'),
      content: b64('Treść<br>ą'),
      storageId: null,
      category: 'normal',
    };
    const sent = await api(browser, '/api/messages', body);
    expect(sent.status).toBe(201);
    expect(sent.json.data.status).toBe('sent');
    expect(sim.messaging.sent).toEqual([
      expect.objectContaining({ receivers: ['4417203'], topic: 'Temat ż', content: 'Treść<br>ą', id: sent.json.data.messageId }),
    ]);
    expect((await api(browser, '/api/messages', { ...body, receivers: { schoolReceivers: [{ accountId: 'x' }] } })).status).toBe(400);
    expect((await api(browser, '/api/messages', { ...body, topic: '' })).status).toBe(422);
    expect((await api(browser, '/api/outbox/messages')).json.data[0].topic).toBe('Temat ż');
  });

  it('accepts a reply to the sender and refuses one to a noReply message', async () => {
    const browser = await bootstrapped();
    const base = { topic: b64('Re: zebranie'), content: b64('Będę.'), storageId: null, category: 'normal' };
    const ok = await api(browser, '/api/messages/reply', {
      ...base,
      receivers: { schoolReceivers: [{ accountId: '4417203' }] },
      originalMessageId: 8811240,
    });
    expect(ok.status).toBe(200);
    expect(sim.messaging.sent.at(-1)?.originalMessageId).toBe(8811240);
    const refused = await api(browser, '/api/messages/reply', {
      ...base,
      receivers: { schoolReceivers: [{ accountId: '4417339' }] },
      originalMessageId: 8811026,
    });
    expect(refused.status).toBe(403);
    expect(sim.messaging.sent).toHaveLength(1);
  });

  it('ends messaging sessions on request and after 40 minutes on the clock', async () => {
    const browser = await bootstrapped();
    expect((await api(browser, '/api/me')).status).toBe(200);
    await clock.advance(41 * 60_000);
    expect((await api(browser, '/api/me')).status).toBe(401);
    await follow(browser, `${sim.urls.base_url}/wiadomosci3`);
    expect((await api(browser, '/api/me')).json).toMatchObject({ firstName: 'Marta', groupName: 'Rodzic' });
    sim.messaging.expireSessions(ANIA.login);
    expect((await api(browser, '/api/me')).status).toBe(401);
  });
});
