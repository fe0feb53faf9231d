// Reading messages against the simulated portal: the messages feature's states and events, lists
// fetched only when a counter changed, 404 mailboxes skipped, a bare-array mailbox, previews cut
// inside a Polish character, nothing ever marked read, and a school without the module.
import { describe, expect, it } from 'vitest';
import type { PortalSimulator } from '../../src/simulator/index.js';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import type { FakeClock } from '../helpers/clock.js';
import { silentLogger } from '../../src/util/log.js';
import { problemReason } from '../../src/portal/errors.js';
import { messages, MessagesSource, WATCHED_MAILBOXES, type UnreadMessagesFacts } from '../../src/features/messages/messages.js';
import { EventGate } from '../../src/once/gate.js';
import type { EventPayload } from '../../src/engine/state.js';
import { tempDir, simulatorPerTest } from '../helpers/portal.js';
import { messagingClient } from '../unit/features/messaging/sim-client.js';
import { featurePasses } from '../helpers/feature-pass.js';
import type { Moment } from '../../src/engine/schedule.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const JANEK = DEMO_ACCOUNTS[1]!;
const MIN = 60_000;

let sim: PortalSimulator;
let clock: FakeClock;
simulatorPerTest((world) => ({ sim, clock } = world));

function setup(account = ANIA, at: Moment = 'lessons') {
  const { api, gateway } = messagingClient({ sim, clock, login: account.login, password: account.password });
  const source = new MessagesSource({ api, language: 'pl' });
  // A pass as the coordinator makes one (a Wednesday at the default intervals): the counters and the
  // mailboxes the feature reads, what of them is due, then its computation.
  const { pass, failed } = featurePasses({ feature: messages, state: source, clock, gateway, messages: api, moment: at });
  return { source, pass, api, failed };
}

const lists = (mailbox?: string) => sim.count({ host: 'messages', path: mailbox ? `/api/${mailbox}/messages` : /^\/api\/\w+\/messages$/ });
const counts = () => sim.count({ host: 'messages', path: '/api/inbox/unreadMessagesCount' });

describe('MessagesSource', () => {
  it('publishes the unread count with every counter, the newest inbox message and the unread ones listed', async () => {
    const { source, pass } = setup();
    const result = await pass();
    expect(source.moduleAvailable).toBe(true);
    const unread = result.states!.unread_messages!;
    expect(unread.state).toBe('1');
    const mailboxes = (unread.attributes as UnreadMessagesFacts).mailboxes;
    expect(mailboxes).toHaveLength(14);
    expect(mailboxes).toEqual(
      expect.arrayContaining([
        { mailbox: 'inbox', name: 'Odebrane', unread: 1 },
        { mailbox: 'notes', name: 'Notatki', unread: 0 },
        { mailbox: 'archiveInbox', name: 'Archiwum – Odebrane', unread: 0 },
      ]),
    );
    // Every mailbox the portal counts has a name in words, none the portal's key.
    expect(mailboxes.filter((m) => m.name === m.mailbox)).toEqual([]);
    expect(result.states?.newest_message).toEqual({
      state: 'Zebranie z rodzicami w czwartek',
      attributes: {
        id: '8811240',
        sender: 'Anna Nowak',
        date: '2026-11-19T15:42:10+01:00',
        read: false,
        has_attachments: false,
        preview: expect.stringMatching(/^Szanowni Państwo, zapraszam na zebranie/) as unknown,
        // The unread ones among those listed, for the board (issue 52): here the newest alone.
        unread: [{ id: '8811240', topic: 'Zebranie z rodzicami w czwartek', sender: 'Anna Nowak', date: '2026-11-19T15:42:10+01:00' }],
      },
    });
  });

  it('lists each watched mailbox once at first, then within the normal interval (outside lessons) only the one whose counter changed', async () => {
    const { pass } = setup(ANIA, 'day');
    await pass();
    expect(counts()).toBe(1);
    expect(lists()).toBe(6);
    for (let i = 0; i < 5; i++) {
      await clock.advance(3 * MIN);
      await pass();
    }
    expect(counts()).toBe(6);
    expect(lists()).toBe(6);

    sim.messaging.addMessage(ANIA.login, { from: 162001, topic: 'Wycieczka', body: 'Zgody na wycieczkę do piątku.' });
    await clock.advance(3 * MIN);
    const result = await pass();
    expect(lists('inbox')).toBe(2);
    expect(lists()).toBe(7);
    expect(result.states?.unread_messages?.state).toBe('2');
    expect(result.states?.newest_message?.state).toBe('Wycieczka');

    await clock.advance(3 * MIN);
    await pass();
    expect(lists()).toBe(7);
    await pass(true); // a user's refresh lists again
    expect(lists()).toBe(13);
    // The inbox at most four hours old by day (a message read in the app leaves its counter as it was);
    // the other mailboxes still on their counter's word alone.
    await clock.advance(61 * MIN);
    await pass();
    expect([lists('inbox'), lists()]).toEqual([3, 13]);
    await clock.advance(180 * MIN);
    await pass();
    expect([lists('inbox'), lists()]).toEqual([4, 14]);
  });

  it('lists the inbox again after four hours while lessons are on, though its counter stays the same, and not before', async () => {
    const { pass } = setup();
    await pass();
    for (let i = 0; i < 79; i++) {
      await clock.advance(3 * MIN);
      await pass();
    }
    expect([lists('inbox'), lists()]).toEqual([1, 6]); // 237 minutes of 3-minute passes: the first list only
    await clock.advance(3 * MIN);
    await pass();
    expect([lists('inbox'), lists()]).toEqual([2, 7]); // four hours old: listed again
  });

  it('fires one message event per new message, never for the ones seen before', async () => {
    const { pass } = setup();
    // Through the event gate, which remembers what fired and adds the event type.
    let fired: { id: string; payload: EventPayload }[] = [];
    const gate = new EventGate({
      child: () => ({ id: 'ania', name: 'Ania' }),
      dataDir: await tempDir(),
      log: silentLogger(),
      fire: (_kind, payload) => void fired.push({ id: String(payload.id), payload }),
      onStorage: () => undefined,
    });
    await gate.load('ania');
    const fire = async () => {
      fired = [];
      await gate.pass([['message', (await pass()).events?.message ?? []]]);
      return fired;
    };
    expect(await fire()).toEqual([]); // the first pass only remembers
    const added = sim.messaging.addMessage(ANIA.login, {
      from: 162002,
      topic: 'Kartkówka z geometrii',
      body: 'W poniedziałek kartkówka z <b>kątów</b> &amp; figur.',
      attachments: [{ id: '552301', filename: 'zadania.pdf' }],
    });
    await clock.advance(3 * MIN);
    expect(await fire()).toEqual([
      {
        id: String(added.id),
        payload: {
          event_type: 'message',
          child: 'ania',
          child_name: 'Ania',
          id: String(added.id),
          mailbox: 'inbox',
          sender: 'Piotr Wiśniewski',
          topic: 'Kartkówka z geometrii',
          preview: 'W poniedziałek kartkówka z kątów & figur.',
          date: '2026-11-20T08:00:00+01:00',
          has_attachments: true,
        },
      },
    ]);
    await clock.advance(3 * MIN);
    expect(await fire()).toEqual([]);
  });

  it('decodes a preview cut inside ą and inside ż without replacement marks', async () => {
    const { pass } = setup();
    await pass();
    const bytes = sim.messaging.fixture.previewBytes;
    const one = sim.messaging.addMessage(ANIA.login, { topic: 'A', body: `${'a'.repeat(bytes - 1)}ąb` });
    const two = sim.messaging.addMessage(ANIA.login, { topic: 'B', body: `${'b'.repeat(bytes - 1)}żc`, sent: '2026-11-20 07:00:00' });
    await clock.advance(3 * MIN);
    const events = (await pass()).events?.message ?? [];
    const preview = (id: number) => events.find((e) => e.id === String(id))?.payload.preview;
    expect(preview(one.id)).toBe('a'.repeat(bytes - 1));
    expect(preview(two.id)).toBe('b'.repeat(bytes - 1));
  });

  it('accepts a bare-array mailbox and skips the mailboxes that answer 404', async () => {
    const { pass } = setup(JANEK);
    sim.messaging.addMessage(JANEK.login, { mailbox: 'notes', from: 162007, topic: 'Uwaga pozytywna', body: 'Pomoc koledze.' });
    const result = await pass();
    expect(result.events?.message?.map((e) => e.payload.mailbox)).toContain('notes');
    expect(lists('alerts')).toBe(1);
    sim.messaging.addMessage(JANEK.login, { mailbox: 'inbox', topic: 'Nowa', body: 'treść' });
    await clock.advance(3 * MIN);
    await pass(true);
    expect(lists('alerts')).toBe(1);
    expect(lists('substitutions')).toBe(1);
    // A refresh lists every mailbox again except exactly the two that answered 404.
    expect(Object.fromEntries(WATCHED_MAILBOXES.map((m) => [m, lists(m)]))).toEqual({
      inbox: 2,
      notes: 2,
      alerts: 1,
      substitutions: 1,
      absences: 2,
      justifications: 2,
    });
  });

  it('never marks a message read: listing is all it does', async () => {
    const { pass } = setup();
    for (let i = 0; i < 3; i++) {
      await pass(true);
      await clock.advance(3 * MIN);
    }
    expect(sim.messaging.box(ANIA.login, 'inbox').find((m) => m.id === 8811240)?.readDate).toBeNull();
    expect(sim.count({ host: 'messages', path: /\/messages\/\d+$/ })).toBe(0);
  });

  it('shows both sensors as unknown when the school has no messages module', async () => {
    sim.messaging.setModuleAbsent(ANIA.login, true);
    const { source, pass } = setup();
    const result = await pass();
    expect(result.states).toEqual({ unread_messages: { state: null, attributes: {} }, newest_message: { state: null, attributes: {} } });
    expect(result.events).toBeUndefined();
    expect(source.moduleAvailable).toBe(false);
    expect(sim.count({ host: 'messages' })).toBe(0);
  });

  it("reads the unread counters at their row's age, not at every look; a refresh reads them at once", async () => {
    const { pass } = setup();
    await pass();
    expect(counts()).toBe(1);
    // Another feature's look a minute later (a command, the normal tier) asks nothing of the messaging host.
    await clock.advance(1 * MIN);
    await pass();
    expect(counts()).toBe(1);
    await pass(true);
    expect(counts()).toBe(2);
    await clock.advance(3 * MIN);
    await pass();
    expect(counts()).toBe(3);
  });

  it('reports a messaging-host outage as that host down (service_down), the counters keeping their last values', async () => {
    const { source, pass, failed } = setup();
    await pass();
    sim.failNext(1, 503, { host: 'messages' });
    // The counters' next look (their row's age while lessons are on).
    await clock.advance(3 * MIN);
    await pass();
    // The host's failure, which the scheduler backs off (1, 2, 4 ... minutes), not one resource's retried at its age.
    expect([...failed.keys()]).toEqual(['messaging']);
    expect(problemReason(failed.get('messaging'))).toBe('service_down');
    expect(source.restate()).toMatchObject({ unread_messages: { state: '1' } });
  });
});
