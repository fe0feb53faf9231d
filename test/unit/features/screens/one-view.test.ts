// One view of a child on every screen (issue 79, "Done when" 1): ONE set of states, as the features publish them at a
// moment from one week of the portal's records (through the real schemas, schedule(), the timetable's and the
// briefing's renders), with the hard cases: a class split into groups with one group's lesson cancelled, a lesson
// moved in from Monday, an extra class and a room change. The board (boardModel), the family view of the dashboard
// (rendered by Jinja2 as Home Assistant renders it), the briefing and the lessons feed (its iCalendar text read back)
// must tell the same facts: which day, each lesson's change in words, what takes place, the lesson now and next.
// The agenda's and the grades' states join the set: a quiz ten days ahead and a semester proposal beside a grade.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { otherActivitiesResponse, substitutionsResponse, timetablesResponse } from '../../../../src/portal/schemas/timetable.js';
import { classroomsResponse } from '../../../../src/portal/schemas/lookups.js';
import { makeNames } from '../../../../src/rules/names.js';
import { schedule, schoolDays } from '../../../../src/rules/schedule.js';
import { calendarFeedDates, lessonEntries } from '../../../../src/rules/calendar-feeds.js';
import { renderTimetable } from '../../../../src/features/timetable/timetable.js';
import { slotFacts } from '../../../../src/features/timetable/day.js';
import { briefingAt, renderBriefing } from '../../../../src/features/briefing/briefing.js';
import { boardModel, type BoardChild, type BoardLesson } from '../../../../src/outputs/web/board-model.js';
import { calendarFeedText } from '../../../../src/outputs/web/calendar-ics.js';
import { dashboardYaml } from '../../../../src/outputs/homeassistant/dashboard.js';
import { ENTITIES } from '../../../../src/features/index.js';
import type { EntityState } from '../../../../src/engine/state.js';
import { warsawInstant } from '../../../../src/util/time.js';
import { renderUpcomingTests } from '../../../../src/features/agenda/agenda.js';
import { renderNewestGrade } from '../../../../src/features/grades/newest.js';
import { agendaEntries } from '../../../../src/rules/calendar-feeds.js';
import { agendaKind, upcomingTests, type AgendaItem } from '../../../../src/rules/agenda.js';
import { newestGrades } from '../../../../src/rules/grades.js';
import { termGrades } from '../../../../src/rules/term-grades.js';
import type { GradeItem } from '../../../../src/rules/grade-item.js';
import { BOARD_TEXT } from '../../../../src/i18n/board-text.js';
import { luckyShown, luckyToday } from '../../../../src/features/lucky/rules.js';
import { renderLucky } from '../../../../src/features/lucky/lucky.js';
import { skipWithoutJinja } from '../../../helpers/blueprints.js';
import { shownView, type HaStates } from '../../../helpers/dashboard-shown.js';
import { entityByKey } from '../../../helpers/entities.js';
import { parseCalendarFeed } from '../../../helpers/ics.js';
import { BELL, classrooms, lessonAt, subjects, users } from '../../rules/fixtures.js';

const lesson = lessonAt(BELL);
const [MONDAY, TUESDAY, WEDNESDAY] = ['2026-03-09', '2026-03-10', '2026-03-11'];
const names = makeNames({
  subjects,
  users,
  classrooms: [...classrooms, ...classroomsResponse.parse({ Classrooms: [{ Id: 102, Name: 'Sala 4', Symbol: '4' }] }).Classrooms],
});

const days = timetablesResponse.parse({
  Timetable: {
    // Monday's sixth lesson moves to Tuesday's sixth (live-notes 11).
    [MONDAY]: [[lesson(1, 1, 10, 100)], [lesson(6, 1, 10, 100, { NewDate: TUESDAY, NewLessonNo: '6' })]],
    [TUESDAY]: [
      [lesson(1, 1, 10, 100)],
      // Polish in room 4 instead of room 12: a room change.
      [lesson(2, 2, 12, 102, { IsSubstitutionClass: true, OrgSubject: { Id: '2' }, OrgTeacher: { Id: '12' }, OrgClassroom: { Id: '100' } })],
      // A class split into groups: one group's Polish held, the other group's PE cancelled.
      [lesson(3, 2, 10, 100), lesson(3, 3, 12, 101, { IsCanceled: true })],
      [lesson(4, 3, 12, 101)],
      // Monday's lesson as it arrives.
      [lesson(6, 1, 10, 100, { IsSubstitutionClass: true, OrgDate: MONDAY, OrgLessonNo: '6', OrgSubject: { Id: '1' }, OrgTeacher: { Id: '10' } })],
    ],
    [WEDNESDAY]: [[lesson(1, 2, 12, 100)], [lesson(2, 1, 10, 100)]],
  },
}).Timetable;
const substitutions = substitutionsResponse.parse({
  Substitutions: [{ Id: 9, OrgDate: MONDAY, OrgLessonNo: 6, OrgSubject: { Id: 1 }, Date: TUESDAY, LessonNo: 6, Subject: { Id: 1 }, IsShifted: true }],
}).Substitutions;
// After the plan's last lesson (13:25).
const extra = otherActivitiesResponse.parse({
  data: [{ status: 'ACTUAL', date: TUESDAY, startTime: '13:40', endTime: '14:25', title: 'Koło matematyczne', teacherName: 'Zieliński Tomasz' }],
}).data;
const input = { days, substitutions, extra, free: {}, names };
// A quiz ten days ahead, within the two weeks every screen lists.
const TEN_DAYS_AHEAD = '2026-03-20';
const QUIZ: AgendaItem = {
  key: 'agenda:7',
  kind: agendaKind('Kartkówka', 'Ułamki'),
  date: TEN_DAYS_AHEAD,
  until: null,
  time: null,
  time_to: null,
  subject: 'Matematyka',
  category: 'Kartkówka',
  content: 'Ułamki',
  teacher: null,
};
/** A grade of Monday, then the semester's proposal of Tuesday morning: the proposal is newer, never the newest grade. */
const grade = (key: string, shown: string, added: string, period?: string): GradeItem => ({
  key,
  kind: 'grade',
  shown,
  subject: 'Historia',
  category: null,
  weight: 1,
  teacher: 'Tomasz Zieliński',
  date: added.slice(0, 10),
  added,
  comment: null,
  semester: 1,
  details: period ? { period } : {},
});
const GRADES = [grade('grade:1', '4', `${MONDAY} 10:00:00`), grade('grade:2', '3', `${TUESDAY} 07:00:00`, 'semester_proposal')];
const fortnight = schoolDays(input, calendarFeedDates(MONDAY));

/** The child's states at a Warsaw moment, as the features publish them; the lucky number as the portal gave it, her register number beside. */
function statesAt(date: string, time: string, lucky?: { number: number; day: string; registerNumber: string }): Map<string, EntityState> {
  const now = warsawInstant(date, time);
  const s = schedule({ ...input, now });
  const told = lucky && luckyToday(lucky, lucky.registerNumber, date);
  const facts = briefingAt(
    { now, nextSchoolDay: s.nextSchoolDay, days: fortnight, tests: [], homework: [], lucky: told && luckyShown(told), terms: termGrades(GRADES) },
    'pl',
  );
  const others = {
    upcoming_tests: renderUpcomingTests(upcomingTests([QUIZ], date)),
    newest_grade: renderNewestGrade(newestGrades(GRADES)),
    ...(told && renderLucky(told)),
  };
  return new Map(Object.entries({ ...renderTimetable(s, 'pl'), ...renderBriefing(facts, 'pl'), ...others }) as [string, EntityState][]);
}

interface Screens {
  states: Map<string, EntityState>;
  board: BoardChild;
  /** The family view as a parent reads it (Markdown's escapes of the portal's text read back). */
  dashboard: string;
  briefing: string;
  /** The lessons feed's events of a day, as a calendar app reads them. */
  calendarFeed: (date: string) => ReturnType<typeof parseCalendarFeed>['events'];
}

const calendarFeed = parseCalendarFeed(
  calendarFeedText({
    name: 'lessons',
    child: 'Ania',
    entries: { lessons: lessonEntries(fortnight, 'ania', slotFacts), agenda: [], freeDays: [] },
    changedAt: 0,
    language: 'pl',
  }),
);

/** The states as Home Assistant holds them: each entity's id, an unknown state `unknown`, a binary sensor's `on`/`off`. */
function inHomeAssistant(states: Map<string, EntityState>): HaStates {
  return Object.fromEntries(
    [...states].map(([key, s]) => {
      const { platform } = entityByKey(key);
      const state = s.state === null ? 'unknown' : platform === 'binary_sensor' ? s.state.toLowerCase() : s.state;
      return [`${platform}.ania_${key}`, { state, attributes: s.attributes ?? {} }];
    }),
  );
}

async function screensAt(date: string, time: string, withDashboard = true, lucky?: Parameters<typeof statesAt>[2]): Promise<Screens> {
  const states = statesAt(date, time, lucky);
  const now = warsawInstant(date, time);
  const board = boardModel([{ id: 'ania', name: 'Ania', model: 'Klasa 4b', online: true, states, changedAt: now }], 'pl', now).children[0]!;
  let dashboard = '';
  if (withDashboard) {
    const doc = parse(dashboardYaml([{ id: 'ania', name: 'Ania', entities: ENTITIES }], 'pl'), { version: '1.1' }) as {
      views: Record<string, unknown>[];
    };
    const sections = await shownView(doc, 'family', inHomeAssistant(states), `${date}T${time}:00+01:00`);
    dashboard = sections
      .flatMap((s) => [s.heading ?? '', ...s.texts])
      .join('\n')
      .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)));
  }
  const briefing = states.get('briefing')!.state!;
  return { states, board, dashboard, briefing, calendarFeed: (day) => calendarFeed.events.filter((e) => e.uid.includes(`-${day}-`)) };
}

/** A lesson's line on the dashboard's day, as plan.jinja prints a slot (by its number, or its hours without one). */
function dashboardLine(l: BoardLesson): string {
  const slot = l.no === null ? `${l.from}–${l.to}` : `${l.no}\\. ${l.from}`;
  const subject = l.change === 'cancelled' ? `<del>${l.subject}</del>` : l.subject;
  return `${slot} ${subject}${l.note === null ? '' : ` _(${l.note})_`}`;
}

describe('one view of a child on every screen', () => {
  it.skipIf(skipWithoutJinja())(
    'before the lessons: one day, each change in the same words, the same lessons taking place, the same next lesson',
    async () => {
      const at = await screensAt(TUESDAY, '07:30');
      const lessons = at.board.day!.lessons;
      // Which day: today, on the board, in the briefing and on the dashboard.
      expect(at.board.day?.date).toBe(TUESDAY);
      expect(at.states.get('briefing')?.attributes?.day).toBe(TUESDAY);
      expect(at.briefing).toMatch(/^Dziś 8:00–14:25, /);
      expect(at.dashboard).toContain('### Wtorek 10.03 · 08:00–14:25');
      // The hard cases as the timetable says them, printed by the board.
      expect(lessons.map((l) => [l.no, l.subject, l.change, l.note])).toEqual([
        [1, 'Matematyka', null, null],
        [2, 'Język polski', 'room_change', 'zmiana sali · s. 4 · było: s. 12'],
        // The split class is not cancelled: one group's lesson takes place.
        [3, 'Język polski / Wychowanie fizyczne', null, null],
        [4, 'Wychowanie fizyczne', null, null],
        [6, 'Matematyka', 'shifted', 'przeniesiona z pon. 09.03, lekcja 6'],
        [null, 'Koło matematyczne', null, 'zajęcia dodatkowe'],
      ]);
      // The dashboard prints each of them in the same words, none struck through but a cancelled one.
      const lines = at.dashboard.split('\n');
      for (const l of lessons) expect(lines, dashboardLine(l)).toContain(dashboardLine(l));
      expect(at.dashboard).not.toContain('<del>');
      // The lessons feed titles each slot with the same words; what the board says takes place is confirmed there.
      const events = at.calendarFeed(TUESDAY);
      expect(events.map((e) => e.summary)).toEqual(lessons.map((l) => (l.note === null ? l.subject : `${l.subject} (${l.note})`)));
      expect(events.map((e) => e.status)).toEqual(lessons.map(() => 'CONFIRMED'));
      // The briefing counts the lessons that take place, as the timetable and the calendar feed do, and says the changes in the same words.
      const changed = lessons.filter((l) => l.change !== null).map((l) => `${l.subject} (${l.note})`);
      // Then this morning's proposal, as the board stands it apart.
      const proposed = at.board.proposals.map((p) => `${p.subject} ${p.grade}`);
      expect(proposed).toEqual(['Historia 3']);
      expect(at.briefing).toBe(
        `Dziś 8:00–14:25, ${at.states.get('timetable_today')?.state} lekcji. Zmiany: ${changed.join(', ')}. Propozycje ocen: ${proposed.join(', ')}.`,
      );
      expect(at.states.get('timetable_today')?.state).toBe(String(events.length));
      // The next lesson: next_lesson, on the board's headline and the dashboard's line.
      expect(at.states.get('next_lesson')).toMatchObject({ state: 'Matematyka', attributes: { date: TUESDAY, time: '08:00', room: '12', row: 0 } });
      expect(at.board.headline).toEqual({ label: 'Następna', subject: 'Matematyka', detail: '08:00 · s. 12', change: null });
      expect(at.dashboard).toContain('**Następna:** Matematyka, 08:00–08:45, sala 12');
      expect(lessons.map((l) => l.status)).toEqual(lessons.map(() => null));
    },
  );

  it.skipIf(skipWithoutJinja())('during a lesson: the same lesson is on and the same are over, on the board and the dashboard', async () => {
    const at = await screensAt(TUESDAY, '09:00');
    expect(at.states.get('current_lesson')).toMatchObject({ state: 'Język polski', attributes: { no: 2, room: '4' } });
    expect(at.board.headline).toEqual({ label: 'Teraz', subject: 'Język polski', detail: 's. 4 · do 09:40', change: 'room_change' });
    expect(at.dashboard).toContain('**Teraz:** Język polski, 08:55–09:40, sala 4');
    // The lessons before next_lesson's row (the one in progress, its copy with the room filled in) are over.
    expect(at.states.get('next_lesson')).toMatchObject({ state: 'Język polski', attributes: { row: 1 } });
    expect(at.board.day?.lessons.map((l) => l.status)).toEqual(['done', 'now', null, null, null, null]);
    expect(at.dashboard).toContain('▶ **2\\. 08:55 Język polski** _(zmiana sali · s. 4 · było: s. 12)_');
  });

  it.skipIf(skipWithoutJinja())(
    'after the extra class, the next school day on the board and in the briefing; its first lesson everywhere',
    async () => {
      // Still Tuesday while the extra class goes on.
      const during = await screensAt(TUESDAY, '14:20', false);
      expect([during.board.day?.date, during.states.get('briefing')?.attributes?.day]).toEqual([TUESDAY, TUESDAY]);
      const at = await screensAt(TUESDAY, '15:00');
      expect(at.board.day?.date).toBe(WEDNESDAY);
      expect(at.states.get('briefing')?.attributes?.day).toBe(WEDNESDAY);
      // Tuesday's proposal is news all week: the briefing says it as the board still stands it apart.
      expect(at.board.proposals.map((p) => `${p.subject} ${p.grade}`)).toEqual(['Historia 3']);
      expect(at.briefing).toBe('Jutro 8:00–9:40, 2 lekcje. Propozycje ocen: Historia 3.');
      expect(at.states.get('next_lesson')).toMatchObject({ state: 'Język polski', attributes: { date: WEDNESDAY, time: '08:00' } });
      expect(at.board.headline).toEqual({ label: 'Pierwsza lekcja (jutro)', subject: 'Język polski', detail: '08:00 · s. 12', change: null });
      expect(at.dashboard).toContain('Dziś już nie ma lekcji. **Następna (śr. 11.03):** Język polski, 08:00–08:45, sala 12');
      // Tuesday's lessons are all over on the dashboard's day too: no marker.
      expect(at.dashboard).not.toContain('▶');
    },
  );

  it.skipIf(skipWithoutJinja())('without timetable_today the dashboard lists each plan change in the slots’ words', async () => {
    const states = statesAt(TUESDAY, '07:30');
    const { board } = await screensAt(TUESDAY, '07:30', false);
    states.delete('timetable_today');
    const doc = parse(dashboardYaml([{ id: 'ania', name: 'Ania', entities: ENTITIES }], 'pl'), { version: '1.1' }) as {
      views: Record<string, unknown>[];
    };
    const text = (await shownView(doc, 'family', inHomeAssistant(states), `${TUESDAY}T07:30:00+01:00`))
      .flatMap((s) => s.texts)
      .join('\n')
      .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)));
    for (const l of board.day!.lessons.filter((x) => x.change !== null)) expect(text).toContain(`${l.subject}: ${l.note}`);
  });

  it.skipIf(skipWithoutJinja())(
    'a quiz ten days ahead and a semester proposal: the same kind, once, on the board, the dashboard, the briefing and the agenda feed',
    async () => {
      const at = await screensAt(TUESDAY, '07:30');
      // The quiz: a quiz everywhere, within the one window of two weeks.
      expect(at.states.get('upcoming_tests')?.attributes?.items).toMatchObject([{ date: TEN_DAYS_AHEAD, kind: 'quiz' }]);
      expect(at.board.tests).toEqual([{ when: 'pt. 20.03', subject: 'Matematyka', kind: BOARD_TEXT.pl.quiz, text: 'Ułamki' }]);
      expect(at.dashboard).toContain('- pt. 20.03 **Matematyka** <small>kartkówka</small>');
      expect(agendaEntries({ child: 'ania', days: fortnight, agenda: [QUIZ], homework: [] }).map((e) => e.kind)).toEqual(['quiz']);
      // The proposal: apart from the grades, once; the newest grade is the grade before it.
      expect(at.states.get('newest_grade')?.state).toBe('4');
      expect(at.board.grades?.map((g) => g.grade)).toEqual(['4']);
      expect(at.board.proposals.map((p) => [p.grade, p.subject, p.what])).toEqual([['3', 'Historia', BOARD_TEXT.pl.proposal.semester_proposal]]);
      // The briefing tells Tuesday: no test on it; the proposal as the board says it, the grade before it not.
      expect(at.briefing).not.toMatch(/kartkówk|Ułamki/i);
      expect(at.briefing).toContain('Propozycje ocen: Historia 3.');
      expect(at.briefing.match(/Historia/g)).toHaveLength(1);
      // The agenda feed: the proposal on its day, titled by its kind with its subject and grade, once; the grade is no entry.
      const agenda = parseCalendarFeed(
        calendarFeedText({
          name: 'agenda',
          child: 'Ania',
          entries: {
            lessons: [],
            agenda: agendaEntries({ child: 'ania', days: fortnight, agenda: [], homework: [], terms: termGrades(GRADES) }),
            freeDays: [],
          },
          changedAt: 0,
          language: 'pl',
        }),
      );
      expect(agenda.events.map((e) => [e.summary, e.start, e.allDay])).toEqual([['Propozycja oceny śródrocznej: Historia 3', TUESDAY, true]]);
    },
  );
  it.skipIf(skipWithoutJinja())(
    "the evening's lucky number for tomorrow: hers on the board, in the briefing and on the dashboard alike, or on none",
    async () => {
      // After Tuesday's lessons the portal shows Wednesday's number; it is her register number.
      const hers = await screensAt(TUESDAY, '18:00', true, { number: 12, day: WEDNESDAY, registerNumber: '12' });
      expect(hers.states.get('lucky_today')?.state).toBe('OFF');
      const badge = hers.board.facts.find((f) => f.label.startsWith('Szczęśliwy numerek'));
      expect(badge).toMatchObject({ label: 'Szczęśliwy numerek na jutro', value: '12', mark: 'To Ty!' });
      expect(hers.briefing).toMatch(/^Jutro 8:00–9:40, 2 lekcje, szczęśliwy numerek!/);
      expect(hers.dashboard).toContain('🍀 Szczęśliwy numerek (śr. 11.03): **12** – To Ty!');
      // Another child's number: no screen says it is hers.
      const not = await screensAt(TUESDAY, '18:00', true, { number: 7, day: WEDNESDAY, registerNumber: '12' });
      expect(not.board.facts.find((f) => f.label.startsWith('Szczęśliwy numerek'))).toMatchObject({ value: '7', mark: null });
      expect(not.briefing).not.toContain('szczęśliwy');
      expect(not.dashboard).toContain('🍀 Szczęśliwy numerek (śr. 11.03): **7**');
      expect(not.dashboard).not.toContain('To Ty');
    },
  );
});
