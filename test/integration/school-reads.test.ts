// The school's files, the sent box's read receipts and the behaviour grade, read by the real bridge
// from the simulated portal and published on a real broker (issue 29, items 2-4).
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';
import { command } from '../helpers/commands.js';
import { isoWarsaw } from '../../src/util/time.js';
import type { Harness } from '../helpers/app.js';

const ANIA = DEMO_ACCOUNTS[0]!;
const SICK = {
  id: 'sick',
  name: 'Nieobecność',
  to: 'class_tutor',
  topic: 'Nieobecność {first_name}',
  body: 'Dzień dobry, {first_name} jest dziś chora.',
};

// A Monday during the second lesson.
const school = simulatedSchool('2026-11-23T09:10:00+01:00');

async function bridge(options: { downloads?: boolean; poll?: Record<string, string> } = {}): Promise<Harness> {
  const h = await school.start({
    accounts: [{ login: ANIA.login, password: ANIA.password, id: 'ania', downloads: options.downloads ?? false, messages: [SICK] }],
    ...(options.poll ? { poll: options.poll } : {}),
  });
  await h.runUntil(() => h.state('ania', 'newest_grade') !== undefined, 'the first pass');
  return h;
}

const events = (h: Harness, kind: string) => h.rec.on(`${h.base}/ania/event/${kind}`).map((m) => JSON.parse(m.text) as Record<string, unknown>);
const outboxOpens = () => school.sim.requests.filter((r) => r.host === 'messages' && /^\/api\/outbox\/messages\/\d+$/.test(r.path)).length;

describe('school files (spec 2.8, 4.6)', () => {
  // Twelve simulated hours of a school day: every tier passes every 20 minutes (the list's twice-a-day age does
  // not depend on them), as the default 3- and 5-minute passes were most of this test's CPU.
  it('lists the files newest first, saves them through single-use keys, and announces a new one', { timeout: 120_000 }, async () => {
    school.sim.downloads.schoolFilesByKey = true;
    const h = await bridge({ downloads: true, poll: { fast_interval: '20m', school_interval: '20m' } });
    // Not in a start's first cycle: unknown on a first install until the next normal pass reads the list.
    expect(h.state('ania', 'school_files')).toBe('None');
    await h.advanceMinutes(21);
    expect(h.state('ania', 'school_files')).toBe('3');
    type File = { id: string; name: string; date: string; path?: string; url?: string };
    const listed = () => (h.attributes('ania', 'school_files')?.files ?? []) as File[];
    expect(listed().map((f) => f.name)).toEqual(['Kalendarz roku szkolnego.pdf', 'Statut szkoły.pdf', 'Wyprawka – lista przyborów klasy 1–3.docx']);
    expect(listed()[0]!.date).toBe('2026-09-06');

    // The downloads ran in the background through the sandbox's keys (the harness waits for them before it moves
    // the clock on, as real time would let them end well within their deadline); the next pass shows where they are.
    await h.advanceMinutes(20);
    expect(
      school.sim.downloads.served
        .filter((s) => s.kind === 'school')
        .map((s) => s.id)
        .sort(),
    ).toEqual(['31', '32', '33']);
    expect(school.sim.downloads.keysIssued).toBeGreaterThanOrEqual(3);
    expect(listed().map((f) => f.path !== undefined)).toEqual([true, true, true]);
    const statute = listed().find((f) => f.id === '31')!;
    expect(statute.url).toBe('/files/ania/school/31/Statut%20szko%C5%82y.pdf');
    expect(await readFile(statute.path!, 'utf8')).toContain('Statut szkoły.pdf');

    // The list is read twice a day: a new file shows within 12 hours, as one event.
    const fetched = () => h.requestCounts(0).get('GET SchoolFiles') ?? 0;
    const before = fetched();
    school.sim.account(ANIA.login)!.addRecord('SchoolFiles', {
      id: 34,
      displayName: 'Regulamin wycieczek.pdf',
      addedOnDate: school.sim.account(ANIA.login)!.stamp(),
      downloadUrl: '/pliki_szkoly/pobierz/34',
      fileStatus: 'ready',
    });
    await h.advanceMinutes(12 * 60);
    expect(fetched() - before).toBe(1);
    expect(h.state('ania', 'school_files')).toBe('4');
    expect(listed()[0]!.name).toBe('Regulamin wycieczek.pdf');
    expect(events(h, 'school_file')).toEqual([
      { event_type: 'school_file', child: 'ania', child_name: 'Ania', id: '34', name: 'Regulamin wycieczek.pdf', date: '2026-11-23' },
    ]);
  });
});

describe('read receipts of sent messages (spec 4.8)', () => {
  // Three simulated hours, half of them during lessons: 15 s alone.
  it('shows who read the newest sent message, announces a reading, and stops asking once all have read', { timeout: 60_000 }, async () => {
    const h = await bridge();
    await h.advanceMinutes(21);
    // The fixture's message of two weeks ago, read by its receiver.
    expect(h.state('ania', 'sent_message')).toBe('Wcześniejsze wyjście ze szkoły');
    expect(h.attributes('ania', 'sent_message')).toMatchObject({ read_by_all: true, read: [{ name: 'Anna Nowak', read: true }] });

    const result = await command(h, 'ania', 'send_message', 'sick');
    expect(result).toMatchObject({ status: 'ok', sent: true });
    await h.advanceMinutes(20);
    expect(h.state('ania', 'sent_message')).toBe('Nieobecność Ania');
    const sent = h.attributes('ania', 'sent_message') as {
      message_id: string;
      to: string[];
      read: { name: string; read: boolean; read_at: string | null }[];
    };
    expect(sent.read).toEqual([{ name: sent.to[0], read: false, read_at: null }]);

    // While unread, it is opened (no side effect) at the normal interval, 20 minutes, not at the 4-minute passes of lessons.
    const opens = outboxOpens();
    await h.advanceMinutes(40);
    expect(outboxOpens() - opens).toBe(2);

    // The tutor reads it: the next pass says so, once.
    await h.advanceMinutes(3);
    school.sim.messaging.readSent(ANIA.login, Number(sent.message_id));
    const readAt = isoWarsaw(Math.floor(school.clock.now() / 1000) * 1000);
    // Within the normal interval and the eighth of it a read may wait for others (22.5 minutes).
    await h.advanceMinutes(23);
    const read = h.attributes('ania', 'sent_message') as typeof sent & { read_by_all: boolean };
    expect(read.read_by_all).toBe(true);
    expect(read.read[0]).toMatchObject({ read: true, read_at: readAt });
    expect(events(h, 'message_read')).toEqual([
      expect.objectContaining({
        event_type: 'message_read',
        message_id: sent.message_id,
        topic: 'Nieobecność Ania',
        receiver: sent.to[0],
        read_at: readAt,
      }),
    ]);

    // Read by everyone: the sent box is no longer opened.
    const after = outboxOpens();
    await h.advanceMinutes(120);
    expect(outboxOpens()).toBe(after);
    expect(events(h, 'message_read')).toHaveLength(1);
  });

  it('after a send of unknown outcome, reads the sent box before sending again', async () => {
    const h = await bridge();
    // The portal stores the message but answers 500: the outcome is unknown.
    school.sim.messaging.answerNextSend(ANIA.login, { status: 500, deliver: true });
    expect(await command(h, 'ania', 'send_message', 'sick')).toMatchObject({ status: 'error', sent: null });
    await h.advanceMinutes(5);
    const listsBefore = school.sim.requests.filter((r) => r.host === 'messages' && r.path === '/api/outbox/messages').length;
    // The same message again: the sent box shows it went out, so it is not sent twice.
    expect(await command(h, 'ania', 'send_message', 'sick')).toMatchObject({ status: 'error', sent: false, code: 'already_sent' });
    expect(school.sim.requests.filter((r) => r.host === 'messages' && r.path === '/api/outbox/messages').length).toBe(listsBefore + 1);
    expect(school.sim.messaging.sent).toHaveLength(1);
  });

  it('after a send of unknown outcome that never arrived, sends again once the sent box shows nothing', async () => {
    const h = await bridge();
    school.sim.messaging.answerNextSend(ANIA.login, { status: 504 });
    expect(await command(h, 'ania', 'send_message', 'sick')).toMatchObject({ status: 'error', sent: null });
    await h.advanceMinutes(5);
    expect(await command(h, 'ania', 'send_message', 'sick')).toMatchObject({ status: 'ok', sent: true });
    expect(school.sim.messaging.sent).toHaveLength(1);
  });
});

describe('behaviour (spec 2.4)', () => {
  it('shows the newest formal grade as a parent reads it, a proposal marked as one', async () => {
    school.sim.account(ANIA.login)!.addRecord('BehaviourGrades/Points', {
      Id: 1210,
      BehaviourGrade: { Id: '1', Url: '{{api}}/BehaviourGrades/Types/1' },
      ShortName: '',
      Text: '',
      Category: '@BehaviourGrades/Points/Categories/3',
      Semester: 1,
      AddDate: '{{today-3}} 14:00:00',
      AddedBy: '@Users/162001',
      Comments: [],
    });
    const h = await bridge();
    await h.runUntil(() => h.state('ania', 'behaviour') !== undefined, 'behaviour');
    expect(h.state('ania', 'behaviour')).toBe('wzorowe (propozycja)');
    expect(h.attributes('ania', 'behaviour')).toMatchObject({
      grade: 'wzorowe',
      short: 'wz',
      proposal: true,
      period: 'semester',
      date: '2026-11-20',
      semester_proposal: { grade: 'wzorowe', proposal: true },
      semester_grade: null,
      final_grade: null,
      points: null,
      current_semester: 1,
    });
  });
});
