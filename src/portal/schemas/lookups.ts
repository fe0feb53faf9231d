// Lookup lists joined by the readers (spec 2.3): subjects, staff, classrooms, lessons, colours and
// the newer Auth/Subjects map from subject LIDs to ordinary subject ids.
import * as z from 'zod';
import { numericId, lenientList } from './common.js';
import { text, refId, toNumber, toText } from './fields.js';

const subject = z.looseObject({ Id: numericId, Name: text, Short: text });
export const subjectsResponse = z.looseObject({ Subjects: lenientList(subject) });

/** Teachers and staff; FirstName may be null (secretariat accounts, spec 2.1.5). */
const user = z.looseObject({
  Id: numericId,
  FirstName: text,
  LastName: text,
  AccountId: text,
});
export const usersResponse = z.looseObject({ Users: lenientList(user) });

const classroom = z.looseObject({ Id: numericId, Name: text, Symbol: text });
export const classroomsResponse = z.looseObject({ Classrooms: lenientList(classroom) });

/** The only way from an attendance's Lesson.Id to its subject and teacher. */
const lesson = z.looseObject({ Id: numericId, Subject: refId, Teacher: refId, Class: refId });
export const lessonsResponse = z.looseObject({ Lessons: lenientList(lesson) });

export interface AuthSubject {
  identifier: string;
  /** The id Subjects uses, as a string; undefined when the entry carries none. */
  numericIdentifier?: string;
  name?: string;
}

function authSubject(raw: unknown, key?: string): AuthSubject | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const o = raw as Record<string, unknown>;
  const numeric = toNumber(o.numericIdentifier);
  // In the keyed form the key is the LID; an entry with neither a number nor a name is something
  // else under the root (Resources, Url) and not a subject.
  const own = toText(o.identifier)?.trim();
  if (own === undefined && numeric === undefined && toText(o.name) === undefined) return undefined;
  const identifier = own ?? key;
  if (identifier === undefined) return undefined;
  const out: AuthSubject = { identifier };
  if (numeric !== undefined && Number.isInteger(numeric)) out.numericIdentifier = String(numeric);
  const name = toText(o.name);
  if (name !== undefined) out.name = name.trim();
  return out;
}

function fromContainer(value: unknown): AuthSubject[] {
  if (Array.isArray(value)) return value.flatMap((v) => authSubject(v) ?? []);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, v]) => authSubject(v, key) ?? []);
}

/**
 * Auth/Subjects: the spec shows an object keyed by LID, live accounts answer {data: [{identifier,
 * numericIdentifier, name, ...}]} (live-notes 1). Both read to one list; a Subjects wrapper is also
 * accepted because the spec leaves the root key open.
 */
export const authSubjectsResponse = z.record(z.string(), z.unknown()).transform((root) => {
  const inner = root.data ?? root.Subjects ?? root.subjects;
  return { subjects: inner === undefined ? fromContainer(root) : fromContainer(inner) };
});

export type Subject = z.output<typeof subject>;
export type User = z.output<typeof user>;
export type Classroom = z.output<typeof classroom>;
export type Lesson = z.output<typeof lesson>;
