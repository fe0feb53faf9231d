// Builders for the school tests: raw portal JSON goes through the real schemas, so every test also
// checks that the reader accepts what the portal sends.
import { DEFAULT_GRADE_THRESHOLDS } from '../../../src/config/schema.js';
import { listedGrades, type Grading } from '../../../src/features/grades/subject-averages.js';
import { gradeItems } from '../../../src/rules/grades.js';
import type { GradeSources } from '../../../src/rules/grades-standard.js';
import { gradeCategoriesResponse, gradesResponse, gradingSystemResponse } from '../../../src/portal/schemas/grades.js';
import { classroomsResponse, subjectsResponse, usersResponse } from '../../../src/portal/schemas/lookups.js';
import { makeNames } from '../../../src/rules/names.js';

export const subjects = subjectsResponse.parse({
  Subjects: [
    { Id: 1, Name: 'Matematyka', Short: 'mat' },
    { Id: 2, Name: 'Język polski', Short: 'pol' },
    { Id: 3, Name: 'Wychowanie fizyczne', Short: 'wf' },
    { Id: 4, Name: 'Edukacja wczesnoszkolna', Short: 'ew' },
  ],
}).Subjects;

export const users = usersResponse.parse({
  Users: [
    { Id: 10, FirstName: 'Anna', LastName: 'Nowak', AccountId: 'LID-AUTH-USER-aaaa' },
    { Id: '11', FirstName: null, LastName: 'Sekretariat' },
    { Id: 12, FirstName: 'Jan', LastName: 'Kowalski' },
  ],
}).Users;

export const classrooms = classroomsResponse.parse({
  Classrooms: [
    { Id: 100, Name: 'Sala 12', Symbol: '12' },
    { Id: 101, Name: 'Sala gimnastyczna', Symbol: '' },
  ],
}).Classrooms;

export const names = makeNames({ subjects, users, classrooms });

/** Ordinary grades from compact rows: [id, grade, subject, category?, extra fields?]. */
export function grades(rows: [number, string, number, number?, Record<string, unknown>?][]) {
  return gradesResponse.parse({
    Grades: rows.map(([Id, Grade, subject, category, extra]) => ({
      Id,
      Grade,
      Subject: { Id: subject, Url: 'x' },
      Category: category === undefined ? undefined : { Id: category },
      Semester: 1,
      Date: '2026-01-10',
      AddDate: `2026-01-10 10:00:${String(Id % 60).padStart(2, '0')}`,
      AddedBy: { Id: 10 },
      ...extra,
    })),
  }).Grades;
}

export function categories(rows: [number, string, unknown, unknown?][]) {
  return gradeCategoriesResponse.parse({
    Categories: rows.map(([Id, Name, Weight, CountToTheAverage]) => ({ Id, Name, Weight, CountToTheAverage })),
  }).Categories;
}

export const gradingSystem = (raw: unknown) => gradingSystemResponse.parse(raw);

/** The bells most school tests use: lesson number -> [from, to]. */
export const BELL: Record<number, [string, string]> = {
  1: ['08:00', '08:45'],
  2: ['08:55', '09:40'],
  3: ['09:50', '10:35'],
  4: ['10:45', '11:30'],
  5: ['11:50', '12:35'],
  6: ['12:40', '13:25'],
};

/** A builder of raw Timetables lessons (subject, teacher and room by id) at the given bells. */
export function lessonAt(bell: Record<number, [string, string]>) {
  return (no: number, subject: number, teacher: number, room: number | null, extra: Record<string, unknown> = {}) => ({
    LessonNo: String(no),
    HourFrom: bell[no]![0],
    HourTo: bell[no]![1],
    Subject: { Id: String(subject), Url: 'x' },
    Teacher: { Id: String(teacher) },
    Classroom: room === null ? null : { Id: String(room) },
    IsCanceled: false,
    IsSubstitutionClass: false,
    ...extra,
  });
}

/** What the averages are rendered with beside them: the statute's thresholds, a day, these grades listed by subject. */
export function grading(src: GradeSources, semester: 1 | 2 = 1, today = '2026-01-30'): Grading {
  return { thresholds: DEFAULT_GRADE_THRESHOLDS, today, listed: listedGrades(gradeItems(src, names), semester) };
}
