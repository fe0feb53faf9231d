// The screens print the child's view as the features computed it, and never work it out again (issues 73 and 79):
// the tests of the two weeks as upcoming_tests lists them, each a test or a quiz as the agenda feature tells them
// (its `test` event too), the two weeks' homework as homework_upcoming lists it, a kindergarten's day as the
// timetable says it, a grade's forecast as newest_grade publishes it. Each case also hands the screens a view their
// own rule would not give (a kind the category contradicts, a forecast the average does not give, an item past the
// two weeks), so that a template or a board box that re-derives it fails. A lesson's change and an extra class are the
// one-day test's (test/unit/features/timetable/one-day.test.ts).
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { dashboardYaml } from '../../../src/outputs/homeassistant/dashboard.js';
import { ENTITIES } from '../../../src/features/index.js';
import { renderUpcomingTests } from '../../../src/features/agenda/agenda.js';
import { renderNewestGrade } from '../../../src/features/grades/newest.js';
import { gradeItems, newestGrades } from '../../../src/rules/grades.js';
import { termGrades } from '../../../src/rules/term-grades.js';
import { briefing } from '../../../src/features/briefing/rules.js';
import { BRIEFING_TEXT } from '../../../src/i18n/briefing-text.js';
import { averages } from '../../../src/rules/averages.js';
import { renderAverage } from '../../../src/features/grades/average.js';
import { makeNames } from '../../../src/rules/names.js';
import { gradesResponse } from '../../../src/portal/schemas/grades.js';
import { subjectsResponse } from '../../../src/portal/schemas/lookups.js';
import { DEFAULT_GRADE_THRESHOLDS } from '../../../src/config/schema.js';
import type { GradeItem } from '../../../src/rules/grade-item.js';
import { renderMessages } from '../../../src/features/messages/messages.js';
import { messageEvents, messagesView } from '../../../src/rules/messages.js';
import { UNTITLED } from '../../../src/i18n/school-words.js';
import { agendaKind, testEvents, upcomingTests, type AgendaItem } from '../../../src/rules/agenda.js';
import { agendaEntries } from '../../../src/rules/calendar-feeds.js';
import { boardModel } from '../../../src/outputs/web/board-model.js';
import { noteOf } from '../../../src/features/timetable/day.js';
import { TIMETABLE_WORDS } from '../../../src/i18n/lesson-words.js';
import { calendarFeedText } from '../../../src/outputs/web/calendar-ics.js';
import { parseCalendarFeed } from '../../helpers/ics.js';
import { BOARD_TEXT } from '../../../src/i18n/board-text.js';
import { DASHBOARD_TEXT } from '../../../src/i18n/dashboard-text.js';
import type { EntityState } from '../../../src/engine/state.js';
import { skipWithoutJinja } from '../../helpers/blueprints.js';
import { shownView, type HaStates } from '../../helpers/dashboard-shown.js';

const TODAY = '2026-11-23';
const NOW = `${TODAY}T09:30:00+01:00`;
const doc = parse(dashboardYaml([{ id: 'ania', name: 'Ania', entities: ENTITIES }], 'pl'), { version: '1.1' }) as {
  views: Record<string, unknown>[];
};

const test = (key: string, date: string, subject: string, category: string, content: string): AgendaItem => ({
  key,
  kind: agendaKind(category, content),
  date,
  until: null,
  time: null,
  time_to: null,
  subject,
  category,
  content,
  teacher: null,
});
/** Tomorrow's quiz filed as a test but called a kartkówka, Friday's test, and a test ten days ahead. */
const TESTS = [
  test('agenda:1', '2026-11-24', 'Matematyka', 'Sprawdzian', 'Ułamki, kartkówka z tabliczki'),
  test('agenda:2', '2026-11-27', 'Przyroda', 'Kartkówka', 'Rośliny'),
  test('agenda:3', '2026-12-03', 'Historia', 'Sprawdzian', 'Średniowiecze'),
];

/** Two blocks by their hours, as a kindergarten's plan, with the timetable's `kindergarten` or without it. */
function blocksDay(kindergarten: boolean) {
  const block = (from: string, to: string, subject: string) => ({
    no: null,
    number: null,
    from,
    to,
    subject,
    room: '1',
    teacher: null,
    change: null,
    note: null,
  });
  const lessons = [block('08:00', '08:30', 'rytmika'), block('08:30', '09:15', 'spacer')];
  return { state: '2', attributes: { date: TODAY, hours: { from: '08:00', to: '09:15' }, lessons, ...(kindergarten ? { kindergarten: true } : {}) } };
}

/** The text of every card the family view shows at NOW, with the portal text's character references read back. */
async function family(states: HaStates): Promise<string> {
  const sections = await shownView(doc, 'family', states, NOW);
  return sections
    .flatMap((s) => s.texts)
    .join('\n')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)));
}

/** The child's dashboard view as Home Assistant shows it with these newest_grade and average states, as text. */
async function gradesShown(
  newest: { state: string | null; attributes: Record<string, unknown> },
  average: { state: string | null; attributes: Record<string, unknown> },
) {
  const own = await shownView(
    doc,
    'ania',
    {
      'sensor.ania_newest_grade': { state: newest.state ?? 'unknown', attributes: newest.attributes },
      'sensor.ania_average': { state: average.state ?? 'unknown', attributes: average.attributes },
    },
    NOW,
  );
  return own.flatMap((s) => s.texts).join('\n');
}

/** One child's board at NOW from its published states. */
function board(states: Record<string, { state: string | null; attributes?: object }>) {
  const view = {
    id: 'ania',
    name: 'Ania',
    model: 'Klasa 4b',
    online: true,
    states: new Map(Object.entries(states)) as Map<string, EntityState>,
    changedAt: Date.parse(NOW),
  };
  return boardModel([view], 'pl', Date.parse(NOW)).children[0]!;
}

describe('one view of a child on both screens', () => {
  it('the agenda feature tells a quiz from a test once: its event, upcoming_tests and the agenda feed say it, the board prints it', () => {
    const published = renderUpcomingTests(upcomingTests(TESTS, TODAY));
    const kinds = published.attributes.items?.map((t) => t.kind);
    expect(kinds).toEqual(['test', 'quiz', 'test']);
    expect(testEvents(TESTS, TODAY).map((e) => e.payload.kind)).toEqual(kinds);
    expect(agendaEntries({ child: 'ania', days: [], agenda: TESTS, homework: [] }).map((e) => e.kind)).toEqual(kinds);
    const words = { test: BOARD_TEXT.pl.test, quiz: BOARD_TEXT.pl.quiz } as const;
    expect(board({ upcoming_tests: published }).tests?.map((t) => t.kind)).toEqual(kinds?.map((k) => words[k as 'test' | 'quiz']));
    // A quiz by the feature's word though its category says "Sprawdzian": the board runs no rule of its own.
    const told = { state: '1', attributes: { items: [{ ...published.attributes.items?.[0], kind: 'quiz' }], other: [] } };
    expect(board({ upcoming_tests: told }).tests?.map((t) => t.kind)).toEqual([BOARD_TEXT.pl.quiz]);
  });

  it.skipIf(skipWithoutJinja())(
    'the family view lists the two weeks the feature listed, the first two and how many, each a test or a quiz (python3-jinja2)',
    async () => {
      const published = renderUpcomingTests(upcomingTests(TESTS, TODAY));
      const shown = (items: unknown[]) =>
        family({ 'sensor.ania_upcoming_tests': { state: String(items.length), attributes: { ...published.attributes, items } } });
      const items = published.attributes.items ?? [];
      const ahead = await shown(items);
      // All three tests of the two weeks are counted, the one ten days ahead too (the view listed seven days before).
      expect(ahead).toContain(`**${DASHBOARD_TEXT.pl.testsAhead} (3):**`);
      for (const line of ['- wt. 24.11 **Matematyka** <small>sprawdzian</small>', '- pt. 27.11 **Przyroda** <small>kartkówka</small>'])
        expect(ahead).toContain(line);
      expect(ahead).not.toContain('Historia');
      // The child's own view lists the whole window, as the board's tests box does when opened.
      const own = await shownView(doc, 'ania', { 'sensor.ania_upcoming_tests': { state: '3', attributes: published.attributes } }, NOW);
      expect(own.flatMap((s) => s.texts).join('\n')).toContain('- czw. 03.12 **Historia** <small>sprawdzian</small>: Średniowiecze');
      // The feature's list is the window: an item its dates put past it still stands.
      const late = await shown([{ ...items[2], date: '2026-12-21', kind: 'quiz' }]);
      expect(late).toContain(`**${DASHBOARD_TEXT.pl.testsAhead}:**`);
      expect(late).toContain('- pon. 21.12 **Historia** <small>kartkówka</small>: Średniowiecze');
    },
  );

  it.skipIf(skipWithoutJinja())(
    'names a substitute of the same subject and the teacher away, each once, on the board and the dashboard (python3-jinja2)',
    async () => {
      const slot = {
        no: 2,
        from: '08:55',
        to: '09:40',
        subject: 'Edukacja',
        teacher: 'Monika Piotrowska',
        room: '3',
        change: 'substitution' as const,
        original_subject: 'Edukacja',
        original_teacher: 'Ewa Szymańska',
        original_room: '3',
        extra: undefined,
      };
      const lesson = { ...slot, note: noteOf(slot, TIMETABLE_WORDS.pl) };
      expect(lesson.note).toBe('zastępstwo za: Ewa Szymańska');
      const today = { state: '1', attributes: { date: TODAY, lessons: [lesson] } };
      expect(board({ timetable_today: today }).day?.lessons[0]?.note).toBe('M. Piotrowska za E. Szymańska');
      const text = await family({ 'sensor.ania_timetable_today': today, 'binary_sensor.ania_at_school': { state: 'on', attributes: {} } });
      expect(text).toContain('Edukacja _(Monika Piotrowska · zastępstwo za: Ewa Szymańska)_');
      expect(text.split('Monika Piotrowska')).toHaveLength(2);
    },
  );

  it("draws a kindergarten's blocks on the board only when the timetable says the day is one", () => {
    expect(board({ timetable_today: blocksDay(true) }).day?.lessons.map((l) => l.block)).toEqual([true, true]);
    expect(board({ timetable_today: blocksDay(false) }).day?.lessons.map((l) => l.block)).toEqual([undefined, undefined]);
  });

  it.skipIf(skipWithoutJinja())(
    "speaks of a kindergarten's day on the dashboard only when the timetable says it is one (python3-jinja2)",
    async () => {
      // The dashboard made before the bridge knew her kind: the day alone tells.
      const day = (kindergarten: boolean) =>
        family({ 'sensor.ania_timetable_today': blocksDay(kindergarten), 'binary_sensor.ania_at_school': { state: 'on', attributes: {} } });
      expect(await day(true)).toContain(`🏫 ${DASHBOARD_TEXT.pl.atKindergarten}`);
      expect(await day(false)).toContain(`🏫 ${DASHBOARD_TEXT.pl.atSchool}`);
    },
  );

  it.skipIf(skipWithoutJinja())("lists the two weeks' homework the feature listed, on the board and on the dashboard (python3-jinja2)", async () => {
    const due = (date: string, subject: string, topic: string) => ({ date, subject, topic, text: null, teacher: null, added: null, attachments: [] });
    // The list as published, one item past the two weeks: a screen that picked the days itself would drop it.
    const items = [due('2026-11-24', 'Matematyka', 'Ułamki'), due('2026-12-21', 'Plastyka', 'Kolaż')];
    const upcoming = { state: '2', attributes: { items } };
    expect(board({ homework_upcoming: upcoming }).homework?.items.map((h) => [h.when, h.subject, h.text])).toEqual([
      ['jutro', 'Matematyka', 'Ułamki'],
      ['pon. 21.12', 'Plastyka', 'Kolaż'],
    ]);
    const own = await shownView(doc, 'ania', { 'sensor.ania_homework_upcoming': upcoming }, NOW);
    const text = own.flatMap((s) => s.texts).join('\n');
    for (const line of ['- wt. 24.11 **Matematyka**: Ułamki', '- pon. 21.12 **Plastyka**: Kolaż']) expect(text).toContain(line);
  });

  it.skipIf(skipWithoutJinja())(
    "prints a grade's forecast as newest_grade gives it, and a semester proposal apart, once, on the board and on the dashboard (python3-jinja2)",
    async () => {
      const item = (key: string, shown: string, period?: string): GradeItem => ({
        key,
        kind: 'grade',
        shown,
        subject: 'Matematyka',
        category: null,
        weight: 1,
        teacher: 'Tomasz Zieliński',
        date: TODAY,
        added: `${TODAY} 08:0${key.slice(-1)}:00`,
        comment: null,
        semester: 1,
        details: period ? { period } : {},
      });
      // A forecast of 5 beside a grade of 2: no rule of either screen would give it, and no `average` state to work it out from.
      const published = renderNewestGrade(newestGrades([item('grade:1', '2'), item('grade:2', '3', 'semester_proposal')]), undefined, [
        { subject: 'Matematyka', forecast: '5' },
      ]);
      const newest = { state: published.state, attributes: published.attributes };
      const card = board({ newest_grade: newest });
      expect(card.grades?.map((g) => [g.grade, g.subject, g.forecast])).toEqual([['2', 'Matematyka', BOARD_TEXT.pl.forecast('5')]]);
      expect(card.proposals.map((p) => [p.grade, p.subject, p.what])).toEqual([['3', 'Matematyka', BOARD_TEXT.pl.proposal.semester_proposal]]);
      const own = await shownView(doc, 'ania', { 'sensor.ania_newest_grade': newest as HaStates[string] }, NOW);
      const text = own.flatMap((s) => s.texts).join('\n');
      expect(text).toContain('- **2** Matematyka <small>Tomasz Zieliński · pon. 23.11 · prognoza **5**</small>');
      expect(text).not.toContain('- **3** Matematyka');
    },
  );
  it.skipIf(skipWithoutJinja())(
    "prints all of a term's end's 14 proposals, a replaced one once by its newest, on the board, the dashboard, in the briefing and the agenda feed (python3-jinja2)",
    async () => {
      const SUBJECTS = ['Biologia', 'Chemia', 'Edukacja dla bezpieczeństwa', 'Fizyka', 'Geografia', 'Historia', 'Informatyka'];
      const all = [...SUBJECTS, 'Język angielski', 'Język niemiecki', 'Język polski', 'Matematyka', 'Muzyka', 'Plastyka', 'Technika'];
      const names = makeNames({
        subjects: subjectsResponse.parse({ Subjects: all.map((Name, i) => ({ Id: i + 1, Name })) }).Subjects,
        users: [],
        classrooms: [],
      });
      const MATHS = all.indexOf('Matematyka') + 1;
      const record = (Id: number, Grade: string, Subject: number, day: string, extra: object = {}) => ({
        Id,
        Grade,
        Subject: { Id: Subject },
        Semester: 1,
        Date: day,
        AddDate: `${day} 10:00:00`,
        ...extra,
      });
      const proposal = { IsSemesterProposition: true };
      const list = gradesResponse.parse({
        Grades: [
          // Each subject a grade of the month and its proposal of last Friday; maths' 3 of the 19th replaced by a 4.
          ...all.map((_, i) => record(100 + i, '4', i + 1, '2026-11-10')),
          ...all.map((_, i) =>
            record(200 + i, i + 1 === MATHS ? '3' : String(2 + (i % 4)), i + 1, i + 1 === MATHS ? '2026-11-19' : '2026-11-20', proposal),
          ),
          record(300, '4', MATHS, '2026-11-21', proposal),
        ],
      }).Grades;
      const items = gradeItems({ grades: list }, names, '2027-01-29');
      const terms = termGrades(items);
      const value = averages({ grades: list, semester: 1, endFirstSemester: '2027-01-29', names, terms });
      const average = renderAverage(value, [], { thresholds: DEFAULT_GRADE_THRESHOLDS, today: TODAY });
      const newest = renderNewestGrade(newestGrades(items, terms), undefined, average.attributes.subjects);
      // The averages' fallback reads the same one list: the same term grades without being handed it.
      expect(averages({ grades: list, semester: 1, endFirstSemester: '2027-01-29', names }).subjects.map((s) => s.periods)).toEqual(
        value.subjects.map((s) => s.periods),
      );
      const card = board({ newest_grade: { state: newest.state, attributes: newest.attributes } });
      expect(card.proposals).toHaveLength(14);
      expect(card.proposals.filter((p) => p.subject === 'Matematyka').map((p) => p.grade)).toEqual(['4']);
      const text = await gradesShown(newest, average);
      const label = `${DASHBOARD_TEXT.pl.proposal} ${DASHBOARD_TEXT.pl.semesterGrade}`;
      // Every subject's row says its proposal, maths' by its newest, once.
      expect(text.split(`${label}: **`)).toHaveLength(15);
      const maths = text.split('\n').find((line) => line.startsWith('| Matematyka'));
      expect(maths).toContain(`${label}: **4**`);
      expect(maths).not.toContain(`${label}: **3**`);
      for (const p of card.proposals) expect(text).toContain(`| ${p.subject}<br><small>${label}: **${p.grade}**`);
      // The briefing tells the same 14 (the board's order, maths by its 4) from the same list, every one read aloud.
      const told = briefing({
        today: TODAY,
        day: { date: TODAY, hours: null, lessons: [] },
        days: [],
        tests: [],
        homework: [],
        lucky: undefined,
        terms,
      });
      const proposed = card.proposals.map((p) => `${p.subject} ${p.grade}`);
      expect(told?.proposals.map((p) => `${p.subject} ${p.grade}`)).toEqual(proposed);
      expect(BRIEFING_TEXT.pl(told).text).toContain(`Propozycje ocen: ${proposed.join(', ')}.`);
      // The agenda feed: each of the 14 on its day, titled with its subject and grade; maths once, by its 4.
      const calendarFeed = parseCalendarFeed(
        calendarFeedText({
          name: 'agenda',
          child: 'Ania',
          entries: { lessons: [], agenda: agendaEntries({ child: 'ania', days: [], agenda: [], homework: [], terms }), freeDays: [] },
          changedAt: 0,
          language: 'pl',
        }),
      );
      const titles = calendarFeed.events.map((e) => e.summary);
      expect(titles).toHaveLength(14);
      expect(titles.filter((t) => t.includes('Matematyka'))).toEqual(['Propozycja oceny śródrocznej: Matematyka 4']);
      for (const p of card.proposals) expect(titles).toContain(`Propozycja oceny śródrocznej: ${p.subject} ${p.grade}`);
    },
  );
  it.skipIf(skipWithoutJinja())(
    'prints a proposal of a subject without a numeric average on the board, the dashboard and in newest_grade alike, a descriptive grade once (python3-jinja2)',
    async () => {
      // Matematyka graded and proposed; Plastyka a descriptive subject (a descriptive grade, no grade on the scale) and
      // Muzyka with no grade yet, each proposed all the same: no average to put a row of the table to.
      const all = ['Matematyka', 'Plastyka', 'Muzyka'];
      const names = makeNames({
        subjects: subjectsResponse.parse({ Subjects: all.map((Name, i) => ({ Id: i + 1, Name })) }).Subjects,
        users: [],
        classrooms: [],
      });
      const record = (Id: number, Grade: string, Subject: number, extra: object = {}) => ({
        Id,
        Grade,
        Subject: { Id: Subject },
        Semester: 1,
        Date: '2026-11-20',
        AddDate: '2026-11-20 10:00:00',
        ...extra,
      });
      const proposal = { IsSemesterProposition: true };
      const list = gradesResponse.parse({
        Grades: [record(100, '4', 1), record(200, '4', 1, proposal), record(201, '5', 2, proposal), record(202, '6', 3, proposal)],
      }).Grades;
      const described: GradeItem = {
        key: 'descriptive:5',
        kind: 'descriptive',
        shown: 'Rysuje starannie i z pomysłem',
        subject: 'Plastyka',
        category: null,
        weight: null,
        teacher: 'Anna Wiśniewska',
        date: '2026-11-21',
        added: '2026-11-21 09:00:00',
        comment: 'Brawo',
        semester: 1,
        details: {},
      };
      const items = [...gradeItems({ grades: list }, names, '2027-01-29'), described];
      const terms = termGrades(items);
      const value = averages({ grades: list, semester: 1, endFirstSemester: '2027-01-29', names, terms });
      const average = renderAverage(value, [], { thresholds: DEFAULT_GRADE_THRESHOLDS, today: TODAY });
      expect(average.attributes.subjects.map((s) => [s.subject, s.average])).toEqual([
        ['Matematyka', 4],
        ['Muzyka', null],
        ['Plastyka', null],
      ]);
      const newest = renderNewestGrade(newestGrades(items, terms, 1), undefined, average.attributes.subjects);
      const proposed = (newest.attributes.proposals ?? []).map((p) => `${p.subject} ${p.grade}`).sort();
      expect(proposed).toEqual(['Matematyka 4', 'Muzyka 6', 'Plastyka 5']);
      const card = board({ newest_grade: { state: newest.state, attributes: newest.attributes } });
      expect(card.proposals.map((p) => `${p.subject} ${p.grade}`).sort()).toEqual(proposed);
      const text = await gradesShown(newest, average);
      const label = `${DASHBOARD_TEXT.pl.proposal} ${DASHBOARD_TEXT.pl.semesterGrade}`;
      for (const p of card.proposals) expect(text).toContain(`| ${p.subject}<br><small>${label}: **${p.grade}**`);
      expect(text.split(`${label}: **`)).toHaveLength(4);
      // The descriptive grade stands once, whole under its heading, not again among the newest grades.
      expect(text.split('Rysuje starannie i z pomysłem')).toHaveLength(2);
      expect(text).toContain(`#### ${DASHBOARD_TEXT.pl.describedGrades}\n- **Plastyka**: Rysuje starannie i z pomysłem`);
      expect(text).toContain(`#### ${DASHBOARD_TEXT.pl.newestGrades}\n- **4** Matematyka`);
    },
  );
  it.skipIf(skipWithoutJinja())(
    "titles each of the simulator's agenda categories in the agenda feed by the kind the dashboard names, never twice (python3-jinja2)",
    async () => {
      // The simulator's categories (1 Sprawdzian, 2 Kartkówka, 3 Wycieczka, 4 Zebranie z rodzicami, 5 Inne), each as a
      // teacher files it; the open day under "Inne" is the school's own event, told by that category, and the meeting
      // repeats its category.
      const entries = [
        test('agenda:11', '2026-11-24', 'Matematyka', 'Sprawdzian', 'Ułamki'),
        test('agenda:12', '2026-11-25', 'Przyroda', 'Kartkówka', 'Rośliny'),
        { ...test('agenda:13', '2026-11-26', '', 'Wycieczka', 'Wycieczka do Krakowa'), subject: null },
        { ...test('agenda:14', '2026-11-27', '', 'Zebranie z rodzicami', 'Zebranie z rodzicami – informacja o ocenach'), subject: null },
        { ...test('agenda:15', '2026-11-30', '', 'Inne', 'Dzień otwarty szkoły'), subject: null },
      ];
      expect(entries.map((e) => e.kind)).toEqual(['test', 'quiz', 'trip', 'meeting', 'event']);
      const calendarFeed = parseCalendarFeed(
        calendarFeedText({
          name: 'agenda',
          child: 'Ania',
          entries: { lessons: [], agenda: agendaEntries({ child: 'ania', days: [], agenda: entries, homework: [] }), freeDays: [] },
          changedAt: 0,
          language: 'pl',
        }),
      );
      const titles = calendarFeed.events.map((e) => e.summary);
      expect(titles).toEqual([
        'Sprawdzian: Matematyka',
        'Kartkówka: Przyroda',
        'Wycieczka do Krakowa',
        'Zebranie z rodzicami – informacja o ocenach',
        'Inne: Dzień otwarty szkoły',
      ]);
      const published = renderUpcomingTests(upcomingTests(entries, TODAY));
      const own = await shownView(doc, 'ania', { 'sensor.ania_upcoming_tests': { state: '2', attributes: published.attributes } }, NOW);
      const text = own.flatMap((s) => s.texts).join('\n');
      // The dashboard's kind of each: a test's word beside its subject, another entry's category in bold; the calendar feed's title says the same.
      expect(text).toContain('**Matematyka** <small>sprawdzian</small>: Ułamki');
      expect(text).toContain('**Przyroda** <small>kartkówka</small>: Rośliny');
      for (const [category, content] of [
        ['Wycieczka', 'Wycieczka do Krakowa'],
        ['Zebranie z rodzicami', 'Zebranie z rodzicami – informacja o ocenach'],
        ['Inne', 'Dzień otwarty szkoły'],
      ] as const) {
        expect(text).toContain(`**${category}**: ${content}`);
        expect(titles.find((t) => t.endsWith(content))?.startsWith(category)).toBe(true);
      }
      for (const title of titles) expect(title).not.toMatch(/^(.+): \1/);
    },
  );
  it.skipIf(skipWithoutJinja())(
    'shows a descriptive and a text grade older than the ten newest, with the comment, on the board and the dashboard (python3-jinja2)',
    async () => {
      const item = (key: string, kind: GradeItem['kind'], shown: string, subject: string, date: string, comment: string | null): GradeItem => ({
        key,
        kind,
        shown,
        subject,
        category: null,
        weight: kind === 'grade' ? 1 : null,
        teacher: 'Ewa Lis',
        date,
        added: `${date} 10:00:00`,
        comment,
        semester: 1,
        details: {},
      });
      // Eleven ordinary grades this week push September's descriptive and text grades out of the ten newest.
      const plain = Array.from({ length: 11 }, (_, i) =>
        item(`grade:${i}`, 'grade', '4', 'Matematyka', `2026-11-${String(10 + i).padStart(2, '0')}`, null),
      );
      const muzyka = item('descriptive:1', 'descriptive', '5', 'Muzyka', '2026-09-20', 'Czysto śpiewa w grupie');
      const plastyka = item('text:1', 'text', 'Starannie wykonuje prace', 'Plastyka', '2026-09-22', null);
      const published = renderNewestGrade(newestGrades([...plain, muzyka, plastyka], [], 1));
      expect(published.attributes.recent?.map((g) => g.subject)).not.toContain('Muzyka');
      const newest = { state: published.state, attributes: published.attributes };
      const card = board({ newest_grade: newest });
      expect(card.grades?.find((g) => g.subject === 'Muzyka')).toMatchObject({ grade: '5', comment: 'Czysto śpiewa w grupie', text: false });
      expect(card.grades?.find((g) => g.subject === 'Plastyka')).toMatchObject({ grade: 'Starannie wykonuje prace', text: true });
      const own = await shownView(doc, 'ania', { 'sensor.ania_newest_grade': newest as HaStates[string] }, NOW);
      const text = own.flatMap((s) => s.texts).join('\n');
      expect(text).toContain(`#### ${DASHBOARD_TEXT.pl.describedGrades}`);
      expect(text).toContain('- **Muzyka**: 5 <small>Ewa Lis · niedz. 20.09</small><br><small><i>Czysto śpiewa w grupie</i></small>');
      expect(text).toContain('- **Plastyka**: Starannie wykonuje prace <small>Ewa Lis · wt. 22.09</small>');
    },
  );
  it.skipIf(skipWithoutJinja())('lists the unread messages newest_message lists, on the board and on the dashboard (python3-jinja2)', async () => {
    const message = (id: string, topic: string, sendDate: string, read: boolean) => ({
      id,
      topic,
      sender: 'Anna Nowak',
      sendDate,
      read,
      hasAttachments: false,
      content: undefined,
    });
    // The newest one read in the register's app, two older ones not: the portal's counter says 3 (one not listed).
    const states = renderMessages(
      messagesView(
        { inbox: 3 },
        [
          message('503', 'Plan wycieczki', '2026-11-22 18:00:00', true),
          message('502', 'Zebranie w czwartek', '2026-11-21 10:00:00', false),
          message('501', 'Zbiórka makulatury', '2026-11-20 09:00:00', false),
        ],
        UNTITLED.pl,
      ),
      'pl',
    );
    const [newest, unread] = [states.newest_message!, states.unread_messages!];
    const card = board({ newest_message: newest, unread_messages: unread });
    expect(card.messages?.unread.map((m) => m.topic)).toEqual(['Zebranie w czwartek', 'Zbiórka makulatury']);
    expect(card.facts.find((f) => f.label === BOARD_TEXT.pl.labels.messages)?.value).toBe('3');
    const own = await shownView(
      doc,
      'ania',
      { 'sensor.ania_newest_message': newest as HaStates[string], 'sensor.ania_unread_messages': unread as HaStates[string] },
      NOW,
    );
    const text = own.flatMap((s) => s.texts).join('\n');
    expect(text).toContain(`#### ${DASHBOARD_TEXT.pl.newestMessage} · ✉️ **3**`);
    expect(text).toContain('- **Plan wycieczki**, Anna Nowak <small>niedz. 22.11</small>\n');
    for (const [topic, day] of [
      ['Zebranie w czwartek', 'sob. 21.11'],
      ['Zbiórka makulatury', 'pt. 20.11'],
    ])
      expect(text).toContain(`- **${topic}**, Anna Nowak <small>${day}</small> · _${DASHBOARD_TEXT.pl.unread}_`);
  });
  it.skipIf(skipWithoutJinja())(
    'lists an unread message without a subject as "(bez tematu)" on the board, the dashboard and in its event (python3-jinja2)',
    async () => {
      // The newest of two unread, its topic empty as the portal gives it: "5 unread, four listed" was the fault.
      const untitled = {
        id: '602',
        topic: '',
        sender: 'Anna Nowak',
        sendDate: '2026-11-22 18:00:00',
        read: false,
        hasAttachments: false,
        content: undefined,
      };
      const older = { ...untitled, id: '601', topic: 'Zebranie', sendDate: '2026-11-21 10:00:00' };
      for (const language of ['pl', 'en', 'uk'] as const) {
        const states = renderMessages(messagesView({ inbox: 2 }, [untitled, older], UNTITLED[language]), language);
        const newest = states.newest_message!;
        expect(
          board({ newest_message: newest }).messages?.unread.map((m) => m.topic),
          language,
        ).toEqual([UNTITLED[language], 'Zebranie']);
        expect(messageEvents('inbox', [untitled], UNTITLED[language])[0]?.payload.topic, language).toBe(UNTITLED[language]);
      }
      const newest = renderMessages(messagesView({ inbox: 2 }, [untitled, older], UNTITLED.pl), 'pl').newest_message!;
      const own = await shownView(doc, 'ania', { 'sensor.ania_newest_message': newest as HaStates[string] }, NOW);
      expect(own.flatMap((s) => s.texts).join('\n')).toContain('- **&#40;bez tematu&#41;**, Anna Nowak <small>niedz. 22.11</small>');
    },
  );
  it.skipIf(skipWithoutJinja())(
    "says the semester's attendance and each subject's from `attendance`, formatted alike, on both screens (python3-jinja2)",
    async () => {
      const row = (subject: string, lessons: number, present: number, percent: number) => ({
        subject,
        lessons,
        present,
        absent: lessons - present,
        late: 0,
        excused: 0,
        percent,
      });
      const attendance = { state: '95.7', attributes: { by_subject: [row('Religia', 9, 8, 88.9), row('Historia', 9, 9, 100)], unexcused: 0 } };
      // absences_unexcused carries the share too, for automations; a screen reads it from `attendance` alone.
      const absences = { state: '0', attributes: { unexcused: [], attendance_percent: 50 } };
      const school = board({ attendance, absences_unexcused: absences }).school;
      expect([school.attendance, school.bySubject]).toEqual([
        `${BOARD_TEXT.pl.attendance} 95,7%`,
        [
          { subject: 'Religia', percent: '88,9%' },
          { subject: 'Historia', percent: '100%' },
        ],
      ]);
      const own = await shownView(doc, 'ania', { 'sensor.ania_attendance': attendance, 'sensor.ania_absences_unexcused': absences }, NOW);
      const text = own.flatMap((s) => s.texts).join('\n');
      expect(text).toContain(`${DASHBOARD_TEXT.pl.attendance}: **95,7%**`);
      for (const cells of ['| 8/9 | 88,9% |', '| 9/9 | 100% |']) expect(text).toContain(cells);
      expect(text).not.toContain('50');
    },
  );

  it.skipIf(skipWithoutJinja())(
    "the school's card says its address, head teacher, e-mail and phone as school publishes them (python3-jinja2)",
    async () => {
      const school = {
        state: '4b',
        attributes: {
          school: 'Szkoła Podstawowa nr 12',
          address: 'Leśna 7, 05-090 Zielonki',
          head_teacher: 'Barbara Krawczyk',
          email: 'sekretariat@sp12.example.pl',
          phone: '22 100 20 30',
          tutor: 'Anna Nowak',
        },
      };
      const own = await shownView(doc, 'ania', { 'sensor.ania_school': school }, NOW);
      const text = own
        .flatMap((s) => s.texts)
        .join('\n')
        .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)));
      expect(text).toContain('Szkoła Podstawowa nr 12, Leśna 7, 05-090 Zielonki');
      expect(text).toContain('dyrektor: Barbara Krawczyk · e-mail: sekretariat@sp12.example.pl · tel.: 22 100 20 30');
    },
  );
});
