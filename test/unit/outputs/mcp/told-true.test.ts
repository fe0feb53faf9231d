// Assist tells what each feature's typed value says (interface 18.1): facts of shapes the demo family never has,
// given to the MCP server as the features' passes keep them, and the answer read as a parent hears it. A
// substitution by another subject is told by the lesson that takes place, the replaced one as "zamiast"; a
// test's revision topics each once; a message's attachments never read as its preview; a proposed term grade never
// among the grades; an agenda entry no kind names by the school's category; numbers with the language's decimal
// mark; descriptive grades alone with no overall average.
import { describe, expect, it } from 'vitest';
import type { McpServer } from '../../../../src/outputs/mcp/server.js';
import { factsServer, fortnightOf, timetableFacts, toolAnswer } from '../../../helpers/mcp-tools.js';
import { changesOn, type PlanChange } from '../../../../src/rules/plan-changes.js';
import type { SchoolDay } from '../../../../src/rules/schedule.js';
import { lessonsHeldAsk, type LessonsHeldAsk } from '../../../../src/features/lessons-held/ask.js';
import { agendaItems, type AgendaItem } from '../../../../src/rules/agenda.js';
import type { AgendaAsk } from '../../../../src/features/agenda/ask.js';
import { homeWorkCategoriesResponse, homeWorksResponse } from '../../../../src/portal/schemas/agenda.js';
import { makeNames } from '../../../../src/rules/names.js';
import { nextTest, type LessonHeld } from '../../../../src/rules/realizations.js';
import type { MessagesAsk } from '../../../../src/features/messages/ask.js';
import { renderMessages } from '../../../../src/features/messages/messages.js';
import { messagesView } from '../../../../src/rules/messages.js';
import { UNTITLED } from '../../../../src/i18n/school-words.js';
import type { OpenedAsk } from '../../../../src/features/opened-message/ask.js';
import type { GradesAsk } from '../../../../src/features/grades/ask.js';
import type { GradeItem } from '../../../../src/rules/grade-item.js';
import { termGrades } from '../../../../src/rules/term-grades.js';

const server = factsServer;
const text = async (s: McpServer, name: string, args: Record<string, unknown> = {}): Promise<string> => (await toolAnswer(s, name, args)).text;

const change = (over: Partial<PlanChange>): PlanChange => ({
  date: '2026-11-19',
  lesson_no: 3,
  hours: '09:50-10:35',
  kind: 'substitution',
  subject: null,
  teacher: null,
  room: null,
  original_date: '2026-11-19',
  original_lesson_no: 3,
  original_hours: '09:50-10:35',
  original_subject: null,
  original_teacher: null,
  original_room: null,
  note: null,
  ...over,
});

/** This week and the next, each day's lessons read (none held) and the changes given on their days. */
const fortnight = (changes: readonly PlanChange[]): SchoolDay[] => fortnightOf((date) => ({ changes: changes.filter((c) => c.date === date) }));

describe('a plan change ahead (get_upcoming)', () => {
  it('is told by the lesson that takes place and its teacher, the replaced one as "zamiast"; a cancellation by the lesson cancelled', async () => {
    const timetable = timetableFacts({
      fortnight: fortnight([
        change({ subject: 'Matematyka', teacher: 'Agnieszka Mazur', original_subject: 'Fizyka', original_teacher: 'Jan Nowak' }),
        change({ lesson_no: 4, hours: '10:50-11:35', kind: 'cancelled', subject: 'Historia', teacher: 'Ewa Lis', original_subject: 'Historia' }),
      ]),
    });
    const answer = await text(server('pl', { timetable }), 'get_upcoming', { days: 7 });
    expect(answer).toContain('jutro (2026-11-19): 3. 09:50-10:35 Matematyka, nauczyciel: Agnieszka Mazur — zastępstwo · zamiast: Fizyka');
    expect(answer).toContain('jutro (2026-11-19): 4. 10:50-11:35 Historia, nauczyciel: Ewa Lis — odwołana');
    expect(answer).not.toContain('Fizyka —');
  });
});

describe('a message without a subject (get_messages)', () => {
  it('is told by the same words as newest_message and the board, in each language', async () => {
    const untitled = {
      id: '602',
      topic: '',
      sender: 'Anna Nowak',
      sendDate: '2026-11-17 18:00:00',
      read: false,
      hasAttachments: false,
      content: undefined,
    };
    for (const language of ['pl', 'en', 'uk'] as const) {
      const listed: MessagesAsk = { listed: [{ mailbox: 'inbox', items: [untitled] }], archive: null, absent: false };
      const state = renderMessages(messagesView({ inbox: 1 }, [untitled], UNTITLED[language]), language).newest_message?.state;
      expect(state, language).toBe(UNTITLED[language]);
      expect(await text(server(language, { messages: listed }), 'get_messages', { days: 7 }), language).toContain(`"${state}"`);
    }
  });
});

describe('a substitute of the same subject (get_upcoming)', () => {
  it('is told with the teacher who is away, each name once', async () => {
    const substitute = change({ subject: 'Fizyka', teacher: 'Agnieszka Mazur', original_subject: 'Fizyka', original_teacher: 'Jan Nowak' });
    const timetable = timetableFacts({ fortnight: fortnight([substitute]) });
    const answer = await text(server('pl', { timetable }), 'get_upcoming', { days: 7 });
    const line = answer.split('\n').find((l) => l.includes('(2026-11-19): 3.')) ?? '';
    expect(line.endsWith('jutro (2026-11-19): 3. 09:50-10:35 Fizyka, nauczyciel: Agnieszka Mazur — zastępstwo za: Jan Nowak')).toBe(true);
    expect((await text(server('en', { timetable }), 'get_upcoming', { days: 7 })).split('Agnieszka Mazur')).toHaveLength(2);
  });
});

describe('a lesson moved to another day (get_upcoming)', () => {
  it('is told on the day it leaves at the number and hours of the slot it leaves, as the day itself tells it', async () => {
    // Thursday's 3rd lesson, physics, moved to Tuesday's 6th.
    const moved = change({
      kind: 'shifted',
      date: '2026-11-24',
      lesson_no: 6,
      hours: '12:40-13:25',
      subject: 'Fizyka',
      teacher: 'Jan Nowak',
      original_subject: 'Fizyka',
      original_teacher: 'Jan Nowak',
    });
    const timetable = timetableFacts({ fortnight: fortnightOf((date) => ({ changes: changesOn([moved], date) })) });
    const answer = await text(server('pl', { timetable }), 'get_upcoming', { days: 7 });
    expect(answer).toMatch(/^- jutro \(2026-11-19\): 3\. 09:50-10:35 Fizyka, nauczyciel: Jan Nowak — /m);
    expect(answer).toMatch(/^- wt\. 24\.11 \(2026-11-24\): 6\. 12:40-13:25 Fizyka, nauczyciel: Jan Nowak — /m);
    expect(answer).not.toMatch(/\(2026-11-19\): 6\./);
  });
});

describe('a lesson moved to another hour of its day (get_upcoming)', () => {
  it('is told at the slot it leaves, saying where it goes, and at the slot it comes to, in slot order', async () => {
    // Thursday's 1st lesson, maths, moved to its 3rd; its 2nd has a substitution.
    const moved = change({
      kind: 'shifted',
      lesson_no: 3,
      subject: 'Matematyka',
      teacher: 'Anna Nowak',
      original_lesson_no: 1,
      original_hours: '08:00-08:45',
      original_subject: 'Matematyka',
      original_teacher: 'Anna Nowak',
    });
    const other = change({ lesson_no: 2, hours: '08:55-09:40', subject: 'Plastyka', original_lesson_no: 2, original_subject: 'Muzyka' });
    const timetable = timetableFacts({ fortnight: fortnightOf((date) => ({ changes: changesOn([other, moved], date) })) });
    const lines = (await text(server('pl', { timetable }), 'get_upcoming', { days: 7 })).split('\n').filter((l) => l.includes('(2026-11-19)'));
    expect(lines).toEqual([
      expect.stringMatching(/^- jutro \(2026-11-19\): 1\. 08:00-08:45 Matematyka, nauczyciel: Anna Nowak — przeniesiona na .*lekcja 3$/),
      expect.stringMatching(/^- jutro \(2026-11-19\): 2\. 08:55-09:40 Plastyka /),
      expect.stringMatching(/^- jutro \(2026-11-19\): 3\. 09:50-10:35 Matematyka, nauczyciel: Anna Nowak — przeniesiona z .*lekcja 1$/),
    ]);
  });
});

describe('a lesson moved away from a slot another lesson moves into (get_upcoming)', () => {
  it('is told at that slot beside the lesson that comes in', async () => {
    // Thursday's 5th lesson, computing, moved to Tuesday's 6th; its 1st, maths, moved into the 5th.
    const away = change({
      kind: 'shifted',
      date: '2026-11-24',
      lesson_no: 6,
      hours: '12:40-13:25',
      subject: 'Informatyka',
      original_lesson_no: 5,
      original_hours: '11:45-12:30',
      original_subject: 'Informatyka',
    });
    const into = change({
      kind: 'shifted',
      lesson_no: 5,
      hours: '11:45-12:30',
      subject: 'Matematyka',
      original_lesson_no: 1,
      original_hours: '08:00-08:45',
      original_subject: 'Matematyka',
    });
    const timetable = timetableFacts({ fortnight: fortnightOf((date) => ({ changes: changesOn([into, away], date) })) });
    const answer = await text(server('pl', { timetable }), 'get_upcoming', { days: 7 });
    expect(answer).toMatch(/^- jutro \(2026-11-19\): 5\. 11:45-12:30 Informatyka — przeniesiona na .*lekcja 6$/m);
    expect(answer).toMatch(/^- jutro \(2026-11-19\): 5\. 11:45-12:30 Matematyka — przeniesiona z .*lekcja 1$/m);
  });
});

describe("a kindergarten's day (get_day)", () => {
  it('has no line on the standing plan, which a kindergarten never has, where a school day says "not known yet"', async () => {
    const kindergarten = await text(server('pl', { timetable: timetableFacts({ kind: 'kindergarten' }) }), 'get_day', { date: '2026-11-19' });
    expect(kindergarten).toContain('Lekcje');
    expect(kindergarten).not.toContain('stałym planie');
    // The same facts of a school whose standing plan is not read yet say so.
    const school = await text(server('pl', { timetable: timetableFacts() }), 'get_day', { date: '2026-11-19' });
    expect(school).toMatch(/Inaczej niż w stałym planie: jeszcze nie wiadomo/);
  });
});

describe("a test's revision topics (get_upcoming)", () => {
  it('are each told once, however many lessons taught one (the newest first)', async () => {
    const test: AgendaItem = {
      key: 'agenda:1',
      kind: 'test',
      date: '2026-11-23',
      until: null,
      time: '08:55',
      time_to: null,
      subject: 'Przyroda',
      category: 'Sprawdzian',
      content: null,
      teacher: null,
    };
    const held: LessonHeld[] = ['Las', 'Rośliny', 'Las', 'Las', 'Pogoda', 'Rośliny'].map((topic, i) => ({
      date: `2026-11-${String(17 - i).padStart(2, '0')}`,
      no: 2,
      subject: 'Przyroda',
      topic,
    }));
    const next = nextTest([test], held, { date: '2026-11-18', time: '09:00' });
    const lessonsHeld: LessonsHeldAsk = {
      ...lessonsHeldAsk.unknown,
      recent: held,
      revise: next === null ? [] : [{ test: next.test, topics: next.topics }],
    };
    const answer = await text(server('pl', { lessons_held: lessonsHeld }), 'get_upcoming', { days: 7 });
    expect(answer).toMatch(/: pon\. 23\.11 \(2026-11-23\) Przyroda, Sprawdzian: Las; Rośliny; Pogoda$/m);
  });

  it('are told once for two tests of one subject and kind on one day (the generated worlds, seed 1418)', async () => {
    const test = (key: string, content: string): AgendaItem => ({
      key,
      kind: 'test',
      date: '2026-09-16',
      until: null,
      time: null,
      time_to: null,
      subject: 'Technika',
      category: 'Praca klasowa',
      content,
      teacher: null,
    });
    const revise = [test('agenda:1', 'Rozdział 4'), test('agenda:2', 'Przynieść strój')].map((t) => ({ test: t, topics: [] }));
    const answer = await text(
      server('pl', { lessons_held: { ...lessonsHeldAsk.unknown, recent: [], revise } satisfies LessonsHeldAsk }),
      'get_upcoming',
      { days: 31 },
    );
    expect(answer.split('\n').filter((l) => l.includes('(2026-09-16) Technika, Praca klasowa:'))).toHaveLength(1);
  });
});

describe("a message's attachments (get_messages)", () => {
  const preview = Buffer.from('<p>Szanowni Państwo, w załączniku plan wycieczki.</p>').toString('base64');
  const item = { id: '77', sender: 'Anna Nowak', topic: 'Wycieczka', content: preview, sendDate: '2026-11-17 10:00:00', read: false };
  const record: OpenedAsk['record'] = {
    message_id: '77',
    mailbox: 'inbox',
    topic: 'Wycieczka',
    sender: 'Anna Nowak',
    sender_id: '5',
    date: '2026-11-17T10:00:00+01:00',
    text: 'Szanowni Państwo, w załączniku plan wycieczki.',
    truncated: false,
    can_reply: true,
    withdrawn: false,
    attachments: [
      { id: 'a', name: 'plan.pdf' },
      { id: 'b', name: 'zgoda.docx' },
    ],
  };

  it("are named by their files' names once the message was opened, and never read as its preview", async () => {
    const messages: MessagesAsk = { listed: [{ mailbox: 'inbox', items: [{ ...item, hasAttachments: true }] }], archive: null, absent: false };
    const answer = await text(server('pl', { messages, 'opened-message': { record } }), 'get_messages');
    expect(answer).not.toMatch(/załączniki: Szanowni/);
    expect(answer).toMatch(
      /id 77: .*"Wycieczka": Szanowni Państwo, w załączniku plan wycieczki\. — z załącznikami \(ich nazwy poda otwarcie wiadomości\)$/m,
    );
    expect(answer).toMatch(/Ostatnio otwarta: id 77, "Wycieczka", .*, załączniki: plan\.pdf, zgoda\.docx$/m);
    const en = await text(server('en', { messages, 'opened-message': { record } }), 'get_messages');
    expect(en).toMatch(/Opened last: id 77, "Wycieczka", .*, attachments: plan\.pdf, zgoda\.docx$/m);
  });
});

describe('a proposed term grade (get_grades)', () => {
  const grade = (over: Partial<GradeItem>): GradeItem => ({
    key: 'grade:1',
    kind: 'grade',
    shown: '4',
    subjectId: '7',
    subject: 'Historia',
    category: 'Sprawdzian',
    weight: 3,
    teacher: 'Ewa Lis',
    date: '2026-11-16',
    added: '2026-11-16 10:00:00',
    comment: null,
    semester: 1,
    details: {},
    ...over,
  });
  const items = [
    grade({ key: 'grade:2', shown: '6', date: '2026-11-17', added: '2026-11-17 10:00:00', details: { period: 'semester_proposal' } }),
    grade({}),
  ];
  const grades: GradesAsk = { items, terms: termGrades(items), averaged: null, semester: 1, absent: false };

  it('is never listed as an ordinary grade: it is told as a proposal, in each language', async () => {
    for (const args of [{ subject: 'Historia' }, { days: 7 }, {}]) {
      const pl = await text(server('pl', { grades }), 'get_grades', args);
      expect(pl, JSON.stringify(args)).not.toMatch(/Historia, 6, kategoria|^- [^\n]*\b6, kategoria: Sprawdzian/m);
      expect(pl, JSON.stringify(args)).toMatch(/proponowana śródroczna: 6/);
      expect(pl, JSON.stringify(args)).toMatch(/\b4, kategoria: Sprawdzian, waga: 3/);
    }
    expect(await text(server('en', { grades }), 'get_grades', { days: 7 })).toMatch(/proposed semester grade: 6/);
    expect(await text(server('uk', { grades }), 'get_grades', { days: 7 })).toMatch(/запропонована семестрова: 6/);
  });
});

describe('an agenda entry the bridge cannot classify (get_upcoming, get_day)', () => {
  // The school's own categories: an open day filed as "Inne", and a meeting filed as one.
  const categories = homeWorkCategoriesResponse.parse({
    Categories: [
      { Id: 5, Name: 'Inne' },
      { Id: 4, Name: 'Zebranie z rodzicami' },
    ],
  }).Categories;
  const homeWorks = homeWorksResponse.parse({
    HomeWorks: [
      { Id: 15, Category: { Id: 5 }, Date: '2026-11-21', TimeFrom: '10:00:00', Content: 'Dzień otwarty szkoły' },
      { Id: 16, Category: { Id: 4 }, Date: '2026-11-23', TimeFrom: '17:30:00', Content: 'Zebranie z rodzicami klasy 4b' },
    ],
  }).HomeWorks;
  const agenda: AgendaAsk = {
    items: agendaItems({ homeWorks, homeWorkCategories: categories, names: makeNames() }),
    homework: [],
    itemsAbsent: false,
    homeworkAbsent: false,
  };

  it("is told by the category the school gave it, never guessed as a parents' meeting", async () => {
    const pl = await text(server('pl', { agenda }), 'get_upcoming', { days: 7 });
    expect(pl).toMatch(/\(2026-11-21\): Inne 10:00 — Dzień otwarty szkoły$/m);
    expect(pl).not.toMatch(/zebranie[^\n]*Dzień otwarty/);
    expect(pl).toMatch(/\(2026-11-23\): zebranie 17:30 — Zebranie z rodzicami klasy 4b — Zebranie z rodzicami$/m);
    expect(await text(server('en', { agenda }), 'get_day', { date: '2026-11-21' })).toMatch(/: Inne 10:00 — Dzień otwarty szkoły$/m);
  });
});

describe('a number in an answer (get_grades)', () => {
  const averaged = {
    state: '3.33',
    attributes: {
      semester: 1,
      subjects: [{ subject: 'Matematyka', average: 3.33, count: 3, percent: 78.8, forecast: '3', next_threshold: 3.75, needed_for_next: '5' }],
    },
  } as unknown as GradesAsk['averaged'];
  const items: GradeItem[] = [
    {
      key: 'grade:1',
      kind: 'grade',
      shown: '3',
      subjectId: '1',
      subject: 'Matematyka',
      category: 'Praca domowa',
      weight: 1.5,
      teacher: null,
      date: '2026-11-16',
      added: '2026-11-16 10:00:00',
      comment: null,
      semester: 1,
      details: {},
    },
  ];
  const grades: GradesAsk = { items, terms: [], averaged, semester: 1, absent: false };

  it("is written with the family language's decimal mark: a comma in Polish and Ukrainian, a point in English", async () => {
    const pl = await text(server('pl', { grades }), 'get_grades');
    expect(pl).toContain('Średnia ze wszystkich przedmiotów: 3,33');
    expect(pl).toContain('Matematyka: średnia: 3,33, 78,8%, prognoza: 3, 5 podniesie ją do 3,75');
    expect(pl).toContain('waga: 1,5');
    expect(pl).not.toMatch(/3\.33|1\.5|3\.75|78\.8/);
    const uk = await text(server('uk', { grades }), 'get_grades');
    expect(uk).toContain('3,33');
    expect(uk).not.toMatch(/3\.33|1\.5|3\.75|78\.8/);
    const en = await text(server('en', { grades }), 'get_grades');
    expect(en).toContain('average: 3.33, 78.8%');
    expect(en).toContain('weight: 1.5');
  });
});

describe("a first-grader's descriptive grades (get_grades)", () => {
  it('make no overall average: it is left out, not said to be not known yet', async () => {
    const items: GradeItem[] = [
      {
        key: 'descriptive:1',
        kind: 'descriptive',
        shown: 'Pięknie czyta',
        subject: 'Edukacja polonistyczna',
        category: null,
        weight: null,
        teacher: null,
        date: '2026-11-16',
        added: null,
        comment: null,
        semester: 1,
        details: {},
      },
    ];
    const averaged = { state: null, attributes: { semester: 1, subjects: [] } } as unknown as GradesAsk['averaged'];
    const answer = await text(server('pl', { grades: { items, terms: [], averaged, semester: 1, absent: false } satisfies GradesAsk }), 'get_grades');
    expect(answer).toContain('Pięknie czyta [ocena opisowa]');
    expect(answer).not.toContain('Średnia ze wszystkich przedmiotów');
    expect(answer).not.toContain('jeszcze nie wiadomo');
  });
});
