// The usual kinds of declaration: a school year of records a family hears of, a list read daily, and the
// lookups: lists that name what records refer to by id (subjects, teachers, rooms, lessons, categories,
// types, comments). A lookup is read once a day (weekly while the change feed watches: CHANGE_FEED_LOOKUP), and at
// once when a record names an id the copy lacks (a new grade's comment, a new teacher: in the same pass, before
// the record's event fires); an id still missing after that read is asked for again at most every 10 minutes.
import type { z } from 'zod';
import { classroomsResponse, lessonsResponse, subjectsResponse, usersResponse, type User as LookupUser } from '../../portal/schemas/lookups.js';
import { makeNames, type Names } from '../../rules/names.js';
import { registerResource, want, type Copies, type Resource, type Want } from '../resource.js';
import type { ResourceCache } from '../cache.js';
import { byDay, DAILY, HOUR, MINUTE, ON_MISS } from './ages.js';
import type { Freshness } from '../schedule.js';

/** A school year of records a family hears of: the change feed names it by its endpoint, and a refresh reads it. */
export function records<S extends z.ZodType>(endpoint: string, schema: S, fresh: Freshness): Resource<z.output<S>> {
  return registerResource({ endpoint, schema, yearOfRecords: true, fresh, changeFeed: true });
}

/**
 * A list read once a day, whose last good copy serves while a read fails (an id, the unit, the lookups); `signal`: what
 * else makes it due at once (the class calendar's id: the child's class).
 */
export function daily<S extends z.ZodType>(endpoint: string, schema: S, note?: string, signal?: Resource['signal']): Resource<z.output<S>> {
  return registerResource({ endpoint, schema, fresh: byDay(DAILY), keepOnError: true, note, signal });
}

/**
 * A lookup list of the register: its endpoint, schema and where its items are in the answer; its ages
 * when not the usual ones, and whether it lists a school year of records (a year's comments, lessons).
 */
export function lookupResource<S extends z.ZodType>(
  endpoint: string,
  schema: S,
  items: (value: z.output<S>) => readonly { Id: string }[],
  more: { usual?: number; onMiss?: number; yearOfRecords?: true } = {},
): Resource<z.output<S>> {
  const onMiss = more.onMiss ?? ON_MISS;
  const after = onMiss >= HOUR ? `${Math.round(onMiss / HOUR)} hours` : `${onMiss / MINUTE} minutes`;
  return registerResource({
    endpoint,
    schema,
    yearOfRecords: more.yearOfRecords,
    fresh: byDay(more.usual ?? DAILY),
    missAgeMs: onMiss,
    keepOnError: true,
    list: items,
    note: `at once when a record names an id it lacks; an id still missing after that, again once ${after} old; weekly while the change feed watches`,
  });
}

export const SUBJECTS = lookupResource('Subjects', subjectsResponse, (r) => r.Subjects);
export const USERS = lookupResource('Users', usersResponse, (r) => r.Users, { yearOfRecords: true });
export const CLASSROOMS = lookupResource('Classrooms', classroomsResponse, (r) => r.Classrooms);
export const LESSONS = lookupResource('Lessons', lessonsResponse, (r) => r.Lessons, { yearOfRecords: true });

/** The ids a record names (undefined: it names none). */
type Ids = Iterable<string | undefined>;

/** The lookup `res`, wanted with the ids of `ids` its copy lacks (all of them before its first read): it is read for them. */
export function lookup(copies: Copies, res: Resource, ids: Ids = []): Want {
  const value = copies.peek(res);
  const known = new Set(value === undefined ? [] : (res.list?.(value) as readonly { Id: string }[] | undefined)?.map((item) => item.Id));
  const missing = new Set([...ids].filter((id): id is string => id !== undefined && !known.has(id)));
  return want(res, undefined, missing.size === 0 ? {} : { missing: [...missing] });
}

/** The three name lookups, each wanted as missing when a record names an id it lacks. */
export function nameLookups(copies: Copies, needed: { subjects?: Ids; users?: Ids; classrooms?: Ids } = {}): Want[] {
  return [lookup(copies, SUBJECTS, needed.subjects), lookup(copies, USERS, needed.users), lookup(copies, CLASSROOMS, needed.classrooms)];
}

/** Names from the three name lookups' copies. */
export function namesOf(copies: Copies): Names {
  return makeNames({ subjects: copies.get(SUBJECTS)?.Subjects, users: copies.get(USERS)?.Users, classrooms: copies.get(CLASSROOMS)?.Classrooms });
}

/** One user of the Users lookup's copy (a send's class tutor, the recipient list). */
export function userOf(copies: Copies, id: string): LookupUser | undefined {
  return copies.peek(USERS)?.Users.find((u) => u.Id === id);
}

/** userOf for a command: the copy, read at once when it lacks the id (once; then at most every 10 minutes, as a pass would). */
export function userLookup(cache: ResourceCache): (id: string) => Promise<LookupUser | undefined> {
  return async (id) => {
    const w = lookup(cache, USERS, [id]);
    if (cache.due(w)) await cache.read(w).catch(() => undefined);
    return userOf(cache, id);
  };
}
