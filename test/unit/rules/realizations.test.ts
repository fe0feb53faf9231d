import { describe, expect, it } from 'vitest';
import { realizationsResponse } from '../../../src/portal/schemas/realizations.js';
import { lessonsResponse } from '../../../src/portal/schemas/lookups.js';
import { timetablesResponse } from '../../../src/portal/schemas/timetable.js';
import { catchUp, lessonsHeld, nextTest, recentLessons, testHour } from '../../../src/rules/realizations.js';
import type { AgendaItem } from '../../../src/rules/agenda.js';
import { renderCatchUp, renderLessonTopics, renderNextTest } from '../../../src/features/lessons-held/lessons-held.js';
import { names } from './fixtures.js';

const lessons = lessonsResponse.parse({
  Lessons: [
    { Id: 501, Subject: { Id: 1 }, Teacher: { Id: 10 } },
    { Id: 502, Subject: { Id: 2 }, Teacher: { Id: 12 } },
  ],
}).Lessons;

const real = (Date: string, LessonNo: number, Lesson: number, Topic: unknown) => ({
  Id: `t${Date}${LessonNo}`,
  Date,
  LessonNo,
  Lesson: { Id: Lesson },
  Topic,
});

const held = (records: Record<string, unknown>[]) =>
  lessonsHeld({ realizations: realizationsResponse.parse({ Realizations: records }).Realizations, lessons, names });

const test = (date: string, subject: string, time: string | null = null): AgendaItem => ({
  key: `agenda:${date}${subject}`,
  kind: 'test',
  date,
  until: null,
  time,
  time_to: null,
  subject,
  category: 'Sprawdzian',
  content: `Sprawdzian ${date}`,
  teacher: null,
});

describe('lessons held', () => {
  it('joins each lesson with its subject, newest first', () => {
    expect(
      held([real('2026-11-16', 1, 501, 'Ułamki'), real('2026-11-17', 2, 502, 'Mickiewicz'), real('2026-11-17', 1, 501, 'Ułamki dziesiętne')]),
    ).toEqual([
      { date: '2026-11-17', no: 2, subject: 'Język polski', topic: 'Mickiewicz' },
      { date: '2026-11-17', no: 1, subject: 'Matematyka', topic: 'Ułamki dziesiętne' },
      { date: '2026-11-16', no: 1, subject: 'Matematyka', topic: 'Ułamki' },
    ]);
  });

  it('keeps a lesson whose Lessons entry is unknown, without a subject', () => {
    const list = held([real('2026-11-17', 3, 999, 'Temat z zastępstwa')]);
    expect(list).toEqual([{ date: '2026-11-17', no: 3, subject: null, topic: 'Temat z zastępstwa' }]);
    expect(renderLessonTopics(recentLessons(list, '2026-11-18')).state).toBe('Temat z zastępstwa');
  });

  it('reads an empty or blank topic as none: lesson_topics is unknown, the lesson still listed', () => {
    const list = held([real('2026-11-17', 1, 501, '  '), real('2026-11-16', 1, 501, '')]);
    expect(list.map((l) => l.topic)).toEqual([null, null]);
    const state = renderLessonTopics(recentLessons(list, '2026-11-18'));
    expect(state.state).toBeNull();
    expect(state.attributes?.lessons).toHaveLength(2);
  });

  it('cuts a 5,000-character topic to 255 in the state and 300 in the lists', () => {
    const huge = 'Powtórzenie '.repeat(420).slice(0, 5000);
    const list = held([real('2026-11-17', 1, 501, huge)]);
    const topics = renderLessonTopics(recentLessons(list, '2026-11-18'));
    expect(topics.state).toHaveLength(255);
    expect(topics.state?.endsWith('…')).toBe(true);
    const listed = (topics.attributes!.lessons as { topic: string }[])[0]!.topic;
    expect(listed).toHaveLength(300);
    const next = renderNextTest(nextTest([test('2026-11-20', 'Matematyka')], list, { date: '2026-11-18', time: '09:10' }));
    expect((next.attributes!.topics as { topic: string }[])[0]!.topic).toHaveLength(300);
    const missed = renderCatchUp(catchUp([{ date: '2026-11-17', lessonNo: 1, subject: 'Matematyka' }], list, '2026-11-18'));
    expect((missed.attributes!.lessons as { topic: string }[])[0]!.topic).toHaveLength(300);
  });

  it('lists the last 14 days only', () => {
    const list = held([real('2026-11-18', 1, 501, 'a'), real('2026-11-05', 1, 501, 'b'), real('2026-11-04', 1, 501, 'c')]);
    expect(recentLessons(list, '2026-11-18').map((l) => l.topic)).toEqual(['a', 'b']);
  });
});

describe('next test', () => {
  const list = held([
    real('2026-11-02', 1, 501, 'Dodawanie'),
    real('2026-11-04', 1, 501, 'Sprawdzian z dodawania'),
    real('2026-11-09', 1, 501, 'Odejmowanie'),
    real('2026-11-10', 1, 502, 'Lektura'),
    real('2026-11-16', 1, 501, 'Mnożenie'),
    real('2026-11-18', 1, 501, 'Dzielenie'),
  ]);

  it('is the nearest test ahead, with its subject topics since the previous test of that subject', () => {
    const next = nextTest([test('2026-11-04', 'Matematyka'), test('2026-11-25', 'Matematyka'), test('2026-11-20', 'Matematyka', '09:00')], list, {
      date: '2026-11-18',
      time: '09:10',
    });
    const state = renderNextTest(next);
    expect(state.state).toBe('2026-11-20T09:00:00+01:00');
    expect(state.attributes).toEqual({
      subject: 'Matematyka',
      kind: 'Sprawdzian',
      description: 'Sprawdzian 2026-11-20',
      topics: [
        { date: '2026-11-18', no: 1, subject: 'Matematyka', topic: 'Dzielenie' },
        { date: '2026-11-16', no: 1, subject: 'Matematyka', topic: 'Mnożenie' },
        { date: '2026-11-09', no: 1, subject: 'Matematyka', topic: 'Odejmowanie' },
      ],
    });
  });

  it('finds the previous test in a lesson whose topic names it when the agenda no longer lists it', () => {
    const next = nextTest([test('2026-11-20', 'Matematyka')], list, { date: '2026-11-18', time: '09:10' });
    expect(next?.topics.map((t) => t.topic)).toEqual(['Dzielenie', 'Mnożenie', 'Odejmowanie']);
  });

  it('takes a quiz for a test: as the next one, and in a lesson whose topic names a kartkówka', () => {
    const quizzes = held([
      real('2026-11-09', 1, 501, 'Odejmowanie'),
      real('2026-11-11', 1, 501, 'Kartkówka z odejmowania'),
      real('2026-11-16', 1, 501, 'Mnożenie'),
    ]);
    const next = nextTest([{ ...test('2026-11-20', 'Matematyka'), kind: 'quiz' }], quizzes, { date: '2026-11-18', time: '09:10' });
    expect(next?.test.date).toBe('2026-11-20');
    expect(next?.topics.map((t) => t.topic)).toEqual(['Mnożenie']);
  });

  it('skips a test earlier today; a test without an hour starts at midnight', () => {
    const next = nextTest([test('2026-11-18', 'Matematyka', '08:00'), test('2026-11-19', 'Język polski')], list, {
      date: '2026-11-18',
      time: '09:10',
    });
    expect(renderNextTest(next).state).toBe('2026-11-19T00:00:00+01:00');
    expect(next?.topics.map((t) => t.topic)).toEqual(['Lektura']);
  });

  it('is unknown with no test ahead', () => {
    expect(renderNextTest(nextTest([test('2026-11-04', 'Matematyka')], list, { date: '2026-11-18', time: '09:10' }))).toEqual({
      state: null,
      attributes: { subject: null, kind: null, description: null, topics: [] },
    });
  });
});

describe('catch up', () => {
  it('gives each absence of the last 14 days the topic taught in its slot', () => {
    const list = held([real('2026-11-17', 2, 502, 'Mickiewicz'), real('2026-11-17', 3, 999, 'Bez lekcji')]);
    const missed = catchUp(
      [
        { date: '2026-11-17', lessonNo: 2, subject: 'Język polski' },
        { date: '2026-11-17', lessonNo: 3, subject: null },
        { date: '2026-11-16', lessonNo: 1, subject: 'Matematyka' },
        { date: '2026-10-01', lessonNo: 1, subject: 'Matematyka' },
        { date: null, lessonNo: 1, subject: 'Matematyka' },
      ],
      list,
      '2026-11-18',
    );
    expect(renderCatchUp(missed)).toEqual({
      state: '3',
      attributes: {
        lessons: [
          { date: '2026-11-17', no: 3, subject: null, topic: 'Bez lekcji' },
          { date: '2026-11-17', no: 2, subject: 'Język polski', topic: 'Mickiewicz' },
          { date: '2026-11-16', no: 1, subject: 'Matematyka', topic: null },
        ],
      },
    });
  });
});

describe('a test hour', () => {
  const days = timetablesResponse.parse({
    Timetable: {
      '2026-11-20': [
        [{ LessonNo: 1, HourFrom: '08:00', Subject: { Id: 2, Name: 'Język polski' } }],
        [{ LessonNo: 2, HourFrom: '08:55', Subject: { Id: 1, Name: 'Matematyka' }, IsCanceled: true }],
        [{ LessonNo: 3, HourFrom: '09:50', Subject: { Id: 1, Name: 'Matematyka' } }],
      ],
    },
  }).Timetable;
  const subjectOf = (l: { Subject?: { name?: string } }) => l.Subject?.name ?? null;

  it("is the agenda's when it gives one", () => {
    expect(testHour(test('2026-11-20', 'Matematyka', '12:00'), days, subjectOf)).toBe('12:00');
  });

  it("is else the first lesson of the subject held that day, and so the state's time", () => {
    const t = test('2026-11-20', 'Matematyka');
    expect(testHour(t, days, subjectOf)).toBe('09:50');
    expect(renderNextTest({ test: t, topics: [] }, testHour(t, days, subjectOf)).state).toBe('2026-11-20T09:50:00+01:00');
  });

  it('is none when the timetable has no lesson of the subject', () => {
    expect(testHour(test('2026-11-20', 'Historia'), days, subjectOf)).toBeNull();
    expect(testHour(test('2026-11-27', 'Matematyka'), undefined, subjectOf)).toBeNull();
  });
});
