// The name lookups every source shares (Subjects, Users, Classrooms), read once a day and again when
// a record names an id they do not know.
import type { z } from 'zod';
import { classroomsResponse, subjectsResponse, usersResponse } from '../portal/schemas/lookups.js';
import { makeNames, type Names } from '../school/names.js';
import { CADENCE, type ResourceCache } from './resources.js';
import { steady, type PlanRow } from './plan.js';
import type { SourceContext } from './source.js';

/** The lookups' rows of the fetch plan: a day, or 10 minutes once a record names an id a list lacks. */
export const LOOKUP_ROWS = lookupRows('lookups (Subjects, Users, Classrooms, the categories, types and comments of grades, attendance, agenda and notes)', {
  usual: CADENCE.daily,
  onMiss: CADENCE.onMiss,
});

/** A lookup's pair of rows: its usual age, and the shorter one while a needed id is missing. */
export function lookupRows(resource: string, ages: { usual: number; onMiss: number }): { usual: PlanRow; onMiss: PlanRow } {
  const common = { whileEmptyMs: CADENCE.whileEmpty } as const;
  return {
    usual: steady(resource, ages.usual, { ...common, note: 'with the feature that names their ids' }),
    onMiss: steady(`${resource}, naming an id they lack`, ages.onMiss, common),
  };
}

export interface NeededIds {
  subjects?: Iterable<string | undefined>;
  users?: Iterable<string | undefined>;
  classrooms?: Iterable<string | undefined>;
}

export async function names(ctx: SourceContext, needed: NeededIds = {}): Promise<Names> {
  const [subjects, users, classrooms] = await Promise.all([
    lookupList(ctx, 'Subjects', subjectsResponse, (r) => r.Subjects, needed.subjects),
    lookupList(ctx, 'Users', usersResponse, (r) => r.Users, needed.users),
    lookupList(ctx, 'Classrooms', classroomsResponse, (r) => r.Classrooms, needed.classrooms),
  ]);
  ctx.lookups.names = makeNames({ subjects, users, classrooms });
  return ctx.lookups.names;
}

/**
 * A daily lookup list; read again (at most every 10 minutes) when some needed id is not in it, so
 * that a new teacher or subject gets its name the same day. A large list has rows of its own.
 */
export async function lookupList<S extends z.ZodType, T extends { Id: string }>(
  ctx: Pick<SourceContext, 'cache'>,
  endpoint: string,
  schema: S,
  pick: (response: z.output<S>) => readonly T[],
  needed?: Iterable<string | undefined>,
  rows: { usual: PlanRow; onMiss: PlanRow } = LOOKUP_ROWS,
): Promise<readonly T[] | undefined> {
  const first = await ctx.cache.get({ endpoint, schema, row: rows.usual, staleOnError: true });
  const list = first === undefined ? undefined : pick(first);
  if (needed === undefined || !misses(needed, list)) return list;
  const again = await ctx.cache.get({ endpoint, schema, row: rows.onMiss, staleOnError: true });
  return again === undefined ? list : pick(again);
}

/** A school user the Users lookup knows (a teacher, the class tutor). */
export type LookupUser = z.output<typeof usersResponse>['Users'][number];

/**
 * One user of the Users lookup, through its rows of the table (a send's class tutor, the recipient
 * list): the day's copy, read again (at most every 10 minutes) when it lacks the id; never around it.
 */
export function userLookup(cache: ResourceCache): (id: string) => Promise<LookupUser | undefined> {
  return async (id) => (await lookupList({ cache }, 'Users', usersResponse, (r) => r.Users, [id]))?.find((u) => u.Id === id);
}

/** True when some of the ids are not in the list (a lookup that must be read again). */
export function misses(ids: Iterable<string | undefined>, list: readonly { Id: string }[] | undefined): boolean {
  const known = new Set((list ?? []).map((item) => item.Id));
  for (const id of ids) if (id !== undefined && !known.has(id)) return true;
  return false;
}
