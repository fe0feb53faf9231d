// Reads the simulator's data files from fixtures/simulator/ of the package: found by walking up from
// this module, since it runs from src/simulator/, from tsc's dist/simulator/ and from the bin's
// bundle directly in dist/ (the demo).
import { existsSync, readFileSync } from 'node:fs';
import type { KindergartenFixture } from './kindergarten.js';

const ROOT = fixturesRoot(new URL('.', import.meta.url));

function fixturesRoot(from: URL): URL {
  for (let dir = from; ; dir = new URL('..', dir)) {
    const candidate = new URL('fixtures/simulator/', dir);
    if (existsSync(candidate)) return candidate;
    if (new URL('..', dir).href === dir.href) throw new Error(`simulator: no fixtures/simulator/ above ${from.pathname}`);
  }
}
const cache = new Map<string, unknown>();

/** A fresh deep copy of fixtures/simulator/<name>.json, so every account can change its own world. */
export function loadFixture<T>(name: string): T {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`simulator: bad fixture name "${name}"`);
  let data = cache.get(name);
  if (data === undefined) {
    data = JSON.parse(readFileSync(new URL(`${name}.json`, ROOT), 'utf8')) as unknown;
    cache.set(name, data);
  }
  return structuredClone(data) as T;
}

/** Compact reference in a fixture, "@Kind/id"; see expand.ts. */
export type Ref = string;

export interface SchoolFixture {
  school: Record<string, unknown>;
  /** The school's unit (Units), without LessonsRange, which comes from bells. */
  unit: Record<string, unknown>;
  /** Auth/TokenInfo SchoolId. */
  schoolId: number;
  /** Bell schedule: [HourFrom, HourTo] per lesson number, index = LessonNo. */
  bells: [string, string][];
  classes: { Id: number; Number: number; Symbol: string; ClassTutor: number; Unit: number }[];
  users: Record<string, unknown>[];
  classrooms: { Id: number; Name: string; Symbol: string }[];
  /** Realization topics per subject id, used in turn. */
  topics: Record<string, string[]>;
  schoolFreeDays: { Id: number; Name: string; DateFrom: string; DateTo: string; AddDate: string }[];
  classFreeDays: FreeDayFixture[];
  notices: NoticeFixture[];
  /** Static gateway bodies shared by the school's accounts: endpoint -> body. */
  resources: Record<string, unknown>;
}

export interface FreeDayFixture {
  Id: number;
  Class: number;
  Type: number;
  DateFrom: string;
  DateTo: string;
  LessonNoFrom?: string;
  LessonNoTo?: string;
  AddDate: string;
}

export interface NoticeFixture {
  Id: string;
  Subject: string;
  Content: string;
  StartDate: string;
  EndDate: string;
  CreationDate: string;
  WasRead: boolean;
  AddedBy?: Ref;
}

export interface ChildFixture {
  account: {
    login: string;
    password: string;
    /** Me.Account.Id: the parent's login account. */
    accountId: number;
    /** Me.Account.UserId and Users/{id}: the student. */
    userId: number;
    parent: { firstName: string; lastName: string; email: string };
    child: { firstName: string; lastName: string; gender: 'F' | 'M' };
    classId: number;
    registerNumber: number;
  };
  /** Lesson id -> subject and teacher (the class is the child's). */
  lessons: Record<string, { subject: number; teacher: number }>;
  /** ISO weekday (1-5) -> slots indexed by LessonNo; each slot lists "lessonId@classroomId". */
  week: Record<string, string[][]>;
  /** Plan changes; Org* details come from the plan. */
  changes: ChangeFixture[];
  /** Extra classes (live-notes 42-44) by ISO weekday, on every school day; `cancelled` lists the dates (tokens) they are off. */
  extraClasses?: ExtraClassFixture[];
  /** Attendance records that replace the generated presence marks. */
  attendance: { Id: number | string; Date: string; LessonNo: number; Type: number; AddedBy?: number }[];
  /** Items of the newer partial grading (POST .../PartialGrades/Student/<lid>). */
  partialGrades: Record<string, unknown>[];
  resources: Record<string, unknown>;
  /** A kindergarten child: its group, activities, rooms and weekly kindergarten plan (kindergarten.ts). */
  kindergarten?: KindergartenFixture;
}

export interface ExtraClassFixture {
  weekday: number;
  startTime: string;
  endTime: string;
  title: string;
  /** A Users id: teacherName is its surname, then its first name. */
  teacher: number;
  classroom: { name?: string; symbol?: string };
  cancelled?: string[];
}

export interface ChangeFixture {
  Id: number;
  kind: 'cancelled' | 'substitution';
  OrgDate: string;
  OrgLessonNo: number;
  /** The lesson (`lessons` key) of a slot split into groups the change is to; default: the slot's first. */
  OrgLesson?: number;
  /** Replacement teacher and subject; default: the original ones (a room change). */
  Teacher?: number;
  Subject?: number;
  /** Replacement classroom; null leaves the substitution without a room, as the portal often does. */
  Classroom?: number | null;
  AddDate: string;
}
