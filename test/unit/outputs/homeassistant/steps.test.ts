// What the bridge wants in Home Assistant and what it does about it: the entries' names and steps, and a
// homework list's steps, as tables.
import { describe, expect, it } from 'vitest';
import { assistEntry, keptUrl, reconcile, statusOf, wantedEntries } from '../../../../src/outputs/homeassistant/steps.js';
import { homeworkItems, needsLook, todoSteps } from '../../../../src/outputs/homeassistant/homework.js';
import type { KeptItem, Known } from '../../../../src/outputs/homeassistant/made.js';
import type { AgendaEntry } from '../../../../src/rules/calendar-feeds.js';
import { homeworkUpcoming } from '../../../../src/rules/homework.js';

const url = (child: string, calendarFeed: string) => `http://bridge:8099/calendar/${child}/${calendarFeed}.ics?key=k1`;

describe('the entries', () => {
  it("names each child's three calendars and homework list in the family's language", () => {
    expect(wantedEntries([{ id: 'zofia', name: 'Zofia' }], 'pl', url).map((w) => [w.domain, w.title, w.url])).toEqual([
      ['remote_calendar', 'Zofia – lekcje', url('zofia', 'lessons')],
      ['remote_calendar', 'Zofia – wydarzenia', url('zofia', 'agenda')],
      ['remote_calendar', 'Zofia – dni wolne', url('zofia', 'free-days')],
      ['local_todo', 'Zofia – zadania domowe', undefined],
    ]);
    expect(wantedEntries([{ id: 'zofia', name: 'Zofia' }], 'en', url).map((w) => w.title)).toEqual([
      'Zofia – lessons',
      'Zofia – agenda',
      'Zofia – days off',
      'Zofia – homework',
    ]);
    expect(wantedEntries([{ id: 'zofia', name: 'Зофія' }], 'uk', url).map((w) => w.title)).toEqual([
      'Зофія – уроки',
      'Зофія – події',
      'Зофія – вихідні дні',
      'Зофія – домашні завдання',
    ]);
    // Without an address Home Assistant reaches, only the homework list.
    expect(wantedEntries([{ id: 'zofia', name: 'Zofia' }], 'pl', undefined).map((w) => w.kind)).toEqual(['homework']);
  });

  const wanted = wantedEntries([{ id: 'zofia', name: 'Zofia' }], 'pl', url);
  const [lessons, agenda, free, homework] = wanted as [(typeof wanted)[0], (typeof wanted)[0], (typeof wanted)[0], (typeof wanted)[0]];
  const made = (entry: string, extra: Partial<Known> = {}): Known => ({ entry, title: 't', by: 'bridge', ...extra });

  it.each([
    ['never made: made', undefined, new Set<string>(), 'would make'],
    ['made with this address and listed: made', made('e1', { url: lessons.url }), new Set(['e1']), 'made'],
    ['made with an old key: made again', made('e1', { url: 'http://bridge:8099/calendar/zofia/lessons.ics?key=old' }), new Set(['e1']), 'would make'],
    ['made, no longer listed: removed by the family', made('e1', { url: lessons.url }), new Set<string>(), 'removed by the family'],
    ['remembered as deleted: stays so', made('e1', { url: lessons.url, gone: true }), new Set(['e1']), 'removed by the family'],
    ["one of that name taken as the bridge's, its address not known: made again", made('e1', { by: 'family' }), new Set(['e1']), 'would make'],
    [
      "the family's own at the feed's address under another name: kept",
      { entry: null, title: 't', by: 'family' } as Known,
      new Set<string>(),
      'kept',
    ],
  ] as const)('%s', (_what, known, present, status) => {
    expect(statusOf(lessons, known, present)).toBe(status);
  });

  it("takes Assist's entry at the server's address as the bridge's, whoever made it: it follows the key", () => {
    const assist = assistEntry('http://bridge:8099/mcp?key=new-token');
    // Held as the family's by a bridge before this rule (its flow's answer lost): the bridge's now, made again at the key in use.
    expect(statusOf(assist, made('e9', { by: 'family' }), new Set(['e9']))).toBe('would make');
    expect(statusOf(assist, made('e9', { url: keptUrl(assistEntry('http://bridge:8099/mcp?key=old-token')) }), new Set(['e9']))).toBe('would make');
    expect(statusOf(assist, made('e9', { url: keptUrl(assist) }), new Set(['e9']))).toBe('made');
    expect(statusOf(assist, made('e9', { url: keptUrl(assist) }), new Set<string>())).toBe('removed by the family');
  });

  it('makes what is missing, makes again what points elsewhere, remembers deletions, removes only once every child is known', () => {
    const known: Record<string, Known> = {
      'zofia/lessons': made('e1', { url: 'old' }),
      'zofia/agenda': made('e2', { url: agenda.url }),
      'zofia/homework': made('e4'),
      'jan/lessons': made('e5', { url: 'x' }),
    };
    const present = new Set(['e1', 'e4', 'e5']);
    const steps = reconcile(wanted, known, present, undefined);
    expect(steps.map((s) => [s.do, 'want' in s ? s.want.key : s.key])).toEqual([
      ['remake', lessons.key],
      ['gone', agenda.key],
      ['make', free.key],
    ]);
    expect(reconcile(wanted, known, present, ['zofia']).at(-1)).toEqual({ do: 'remove', key: 'jan/lessons', known: known['jan/lessons'] });
    expect(reconcile([homework], { 'zofia/homework': made('e4') }, present, ['zofia'])).toEqual([]);
  });
});

describe('a homework list', () => {
  const entry = (uid: string, due: string, extra: Partial<AgendaEntry> = {}): AgendaEntry => ({
    uid,
    kind: 'homework',
    when: { date: due, last: due },
    subject: 'Matematyka',
    text: 'Zadania 1–4, str. 45.',
    label: 'Ułamki',
    teacher: null,
    ...extra,
  });
  const TODAY = '2026-11-18';

  it('writes a homework as its subject and topic, its whole text and due date; only homework', () => {
    const items = homeworkItems(
      [
        entry('h1', '2026-11-19'),
        entry('h2', '2026-11-20', { subject: null, label: null, text: 'Przeczytaj rozdział.\nI opowiedz.' }),
        entry('h3', '2026-11-20', { subject: null, label: null, text: null }),
        entry('t1', '2026-11-20', { kind: 'test' }),
      ],
      'Zadanie domowe',
    );
    expect([...items]).toEqual([
      ['h1', { summary: 'Matematyka: Ułamki', description: 'Zadania 1–4, str. 45.', due: '2026-11-19' }],
      ['h2', { summary: 'Przeczytaj rozdział.', description: 'Przeczytaj rozdział.\nI opowiedz.', due: '2026-11-20' }],
      ['h3', { summary: 'Zadanie domowe', description: null, due: '2026-11-20' }],
    ]);
  });

  const homework = homeworkItems(
    [entry('new', '2026-11-20'), entry('later', '2026-12-10'), entry('past', '2026-11-17'), entry('moved', '2026-11-25')],
    '',
  );
  const written = (uid: string) => homework.get(uid) as NonNullable<ReturnType<typeof homework.get>>;
  const item = (uid: string, summary: string, due: string, status = 'needs_action') => ({ uid, summary, due, status });

  it('adds the open homework of the next two weeks, changes and removes what it added, leaves ticked and deleted ones', () => {
    const kept: Record<string, KeptItem> = {
      moved: { ...written('moved'), due: '2026-11-21', item: 'i-moved' },
      ticked: { ...written('new'), item: 'i-ticked' },
      dropped: { ...written('new'), item: 'i-dropped' },
      deleted: { ...written('new'), item: 'i-deleted' },
      fresh: { summary: 'Fresh', description: null, due: '2026-11-22', item: null },
      gone: { ...written('new'), item: 'i-gone', gone: true },
    };
    const items = [
      item('i-moved', 'Matematyka: Ułamki', '2026-11-21', 'completed'),
      item('i-ticked', 'Matematyka: Ułamki', '2026-11-20', 'completed'),
      item('i-dropped', 'Matematyka: Ułamki', '2026-11-20'),
      item('i-fresh', 'Fresh', '2026-11-22'),
    ];
    expect(needsLook(homework, kept, TODAY)).toBe(true);
    expect(todoSteps(homework, kept, items, TODAY)).toEqual([
      // A ticked item the teacher moved: moved, its tick left alone (the update names no status).
      { do: 'update', uid: 'moved', item: 'i-moved', written: written('moved') },
      // The school removed it: the ticked one is left ticked and forgotten, the open one removed.
      { do: 'gone', uid: 'ticked' },
      { do: 'remove', uid: 'dropped', item: 'i-dropped' },
      // The family deleted it: forgotten, never added again.
      { do: 'gone', uid: 'deleted' },
      // Added before the last listing: found by what was written, and removed with its homework.
      { do: 'found', uid: 'fresh', item: 'i-fresh' },
      { do: 'remove', uid: 'fresh', item: 'i-fresh' },
      // Due within two weeks: added; past or later: not.
      { do: 'add', uid: 'new', written: written('new') },
    ]);
  });

  it('adds exactly the homework homework_upcoming lists: due today through the 14th day, not yesterday nor the 15th', () => {
    const due = ['2026-11-17', '2026-11-18', '2026-12-02', '2026-12-03'];
    const edges = homeworkItems(
      due.map((d) => entry(d, d)),
      '',
    );
    const upcoming = homeworkUpcoming(
      due.map((d) => ({ key: d, subject: null, topic: null, text: null, teacher: null, assigned: null, due: d, attachments: [], done: null })),
      TODAY,
    );
    const added = todoSteps(edges, {}, [], TODAY).map((step) => step.uid);
    expect(added).toEqual(upcoming.map((h) => h.date));
    expect(added).toEqual(['2026-11-18', '2026-12-02']);
  });

  it('asks Home Assistant nothing while nothing changed', () => {
    const kept: Record<string, KeptItem> = { new: { ...written('new'), item: 'i1' }, moved: { ...written('moved'), item: 'i2' } };
    expect(needsLook(homework, kept, TODAY)).toBe(false);
    expect(needsLook(homework, { ...kept, new: { ...written('new'), item: 'i1', gone: true } }, TODAY)).toBe(false);
    // A day on, homework due within the window that was not: asked.
    expect(needsLook(homework, kept, '2026-11-26')).toBe(true);
  });
});
