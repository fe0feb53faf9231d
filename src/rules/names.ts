// Names from the lookup lists: subjects, teachers ("FirstName LastName", FirstName may be null) and
// rooms (Symbol, else Name). Inline names on a reference are the fallback when a lookup is missing.
import type { Classroom, Subject, User } from '../portal/schemas/lookups.js';
import type { NamedRef } from '../portal/schemas/fields.js';

export interface Lookups {
  subjects?: readonly Subject[];
  users?: readonly User[];
  classrooms?: readonly Classroom[];
}

export interface Names {
  subject(id: string | undefined, inline?: NamedRef): string | null;
  teacher(id: string | undefined, inline?: NamedRef): string | null;
  /** A teacher by the LID of their account (the newer Auth/* endpoints use LIDs). */
  teacherByLid(lid: string | undefined): string | null;
  room(id: string | undefined, inline?: NamedRef): string | null;
}

/** "FirstName LastName" of the parts given (blank ones left out); null when none is left. */
export function fullName(first: string | undefined, last: string | undefined): string | null {
  const name = [first?.trim(), last?.trim()].filter(Boolean).join(' ');
  return name === '' ? null : name;
}

export function makeNames(lookups: Lookups = {}): Names {
  const subjects = new Map((lookups.subjects ?? []).map((s) => [s.Id, s.Name?.trim() ?? s.Short?.trim()]));
  const users = new Map((lookups.users ?? []).map((u) => [u.Id, fullName(u.FirstName, u.LastName)]));
  const byLid = new Map((lookups.users ?? []).filter((u) => u.AccountId !== undefined).map((u) => [u.AccountId!.trim(), u.Id]));
  const rooms = new Map((lookups.classrooms ?? []).map((c) => [c.Id, c.Symbol?.trim() ?? c.Name?.trim()]));
  const teacher = (id: string | undefined, inline?: NamedRef): string | null =>
    (id === undefined ? undefined : users.get(id)) ?? fullName(inline?.firstName, inline?.lastName);
  return {
    subject: (id, inline) => (id === undefined ? undefined : subjects.get(id)) ?? inline?.name ?? inline?.short ?? null,
    teacher,
    teacherByLid: (lid) => (lid === undefined ? null : teacher(byLid.get(lid.trim()))),
    room: (id, inline) => (id === undefined ? undefined : rooms.get(id)) ?? inline?.symbol ?? inline?.name ?? null,
  };
}
