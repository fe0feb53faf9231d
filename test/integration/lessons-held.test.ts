// Lessons held against the simulated portal and the real broker: the next test with what to revise,
// the latest topics and the lessons to catch up, with the exact states the simulator's school gives.
import { expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { simulatedSchool } from '../helpers/school.js';

const ANIA = DEMO_ACCOUNTS[0]!;
// A Wednesday in the first semester, during the second lesson (as in app.test.ts).
const NOW = '2026-11-18T09:10:00+01:00';

const school = simulatedSchool(NOW);
const firstPass = (poll?: Record<string, string>) => school.firstPasses(['catch_up', 'next_test'], poll ? { poll } : {});

it('publishes next_test, lesson_topics and catch_up from the lessons held', async () => {
  const h = await firstPass();
  // Tomorrow's nature quiz (filed under a generic category) in its lesson's hour; no earlier nature
  // test this year, so the revision list is the subject's last 20 lessons, newest first, each topic once (the
  // simulator's year comes round to some topics again: 15 topics in those 20 lessons).
  expect(h.state('ania', 'next_test')).toBe('2026-11-19T09:50:00+01:00');
  const next = h.attributes('ania', 'next_test') as {
    subject: string;
    kind: string;
    description: string;
    topics: { date: string; no: number; subject: string; topic: string }[];
  };
  expect({ ...next, topics: next.topics.slice(0, 3) }).toEqual({
    subject: 'Przyroda',
    kind: 'Inne',
    description: 'Kartkówka z trzech ostatnich tematów: krajobrazy Polski.',
    topics: [
      { date: '2026-11-18', no: 1, subject: 'Przyroda', topic: 'Krajobrazy Polski' },
      { date: '2026-11-16', no: 4, subject: 'Przyroda', topic: 'Zwierzęta lasu' },
      { date: '2026-11-13', no: 3, subject: 'Przyroda', topic: 'Las i jego warstwy' },
    ],
  });
  expect(next.topics).toHaveLength(15);
  expect(new Set(next.topics.map((t) => t.topic.toLowerCase())).size).toBe(15);
  expect(next.topics.every((t) => t.subject === 'Przyroda')).toBe(true);

  // The lesson on now (English, lesson 2) is already held; the list goes back to 2026-11-05.
  expect(h.state('ania', 'lesson_topics')).toBe('Reading: A busy morning');
  const held = (h.attributes('ania', 'lesson_topics') as { lessons: { date: string; no: number; subject: string; topic: string }[] }).lessons;
  expect(held.slice(0, 3)).toEqual([
    { date: '2026-11-18', no: 2, subject: 'Język angielski', topic: 'Reading: A busy morning' },
    { date: '2026-11-18', no: 1, subject: 'Przyroda', topic: 'Krajobrazy Polski' },
    { date: '2026-11-17', no: 6, subject: 'Zajęcia z wychowawcą', topic: 'Tolerancja i szacunek' },
  ]);
  expect(held.at(-1)).toEqual({ date: '2026-11-05', no: 2, subject: 'Język polski', topic: 'Zdanie i równoważnik zdania' });
  expect(held).toHaveLength(47);

  // Ania's six absences (absences_unexcused counts them too), each with what was taught.
  expect(h.state('ania', 'catch_up')).toBe('6');
  expect(h.attributes('ania', 'catch_up')).toEqual({
    lessons: [
      { date: '2026-11-16', no: 3, subject: 'Język angielski', topic: 'Adverbs of frequency' },
      { date: '2026-11-16', no: 2, subject: 'Matematyka', topic: 'Jednostki pola' },
      { date: '2026-11-10', no: 5, subject: 'Informatyka', topic: 'Scratch – pętle' },
      { date: '2026-11-10', no: 4, subject: 'Język angielski', topic: 'Unit 3: My day' },
      { date: '2026-11-10', no: 3, subject: 'Muzyka', topic: 'Instrumenty perkusyjne' },
      { date: '2026-11-10', no: 2, subject: 'Język polski', topic: 'Pan Tadeusz – inwokacja' },
    ],
  });
});

it('shows a lesson the Lessons list does not know, its huge topic cut to 255 characters in the state', async () => {
  const huge = 'Powtórzenie wiadomości z działu. '.repeat(160).slice(0, 5000);
  school.sim.account(ANIA.login).addRealization({ Lesson: { Id: 999_999 }, LessonNo: '3', Topic: huge });
  const h = await firstPass();
  const state = h.state('ania', 'lesson_topics') ?? '';
  expect(state).toHaveLength(255);
  expect(huge.startsWith(state.slice(0, 254))).toBe(true);
  const newest = (h.attributes('ania', 'lesson_topics') as { lessons: { date: string; no: number; subject: string | null; topic: string }[] })
    .lessons[0];
  expect(newest).toMatchObject({ date: '2026-11-18', no: 3, subject: null });
  expect(newest?.topic).toHaveLength(300);
});

it('keeps every attribute under 16 KB at the end of the school year', async () => {
  await school.reopen('2026-06-24T12:00:00+02:00');
  const h = await firstPass();
  for (const key of ['next_test', 'lesson_topics', 'catch_up']) {
    const message = h.rec.last(`${h.base}/ania/${key}/attributes`);
    expect(message, key).toBeDefined();
    expect(Buffer.byteLength(message?.text ?? ''), key).toBeLessThan(16 * 1024);
  }
  expect(h.state('ania', 'lesson_topics')).not.toBeNull();
});

it('reads Lessons again for an unknown lesson of the last 14 days, not for an old one', async () => {
  const lessons = (): number => school.sim.count({ path: '/gateway/api/2.0/Lessons' });
  school.sim.account(ANIA.login).addRealization({ Lesson: { Id: 999_998 }, Date: '2026-10-01', LessonNo: '1', Topic: 'Stara lekcja' });
  // Every tier every 20 minutes: still six passes in each two hours, each a chance to read Lessons too soon, where the
  // default 3- and 5-minute passes of the four hours were most of this test's CPU.
  const h = await firstPass({ fast_interval: '20m', school_interval: '20m' });
  const first = lessons();
  // Two hours of school-day passes: the daily list stays as read.
  await h.advanceMinutes(120);
  expect(lessons()).toBe(first);
  school.sim.account(ANIA.login).addRealization({ Lesson: { Id: 999_997 }, LessonNo: '4', Topic: 'Nowa lekcja' });
  await h.advanceMinutes(120);
  expect(lessons()).toBeGreaterThan(first);
});
