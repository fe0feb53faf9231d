// The simulator's Realizations (lessons held): one per lesson held since 1 September, topics in each
// subject's order, tests as topics, lessons resolvable through Lessons, and the bad records tests add.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addWeekdays } from '../../src/simulator/dates.js';
import { loadFixture } from '../../src/simulator/fixtures.js';
import type { SchoolFixture } from '../../src/simulator/fixtures.js';
import { PortalSimulator } from '../../src/simulator/index.js';
import { gatewayGet, logIn } from '../helpers/simulator.js';
import type { TinyBrowser } from '../helpers/simulator.js';

const ANIA = { login: '1234567u', password: 'demo-ania' };
const JANEK = { login: '7654321u', password: 'demo-janek' };
/** Friday 2026-11-20, noon in Warsaw: lessons 1-5 of the day have started, 6 and 7 have not. */
const TODAY = '2026-11-20';
const POLSKI = 5011;
const MATMA = 5012;
const TOPICS = loadFixture<SchoolFixture>('school').topics;

interface Realization {
  Id: string;
  Lesson: { Id: number };
  LessonNo: string;
  Date: string;
  Topic: string;
  IsTrip: boolean;
  CountInStatistics: boolean;
  CountInRPN: boolean;
  AddedBy: { Id: number };
}
interface Lesson {
  Id: number;
  Subject: { Id: number };
  Teacher: { Id: number };
}

let sim: PortalSimulator;
let browser: TinyBrowser;

beforeEach(async () => {
  sim = new PortalSimulator({ now: () => Date.parse(`${TODAY}T12:00:00+01:00`) });
  await sim.start();
  browser = await logIn(sim, ANIA.login, ANIA.password);
});

afterEach(async () => {
  await sim.stop();
});

const realizations = async (b = browser): Promise<Realization[]> =>
  (await gatewayGet<{ Realizations: Realization[] }>(sim, b, 'Realizations')).body.Realizations;

/** Lesson id -> subject id, through the Lessons lookup as a reader would join them. */
async function subjectOfLesson(b = browser): Promise<Map<number, number>> {
  const lessons = (await gatewayGet<{ Lessons: Lesson[] }>(sim, b, 'Lessons')).body.Lessons;
  return new Map(lessons.map((l) => [l.Id, l.Subject.Id]));
}

async function ofSubject(subject: number, b = browser): Promise<Realization[]> {
  const subjects = await subjectOfLesson(b);
  return (await realizations(b)).filter((r) => subjects.get(r.Lesson.Id) === subject);
}

describe('Realizations', () => {
  it('lists one realization per lesson held since 1 September, every lesson resolvable to a subject', async () => {
    const list = await realizations();
    const subjects = await subjectOfLesson();
    expect(list[0]?.Date).toBe('2026-09-01');
    expect(list.at(-1)).toMatchObject({ Date: TODAY, LessonNo: '5' });
    const schoolDays = sim.schoolDays(ANIA.login);
    const expected: string[] = [];
    for (let d = '2026-09-01'; d <= TODAY; d = addWeekdays(d, 1)) {
      const slots = new Set(
        schoolDays
          .lessonsOn(d)
          .filter((l) => !l.cancelled && (d < TODAY || l.lessonNo <= 5))
          .map((l) => l.lessonNo),
      );
      for (const n of [...slots].sort((a, b) => a - b)) expected.push(`${d}/${n}`);
    }
    expect(list.map((r) => `${r.Date}/${r.LessonNo}`)).toEqual(expected);
    expect(new Set(list.map((r) => r.Id)).size).toBe(list.length);
    for (const r of list) {
      expect(r.Id).toMatch(/^t\d+$/);
      expect(subjects.has(r.Lesson.Id)).toBe(true);
      expect(r.Topic.length).toBeGreaterThan(0);
      expect(r).toMatchObject({ IsTrip: false, CountInStatistics: true, CountInRPN: true });
    }
  });

  it('leaves out a cancelled lesson and gives a substitution to the substitute and their subject', async () => {
    const list = await realizations();
    const cancelled = addWeekdays(TODAY, -7);
    expect(list.find((r) => r.Date === cancelled && r.LessonNo === '4')).toBeUndefined();
    const substituted = list.find((r) => r.Date === addWeekdays(TODAY, -4) && r.LessonNo === '3');
    expect(substituted?.AddedBy.Id).toBe(162015);
    expect((await subjectOfLesson()).get(substituted?.Lesson.Id ?? 0)).toBe(5022);
    expect(TOPICS['5022']).toContain(substituted?.Topic);
    // The timetable still shows the same slot as a substitution of the planned lesson.
    type Week = { Timetable: Record<string, { IsSubstitutionClass: boolean; Subject: { Id: string } }[][]> };
    const week = await gatewayGet<Week>(sim, browser, 'Timetables?weekStart=2026-11-16');
    expect(week.body.Timetable[addWeekdays(TODAY, -4)]?.[3]?.[0]).toMatchObject({ IsSubstitutionClass: true, Subject: { Id: '5022' } });
  });

  it("continues each subject's topics across weeks, the next topic after the last", async () => {
    for (const subject of [POLSKI, MATMA, 5014]) {
      const bank = TOPICS[String(subject)] ?? [];
      const held = (await ofSubject(subject)).filter((r) => bank.includes(r.Topic));
      expect(held.length).toBeGreaterThan(20);
      for (let i = 1; i < held.length; i++) {
        const prev = bank.indexOf(held[i - 1]?.Topic ?? '');
        expect(held[i]?.Topic).toBe(bank[(prev + 1) % bank.length]);
      }
    }
    // Back-to-back lessons of a subject share their topic; the next one after a break moves on.
    const janek = await logIn(sim, JANEK.login, JANEK.password);
    const tuesday = (await realizations(janek)).filter((r) => r.Date === '2026-11-17');
    expect(tuesday.map((r) => r.LessonNo)).toEqual(['1', '2', '3', '4', '5']);
    const early = TOPICS['5023'] ?? [];
    expect(tuesday[1]?.Topic).toBe(tuesday[0]?.Topic);
    expect(tuesday[3]?.Topic).toBe(early[(early.indexOf(tuesday[0]?.Topic ?? '') + 1) % early.length]);
    // The last four weeks repeat no topic of Polish.
    const month = (await ofSubject(POLSKI)).filter((r) => r.Date > '2026-10-23');
    expect(new Set(month.map((r) => r.Topic)).size).toBe(month.length);
  });

  it('writes a test on the agenda as the topic of its lesson, so the topics since the last test can be found', async () => {
    const polish = await ofSubject(POLSKI);
    const testDay = addWeekdays(TODAY, -20);
    const at = polish.findIndex((r) => r.Date === testDay);
    expect(polish[at]?.Topic).toBe('Sprawdzian – części mowy');
    const since = polish.slice(at + 1).map((r) => r.Topic);
    const bank = TOPICS[String(POLSKI)] ?? [];
    const first = bank.indexOf(since[0] ?? '');
    expect(first).toBeGreaterThanOrEqual(0);
    expect(since).toEqual(since.map((_, i) => bank[(first + i) % bank.length]));
    // 20 school days since, less 11 November and today's Polish, given to the English teacher.
    expect(since.length).toBe(18);

    // Maths has a test in three school days and lessons held before it; one added in the past shows up.
    type Agenda = { HomeWorks: { Date: string; Subject?: { Id: number }; Category: { Id: number } }[] };
    const agenda = (await gatewayGet<Agenda>(sim, browser, 'HomeWorks')).body.HomeWorks;
    expect(agenda.find((h) => h.Subject?.Id === MATMA && h.Category.Id === 1)?.Date).toBe(addWeekdays(TODAY, 3));
    sim.account(ANIA.login).addTest({ date: addWeekdays(TODAY, -5), content: 'Sprawdzian: liczby naturalne.' });
    const maths = await ofSubject(MATMA);
    const mathsTest = maths.findIndex((r) => r.Topic === 'Sprawdzian: liczby naturalne');
    expect(maths[mathsTest]?.Date).toBe(addWeekdays(TODAY, -5));
    expect(maths.length - mathsTest - 1).toBe(5);

    // A quiz filed under a generic category is known by its word.
    const quizDay = addWeekdays(TODAY, -2);
    sim.account(ANIA.login).addRecord('HomeWorks', {
      Id: 9001,
      Content: 'Kartkówka: obieg wody.',
      Date: quizDay,
      Category: '@HomeWorks/Categories/5',
      Subject: '@Subjects/5014',
      AddDate: `${addWeekdays(TODAY, -6)} 10:00:00`,
    });
    expect((await ofSubject(5014)).find((r) => r.Date === quizDay)?.Topic).toBe('Kartkówka: obieg wody');
  });

  it('puts every absence of both demo children on a lesson held, with a topic to catch up on', async () => {
    for (const child of [ANIA, JANEK]) {
      const b = child === ANIA ? browser : await logIn(sim, child.login, child.password);
      type Marks = { Attendances: { Date: string; LessonNo: number; Type: { Id: number } }[] };
      const absences = (await gatewayGet<Marks>(sim, b, 'Attendances')).body.Attendances.filter((a) => [1, 3].includes(a.Type.Id));
      expect(absences.length).toBeGreaterThan(1);
      const held = new Map((await realizations(b)).map((r) => [`${r.Date}/${r.LessonNo}`, r.Topic]));
      for (const a of absences) expect(held.get(`${a.Date}/${a.LessonNo}`), `${child.login} ${a.Date}/${a.LessonNo}`).toBeTruthy();
    }
  });

  it('resolves every lesson that Timetables, Attendances and Realizations name through Lessons, to the same subject', async () => {
    const subjects = await subjectOfLesson();
    type Week = {
      Timetable: Record<string, { Lesson: { Id: string }; Subject: { Id: string }; IsSubstitutionClass: boolean; OrgLesson?: { Id: string } }[][]>;
    };
    const week = (await gatewayGet<Week>(sim, browser, 'Timetables?weekStart=2026-11-16')).body.Timetable;
    for (const lesson of Object.values(week).flat(2)) {
      const id = Number(lesson.OrgLesson?.Id ?? lesson.Lesson.Id);
      expect(subjects.has(id)).toBe(true);
      if (!lesson.IsSubstitutionClass) expect(String(subjects.get(id))).toBe(lesson.Subject.Id);
    }
    type Marks = { Attendances: { Lesson: { Id: number } }[] };
    const marks = (await gatewayGet<Marks>(sim, browser, 'Attendances')).body.Attendances;
    expect(marks.every((m) => subjects.has(m.Lesson.Id))).toBe(true);
    const one = await gatewayGet<{ Lesson: Lesson }>(sim, browser, 'Lessons/9090151');
    expect(one.body.Lesson).toMatchObject({ Subject: { Id: 5022 }, Teacher: { Id: 162015 } });
  });

  it('lets a test add bad records: an unknown lesson, an empty topic, a 5,000-character topic', async () => {
    const account = sim.account(ANIA.login);
    const yesterday = addWeekdays(TODAY, -1);
    account.addRealization({ Lesson: '@Lessons/999999', Date: yesterday, LessonNo: '0', Topic: 'Zajęcia dodatkowe' });
    account.addRealization({ Date: '{{weekday-1}}', LessonNo: '2', Topic: '' });
    account.addRealization({ Date: '{{weekday-2}}', LessonNo: '3', Topic: 'ą'.repeat(5000) });
    const list = await realizations();
    const on = (date: string, n: string) => list.filter((r) => r.Date === date && r.LessonNo === n);
    expect(on(yesterday, '0')).toMatchObject([{ Lesson: { Id: 999999 }, Topic: 'Zajęcia dodatkowe' }]);
    expect((await subjectOfLesson()).has(999999)).toBe(false);
    expect(on(yesterday, '2')).toMatchObject([{ Topic: '' }]);
    expect(on(addWeekdays(TODAY, -2), '3')[0]?.Topic).toHaveLength(5000);
    expect(list.length).toBe((await realizations(await logIn(sim, ANIA.login, ANIA.password))).length);
    const fresh = new PortalSimulator({ now: () => Date.parse(`${TODAY}T12:00:00+01:00`) });
    await fresh.start();
    try {
      const other = await logIn(fresh, ANIA.login, ANIA.password);
      const clean = (await gatewayGet<{ Realizations: Realization[] }>(fresh, other, 'Realizations')).body.Realizations;
      expect(list.length).toBe(clean.length + 1);
    } finally {
      await fresh.stop();
    }
  });
});
