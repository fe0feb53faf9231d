// The dashboard tells only what is known (issue 59): rendered with Jinja2 as Home Assistant renders it, a
// child whose lists were never read, or were refused (a kindergarten child's grades, tests and homework),
// sees no "no grades yet", "no tests", "no lesson missed", no count of 0 and no "no lessons today" made up
// from a state that is unknown; a kindergarten child's card is a kindergarten's day: its blocks by their
// hours, "at kindergarten", its newest message and announcement, and no grade, lesson or test box.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { dashboardYaml, type DashboardChild } from '../../../src/outputs/homeassistant/dashboard.js';
import { ENTITIES } from '../../../src/features/index.js';
import { unreadMessages } from '../../../src/features/messages/messages.js';
import { DASHBOARD_TEXT } from '../../../src/i18n/dashboard-text.js';
import { LANGUAGES, type Language } from '../../../src/config/language.js';
import { skipWithoutJinja } from '../../helpers/blueprints.js';
import { shownView, type HaStates, type ShownSection } from '../../helpers/dashboard-shown.js';

const NOW = '2026-11-23T09:30:00+01:00';
const ania: DashboardChild = { id: 'ania', name: 'Ania', entities: ENTITIES };

const doc = (children: DashboardChild[], lang: Language) =>
  parse(dashboardYaml(children, lang), { version: '1.1' }) as { views: Record<string, unknown>[] };

/** The text as a parent reads it: Markdown's escapes of portal text (md()) read back as characters. */
const plain = (sections: ShownSection[]): string =>
  sections
    .flatMap((s) => [s.heading ?? '', ...s.texts])
    .join('\n')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)));

/** Every sentence the dashboard says when a list is known to be empty (and the count of one). */
function madeUp(lang: Language): string[] {
  const t = DASHBOARD_TEXT[lang];
  return [
    t.noGrades,
    t.noTestsAhead,
    t.noCatchUp,
    t.noLessonTopics,
    t.noNotes,
    t.noUnexcused,
    t.noBooks,
    t.noHomework,
    t.noEvents,
    t.noLessonsToday,
    t.noMoreLessons,
  ];
}

const block = (from: string, to: string, subject: string, room: string) => ({
  no: null,
  number: null,
  from,
  to,
  subject,
  room,
  teacher: 'Beata Sikora',
  change: null,
  teachers: ['Beata Sikora'],
  kind: 'planned',
});

/**
 * A kindergarten child's states as the bridge publishes them at 9:30 of a Monday (the simulator's Zofia):
 * the day's blocks, the walk in progress, one unread message and announcement; grades, tests, homework,
 * lessons held, notes and the library refused (no state), the lucky number unused.
 */
function zofia(): HaStates {
  const blocks = [
    block('08:00', '08:30', 'zajęcia poranne', '1'),
    block('08:30', '09:15', 'rytmika', '2'),
    block('09:30', '11:00', 'spacer', 'ogród'),
    block('11:00', '11:45', 'obiad', '1'),
    block('11:45', '12:30', 'odpoczynek', '1'),
  ];
  const s = (state: string, attributes: Record<string, unknown> = {}) => ({ state, attributes });
  return {
    'sensor.zofia_timetable_today': s('5', { date: '2026-11-23', lessons: blocks, kindergarten: true }),
    'sensor.zofia_timetable_tomorrow': s('2', { date: '2026-11-24', lessons: blocks.slice(0, 2), kindergarten: true }),
    'binary_sensor.zofia_school_day_today': s('on', { date: '2026-11-23', lessons: 5, free_day: null }),
    'binary_sensor.zofia_school_day_tomorrow': s('on', { date: '2026-11-24', lessons: 2, free_day: null }),
    'sensor.zofia_lessons_start_today': s('2026-11-23T07:00:00+00:00'),
    'sensor.zofia_lessons_end_today': s('2026-11-23T11:30:00+00:00'),
    'sensor.zofia_lessons_start_tomorrow': s('2026-11-24T07:00:00+00:00'),
    'sensor.zofia_lessons_end_tomorrow': s('2026-11-24T08:15:00+00:00'),
    'sensor.zofia_current_lesson': s('spacer', {
      no: null,
      from: '09:30',
      to: '11:00',
      room: 'ogród',
      teacher: 'Beata Sikora',
      change: null,
      row: 2,
    }),
    'binary_sensor.zofia_at_school': s('on'),
    'sensor.zofia_plan_changes_today': s('0', { date: '2026-11-23', changes: [] }),
    'sensor.zofia_plan_changes_tomorrow': s('0', { date: '2026-11-24', changes: [] }),
    'sensor.zofia_unread_messages': s('1'),
    'sensor.zofia_newest_message': s('Biedronki: bal jesienny w piątek', { sender: 'Beata Sikora', date: '2026-11-22T15:20:05+01:00', read: false }),
    'sensor.zofia_unread_notices': s('1'),
    'sensor.zofia_newest_notice': s('Dzień dyrektorski', { start_date: '2026-11-23', content: 'Szkoła będzie nieczynna.' }),
    'sensor.zofia_briefing': s('Dziś 8:00–12:30 w przedszkolu: zajęcia poranne, rytmika, spacer, obiad, odpoczynek.'),
    'sensor.zofia_newest_grade': s('unknown', { recent: [] }),
    'sensor.zofia_average': s('unknown', { semester: 1, subjects: [] }),
    'binary_sensor.zofia_grade_at_risk': s('unknown'),
    'sensor.zofia_upcoming_tests': s('unknown'),
    'sensor.zofia_homework_due': s('unknown'),
    'sensor.zofia_lesson_topics': s('unknown'),
    'sensor.zofia_newest_note': s('unknown'),
    'sensor.zofia_library_due': s('unknown'),
    'sensor.zofia_behaviour': s('unknown'),
    'sensor.zofia_lucky_number': s('unknown', { day: null, in_use: false }),
  };
}

describe.skipIf(skipWithoutJinja())('the dashboard with states that are not known', () => {
  it.each(LANGUAGES)('says nothing made up in %s for a child of whom nothing is known yet (no state at all)', async (lang) => {
    const d = doc([ania], lang);
    const family = plain(await shownView(d, 'family', {}, NOW));
    const own = await shownView(d, 'ania', {}, NOW);
    for (const sentence of madeUp(lang)) {
      expect(family, lang).not.toContain(sentence);
      expect(plain(own), lang).not.toContain(sentence);
    }
    // No count shown as 0 while it has no state; of the child's own view only what the open button will show.
    expect(family, lang).not.toMatch(/\*\*0\*\*/);
    const t = DASHBOARD_TEXT[lang];
    expect(
      own.filter((s) => s.texts.length > 0),
      lang,
    ).toEqual([{ heading: t.messages, texts: [`#### ${t.openedMessage}\n${t.noOpenedMessage}`] }]);
  });

  it('says "no grades yet" and "no lessons today" once the lists have answered, as before', async () => {
    const t = DASHBOARD_TEXT.pl;
    const known: HaStates = {
      'sensor.ania_newest_grade': { state: 'unknown', attributes: { recent: [] } },
      'binary_sensor.ania_grade_at_risk': { state: 'off', attributes: { subjects: [] } },
      'binary_sensor.ania_school_day_today': { state: 'off', attributes: { date: '2026-11-23', lessons: 0, free_day: null } },
      'sensor.ania_upcoming_tests': { state: '0', attributes: { items: [], other: [] } },
      'sensor.ania_unread_messages': { state: '0', attributes: {} },
    };
    const d = doc([ania], 'pl');
    const family = plain(await shownView(d, 'family', known, NOW));
    expect(family).toContain(t.noLessonsToday);
    expect(family).toContain(t.noTestsAhead);
    expect(family).toContain(`✉️ ${unreadMessages.name.pl}: **0**`);
    expect(plain(await shownView(d, 'ania', known, NOW))).toContain(t.noGrades);
  });
});

describe.skipIf(skipWithoutJinja())("a kindergarten child's card", () => {
  const words: Record<Language, { at: string; activities: string; grades: string; lessons: string; tests: string }> = {
    pl: { at: '🏫 w przedszkolu', activities: 'Zajęcia', grades: 'Oceny', lessons: 'Lekcje', tests: 'Sprawdziany' },
    en: { at: '🏫 at kindergarten', activities: 'Activities', grades: 'Grades', lessons: 'Lessons', tests: 'Tests' },
    uk: { at: '🏫 у садочку', activities: 'Заняття', grades: 'Оцінки', lessons: 'Уроки', tests: 'Контрольні' },
  };

  it.each(LANGUAGES)('in %s: the day of blocks by their hours, its message and announcement, no school box', async (lang) => {
    const child: DashboardChild = { id: 'zofia', name: 'Zofia', entities: ENTITIES, kind: 'kindergarten' };
    const d = doc([ania, child], lang);
    const family = await shownView(d, 'family', zofia(), NOW);
    const column = plain([family.find((s) => s.heading === 'Zofia')!]);
    expect(column).toContain(words[lang].at);
    expect(column).not.toContain(DASHBOARD_TEXT[lang].atSchool);
    for (const line of ['08:00–08:30 zajęcia poranne', '**09:30–11:00 spacer**', '11:45–12:30 odpoczynek']) expect(column, lang).toContain(line);
    // Her walk's place by its name, not "sala ogród" / "room ogród".
    expect(column, lang).toContain('spacer, 09:30–11:00, ogród');
    expect(column, lang).not.toContain(`${DASHBOARD_TEXT[lang].room} ogród`);
    expect(column).toContain('Biedronki: bal jesienny w piątek');
    expect(column).toContain('Dzień dyrektorski');
    expect(column).not.toContain(DASHBOARD_TEXT[lang].testsAhead);
    for (const sentence of madeUp(lang)) expect(column, lang).not.toContain(sentence);
    // Her own view: her day first, then messages; no grades, no lessons held, no tests.
    const own = (await shownView(d, 'zofia', zofia(), NOW)).filter((s) => s.texts.length > 0);
    expect(own[0]!.heading).toBe(words[lang].activities);
    expect(own.map((s) => s.heading)).toContain(DASHBOARD_TEXT[lang].messages);
    for (const school of [words[lang].grades, words[lang].lessons]) expect(own.map((s) => s.heading)).not.toContain(school);
    expect(plain(own)).not.toContain(words[lang].tests);
    for (const sentence of madeUp(lang)) expect(plain(own), lang).not.toContain(sentence);
  });

  it('says "at kindergarten" from the day itself when the dashboard was made before the bridge knew, and hides the grades it has no state for', async () => {
    const d = doc([ania, { id: 'zofia', name: 'Zofia', entities: ENTITIES }], 'pl');
    const column = plain([(await shownView(d, 'family', zofia(), NOW)).find((s) => s.heading === 'Zofia')!]);
    expect(column).toContain('🏫 w przedszkolu');
    expect(column).not.toContain(DASHBOARD_TEXT.pl.noTestsAhead);
    const own = plain(await shownView(d, 'zofia', zofia(), NOW));
    for (const sentence of madeUp('pl')) expect(own).not.toContain(sentence);
    expect(own).not.toContain(DASHBOARD_TEXT.pl.newestGrades);
  });
});
