// The declared coordinator over a day of both demo children: the coordinator reads what their features
// say they read, when each declaration says (nothing for its age alone at night), a new test and a new
// message reach Home Assistant at the next look, and the requests of the day, resource by resource, are
// exactly these. A second feature reading a list another already reads shares its copy and its schedule:
// the list is read as often as with one reader.
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/simulator/index.js';
import { FEATURES } from '../../src/features/index.js';
import { feature } from '../../src/features/feature.js';
import { want } from '../../src/engine/resource.js';
import { sensor } from '../../src/features/kit/entities.js';
import { RESOURCES } from '../../src/features/resources.js';
import { CONFERENCES } from '../../src/features/agenda/resources.js';
import { simulatedSchool } from '../helpers/school.js';
import type { SimRequest } from '../../src/simulator/types.js';

const [ANIA, JANEK] = [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[1]!];
// A Wednesday in the first semester, during the second lesson.
const school = simulatedSchool('2026-11-18T09:10:00+01:00');

/** The declaration a request reads, by its endpoint; undefined for the session's own requests and writes. */
function resourceOf(r: SimRequest): string | undefined {
  const gateway = /^\/gateway\/api\/2\.0\/(.+)$/.exec(r.path)?.[1] ?? (r.path === '/informacja' && r.host === 'portal' ? r.path : undefined);
  const endpoint =
    r.host === 'portal'
      ? gateway
      : r.host === 'messages' && r.method === 'GET' && r.path.startsWith('/api/') && r.path !== '/api/me'
        ? r.path
        : undefined;
  if (endpoint === undefined) return undefined;
  // The change feed's registration: refused on the register road, tried again once a day.
  if (endpoint === 'ChangeRegister') return 'ChangeRegister';
  // An endpoint declared as it is (Calendars/Substitutions) before one a key stands in (Calendars/<id>).
  const pattern = (e: string) => new RegExp(`^${e.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/<[a-z]+>/g, '[^/]+')}$`);
  const match =
    RESOURCES.find((res) => res.endpoints.includes(endpoint)) ?? RESOURCES.find((res) => res.endpoints.some((e) => pattern(e).test(endpoint)));
  return match?.name ?? `undeclared ${endpoint}`;
}

/** The requests of a child's login, by resource. */
function perResource(login: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of school.sim.requests) {
    const res = r.login === login ? resourceOf(r) : undefined;
    if (res !== undefined) counts[res] = (counts[res] ?? 0) + 1;
  }
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * Ania's day (a Wednesday from the second lesson, and its night): her ordinary, point and text grades,
 * the announcements and the class calendar's ids at the news age in lessons and at `interval` by day;
 * the counters every 3 minutes from 06:00 to 22:00; the inbox's list four-hourly by day; trips and
 * justifications morning and evening; the lookups at the start and again a day on (the extra classes at the
 * pass after it and a day on); nothing at night. The change feed is refused on this road: its
 * registration is tried at the start's first pass (before the lists it would cover), and again a day
 * later. The day counted runs to the pass a day on, which also reads what a day ago read (the lookups,
 * the child), and what is read twice a day (trips, justifications) a third time: each is met on the
 * second it falls due.
 */
const ANIA_DAY = {
  Attendances: 48,
  'Attendances/Types': 2,
  'Auth/TokenInfo': 2,
  'Auth/UserInfo/<lid>': 2,
  BaseTextGrades: 97,
  'BehaviourGrades/Points': 4,
  Calendars: 2,
  'Calendars/<id>': 97,
  'Calendars/ClassFreeDays/Types': 2,
  'Calendars/Substitutions': 7,
  ChangeRegister: 2,
  ClassFreeDays: 2,
  Classrooms: 2,
  DescriptiveGrades: 4,
  EbiblioLendings: 2,
  Grades: 97,
  'Grades/Averages': 2,
  'Grades/Categories': 2,
  'Grades/Comments': 2,
  GradingSystem: 2,
  HomeWorkAssignments: 48,
  HomeWorks: 18,
  'HomeWorks/Categories': 2,
  Justifications: 3,
  Lessons: 2,
  LuckyNumbers: 11,
  'messaging <mailbox>/messages': 5,
  'messaging inbox/messages': 5,
  'messaging inbox/unreadMessagesCount': 325,
  'messaging outbox/messages': 3,
  'messaging outbox/messages/<id>': 1,
  Notes: 17,
  'Notes/Categories': 2,
  ParentTeacherConferences: 2,
  'partial grades (POST)': 4,
  PointGrades: 97,
  'PointGrades/Categories': 2,
  'PointGrades/Comments': 2,
  Realizations: 4,
  SchoolFiles: 2,
  SchoolFreeDays: 2,
  SchoolNotices: 97,
  SchoolTrips: 3,
  Subjects: 2,
  'TextGrades/Categories': 2,
  "the child's identity (Me, Users/<id>, Classes, Schools)": 8,
  // The standing weekly plan, read once a week (never in a start's first pass): its differences, interface 18.2.
  TimetableEntries: 1,
  Timetables: 9,
  'Timetables/OtherActivitiesRegister': 2,
  Units: 2,
  Users: 2,
};
/** Janek's: the first-grader's descriptive grades (the newer grading's partial grades) are his news instead. */
const JANEK_DAY = {
  Attendances: 48,
  'Attendances/Types': 2,
  'Auth/Subjects': 2,
  'Auth/TokenInfo': 2,
  'Auth/UserInfo/<lid>': 2,
  BaseTextGrades: 4,
  'BehaviourGrades/Points': 4,
  Calendars: 2,
  'Calendars/<id>': 89,
  'Calendars/ClassFreeDays/Types': 2,
  'Calendars/Substitutions': 7,
  ChangeRegister: 2,
  ClassFreeDays: 2,
  Classrooms: 2,
  DescriptiveGrades: 89,
  'DescriptiveGrades/Comments': 2,
  'DescriptiveGrades/Skills': 1,
  EbiblioLendings: 2,
  Grades: 89,
  'Grades/Averages': 2,
  'Grades/Categories': 2,
  GradingSystem: 2,
  HomeWorkAssignments: 48,
  HomeWorks: 17,
  'HomeWorks/Categories': 2,
  Justifications: 3,
  Lessons: 2,
  LuckyNumbers: 11,
  'messaging <mailbox>/messages': 7,
  'messaging inbox/messages': 5,
  'messaging inbox/unreadMessagesCount': 325,
  'messaging outbox/messages': 3,
  Notes: 17,
  'Notes/Categories': 2,
  ParentTeacherConferences: 2,
  'partial grades (POST)': 89,
  PointGrades: 4,
  Realizations: 3,
  SchoolFiles: 2,
  SchoolFreeDays: 2,
  SchoolNotices: 89,
  SchoolTrips: 3,
  Subjects: 2,
  "the child's identity (Me, Users/<id>, Classes, Schools)": 8,
  // The standing weekly plan, read once a week (never in a start's first pass): its differences, interface 18.2.
  TimetableEntries: 1,
  Timetables: 9,
  'Timetables/OtherActivitiesRegister': 2,
  Units: 2,
  Users: 2,
};

describe('the coordinator', () => {
  it('reads a day of both children resource by resource as declared, and brings the news at the next look', async () => {
    const h = await school.start({ accounts: [ANIA, JANEK].map((c) => ({ login: c.login, password: c.password })) });
    await h.runUntil(() => ['ania', 'jan'].every((c) => h.state(c, 'newest_grade') !== undefined), 'the first passes');
    const tests = Number(h.state('ania', 'upcoming_tests'));
    const unread = Number(h.state('jan', 'unread_messages'));
    await h.advanceMinutes(60);
    school.sim.account(ANIA.login).addTest({ date: '2026-11-20', content: 'Sprawdzian: ułamki.' });
    school.sim.messaging.addMessage(JANEK.login, { topic: 'Informacja od wychowawcy', body: 'Proszę o kontakt.', from: 162001 });
    await h.advanceMinutes(5);
    expect(Number(h.state('ania', 'upcoming_tests'))).toBe(tests + 1);
    expect(Number(h.state('jan', 'unread_messages'))).toBe(unread + 1);
    await h.advanceMinutes(24 * 60 - 65);
    // The day's requests, start included: each resource as its declaration and the children's own lists say.
    expect(perResource(ANIA.login)).toEqual(ANIA_DAY);
    expect(perResource(JANEK.login)).toEqual(JANEK_DAY);
  }, 180_000);

  it('reads a list two features read as often as one would: one declaration, one copy, one schedule', async () => {
    const meetings = (): number => school.sim.count({ path: '/gateway/api/2.0/ParentTeacherConferences' });
    // A sensor for the next parent-teacher meeting, built on the list the agenda reads, as a newcomer would.
    const seen: number[] = [];
    const nextMeeting = feature({
      name: 'next-meeting',
      reads: () => [want(CONFERENCES)],
      entities: [sensor('next_meeting', { en: 'Next meeting', pl: 'Najbliższe zebranie', uk: 'Найближчі збори' })],
      create: () => ({
        compute: (ctx) => {
          seen.push(ctx.cache.get(CONFERENCES)?.ParentTeacherConferences.length ?? -1);
          return Promise.resolve({});
        },
      }),
    });
    // Both runs pass every tier every 20 minutes: the two are compared with each other, and the default 3- and
    // 5-minute passes of their 12 hours were most of this test's CPU.
    const poll = { fast_interval: '20m', school_interval: '20m' };
    const sixHours = async (features: typeof FEATURES): Promise<number> => {
      const h = await school.start({ accounts: [{ login: ANIA.login, password: ANIA.password }], features, poll });
      await h.runUntil(() => h.state('ania', 'newest_grade') !== undefined, 'the first passes');
      await h.advanceMinutes(6 * 60);
      return meetings();
    };
    const alone = await sixHours(FEATURES);
    await school.reopen('2026-11-18T09:10:00+01:00');
    const shared = await sixHours([...FEATURES, nextMeeting]);
    expect(alone).toBeGreaterThan(0);
    expect(shared).toBe(alone);
    // The second reader computed from the shared copy, once for each read of it.
    expect(seen).toHaveLength(alone);
    expect(seen.every((n) => n >= 0)).toBe(true);
  }, 120_000);
});
