// An unknown value is said as unknown, never as 0 and never as an empty list that reads "none" (interface 17.1): every
// read tool, in pl, en and uk, first with nothing known at all (before any pass), then with an unknown planted in each
// fact a tool tells beside what is known (a subject whose average cannot be made, as Muzyka with descriptive grades
// only; the attendance share of a semester without marks; the lucky number of a day not drawn yet; a sent message
// whose reading is not known; a test with no topic recorded). Before, `Number(null)` told a parent "średnia: 0".
import { describe, expect, it } from 'vitest';
import { factsServer, toolAnswer } from '../../../helpers/mcp-tools.js';
import type { Language } from '../../../../src/config/language.js';
import type { GradesAsk } from '../../../../src/features/grades/ask.js';
import type { AttendanceAsk } from '../../../../src/features/attendance/ask.js';
import type { LuckyAsk } from '../../../../src/features/lucky/ask.js';
import type { SentAsk } from '../../../../src/features/sent-message/ask.js';
import type { LessonsHeldAsk } from '../../../../src/features/lessons-held/ask.js';
import type { SchoolAsk } from '../../../../src/features/school-year/ask.js';
import type { StreaksAsk } from '../../../../src/features/streaks/ask.js';
import { timetableAsk, type TimetableAsk } from '../../../../src/features/timetable/ask.js';
import type { GradeItem } from '../../../../src/rules/grade-item.js';

const READ_TOOLS = ['get_day', 'get_grades', 'get_upcoming', 'get_lesson_topics', 'get_attendance', 'get_behaviour', 'get_school', 'get_messages'];
const LANGUAGES: Language[] = ['pl', 'en', 'uk'];

/** "none" in each language, as a word; a 0 that is a count or an average (not a digit of a date, a time or an id). */
const NONE = /(^|[^\p{L}])(none|brak|немає)([^\p{L}]|$)/iu;
const ZERO = /(^|[^\d.,:/–-])0(?![\d.,:])/;

const server = factsServer;
const text = toolAnswer;

const grade = (over: Partial<GradeItem>): GradeItem => ({
  key: 'descriptive:1',
  kind: 'descriptive',
  shown: 'Pięknie śpiewa',
  subject: 'Muzyka',
  category: null,
  weight: null,
  teacher: null,
  date: null,
  added: null,
  comment: null,
  semester: 1,
  details: {},
  ...over,
});

/** Known facts with an unknown planted in every fact a tool tells of them. */
const PLANTED = {
  grades: {
    items: [grade({}), grade({ key: 'text:2', kind: 'text', shown: 'Aktywnie uczestniczy', subject: 'Plastyka', details: { improves: 'grade:99' } })],
    terms: [{ key: 'grade:3', subjectId: '5', subject: 'Muzyka', period: 'semester_proposal', grade: '5', date: null, teacher: null }],
    averaged: {
      state: null,
      attributes: {
        semester: 1,
        subjects: [
          { subject: 'Muzyka', average: null, count: 0 },
          { subject: 'Plastyka', average: null, count: 0 },
        ],
      },
    } as unknown as GradesAsk['averaged'],
    semester: 1,
    absent: false,
  } satisfies GradesAsk,
  attendance: {
    semester: {
      semester: 1,
      unexcused: [{ date: null, lessonNo: null, subject: null }],
      // Counts are known whenever the marks are (none of them can be unknown alone).
      excused: 1,
      late: 2,
      absences: 2,
      marks: 3,
      attendancePercent: null,
      justifications: { count: 0, byStatus: {}, latest: [] },
      bySubject: [{ subject: null, lessons: 1, present: 0, absent: 1, late: 0, excused: 0, percent: null }],
    },
    justificationsKnown: false,
    absent: false,
  } as unknown as AttendanceAsk,
  lucky: { inUse: true, number: null, day: '2026-11-19', registerNumber: null, mine: false, mineToday: false } satisfies LuckyAsk,
  'sent-message': {
    sent: [{ id: '1', topic: 'Nieobecność', to: [], date: null, receivers: [], readByAll: false }],
    absent: false,
  } satisfies SentAsk,
  lessons_held: {
    recent: [{ date: '2026-11-17', no: null, subject: null, topic: null }],
    missed: [{ date: '2026-11-16', no: null, subject: null, topic: null }],
    revise: [
      {
        test: { key: 't', kind: 'test', date: '2026-11-20', until: null, time: null, subject: null, category: null, content: null, teacher: null },
        topics: [],
      },
    ],
    held: null,
    absent: false,
    attendanceAbsent: false,
  } as unknown as LessonsHeldAsk,
  'school-year': { identity: {}, tutor: null, year: undefined, group: undefined } satisfies SchoolAsk,
  streaks: { daysWithoutNegativeNote: null, absent: false } satisfies StreaksAsk,
  // Nothing known of the timetable: what the feature itself holds before its first read.
  timetable: timetableAsk.unknown satisfies TimetableAsk,
};

describe('an unknown fact', () => {
  for (const language of LANGUAGES) {
    it(`is said as unknown by every read tool before anything is known, never as 0 or none (${language})`, async () => {
      const s = server(language, {});
      for (const tool of READ_TOOLS) {
        const answer = await text(s, tool);
        expect(answer.isError, `${tool}: ${answer.text}`).toBe(false);
        expect(answer.text, tool).not.toMatch(NONE);
        expect(answer.text, tool).not.toMatch(ZERO);
        // Something is said to be unknown: the answer is not silent about what it lacks.
        expect(answer.text.split('\n').length, tool).toBeGreaterThan(1);
      }
    });

    it(`planted beside known facts is said as unknown, never as 0 or none (${language})`, async () => {
      const s = server(language, PLANTED);
      for (const tool of READ_TOOLS) {
        const answer = await text(s, tool, tool === 'get_upcoming' ? { days: 7 } : {});
        expect(answer.isError, `${tool}: ${answer.text}`).toBe(false);
        expect(answer.text, tool).not.toMatch(NONE);
        expect(answer.text, tool).not.toMatch(ZERO);
      }
      const grades = await text(s, 'get_grades', { subject: 'muz' });
      expect(grades.text).not.toMatch(ZERO);
      expect(grades.text).not.toMatch(NONE);
    });
  }

  it('reads as unknown in the family\'s words: "średnia: jeszcze nie wiadomo" for Muzyka, never "średnia: 0"', async () => {
    const grades = await text(server('pl', PLANTED), 'get_grades');
    expect(grades.text).toContain('Muzyka: średnia: jeszcze nie wiadomo');
    expect(grades.text).toContain('Średnia ze wszystkich przedmiotów: jeszcze nie wiadomo');
    expect(grades.text).toContain('Pięknie śpiewa [ocena opisowa]');
    expect((await text(server('en', PLANTED), 'get_attendance')).text).toContain('present: not known yet');
    expect((await text(server('uk', PLANTED), 'get_school')).text).toContain('Щасливий номер на завтра (2026-11-19): ще невідомо');
  });
});
