// The timetable of a kindergarten child (live-notes 33-36, interface 12.2): once the school's Timetables is
// refused the kindergarten plan's identifier is searched for; once found, the fortnight's kindergarten plan of blocks and its names
// are read instead of the school's timetable, and read as a timetable (rules/kindergarten.ts). Where the
// search stands is kept in data_dir, so that a restart neither searches again nor asks Timetables.
import { LoginFile, peekStored } from '../../util/stored.js';
import * as z from 'zod';
import { want, type Copies } from '../../engine/resource.js';
import type { ResourceCache } from '../../engine/cache.js';
import type { TimetableDays } from '../../portal/schemas/timetable.js';
import {
  KINDERGARTEN_SEARCH,
  kindergartenPlanKey,
  kindergartenPlanRange,
  searchAgainAt,
  sourceOf,
  type KindergartenPlanSearch,
  type KindergartenPlanSource,
} from '../../engine/resources/kindergarten.js';
import { USERS } from '../../engine/resources/lookups.js';
import { KINDERGARTEN_ACTIVITIES, KINDERGARTEN_GROUP, KINDERGARTEN_PLAN, KINDERGARTEN_ROOMS } from './kindergarten-resources.js';
import { TIMETABLE } from '../../engine/resources/timetable.js';
import { kindergartenDays } from '../../rules/kindergarten.js';
import { makeNames } from '../../rules/names.js';
import { timetableWeeks } from '../../rules/schooldays.js';
import type { SavedFigures } from '../../engine/figures-store.js';
import { isoWarsaw } from '../../util/time.js';

/** A child's kind of account as the portal's answers show it. */
export type AccountKind = 'school' | 'kindergarten';

/**
 * What the timetable reads for a child whose Timetables is refused (`wants`; once known, where the kindergarten plan
 * is read from, `source`, and the kindergarten plan's own want); undefined for a school child.
 */
export function kindergartenReads(copies: Copies, today: string) {
  const search = copies.peek(KINDERGARTEN_SEARCH);
  const [monday = today] = timetableWeeks(today);
  if (search === undefined && !copies.refused(TIMETABLE, monday)) return undefined;
  const source = sourceOf(search);
  if (source === undefined) return { wants: [want(KINDERGARTEN_SEARCH)] };
  const kindergartenPlan = want(KINDERGARTEN_PLAN, kindergartenPlanKey(source, monday));
  return {
    source,
    kindergartenPlan,
    wants: [
      want(KINDERGARTEN_SEARCH),
      kindergartenPlan,
      want(KINDERGARTEN_ACTIVITIES, source.host),
      want(KINDERGARTEN_ROOMS),
      want(USERS),
      want(KINDERGARTEN_GROUP, `${source.host} ${source.lid}`),
    ],
  };
}

type KindergartenReads = ReturnType<typeof kindergartenReads>;

/** A kindergarten child's group (she has it instead of a class): its name and tutors. */
export type KindergartenGroup = { name: string | null; tutor: string | null };

/** The child's group; undefined before it is read. */
export function kindergartenGroup(copies: Copies, reads: KindergartenReads): KindergartenGroup | undefined {
  const group = reads?.source === undefined ? undefined : copies.get(KINDERGARTEN_GROUP, `${reads.source.host} ${reads.source.lid}`);
  if (group === undefined) return undefined;
  const teachers = makeNames({ users: copies.get(USERS)?.Users });
  return {
    name: group.name ?? null,
    tutor:
      group.tutors
        .map((lid) => teachers.teacherByLid(lid))
        .filter(Boolean)
        .join(', ') || null,
  };
}

/** The fortnight of blocks as timetable days; undefined before the kindergarten plan's first answer. */
export function kindergartenTimetable(copies: Copies, reads: NonNullable<KindergartenReads>): TimetableDays | undefined {
  if (reads.source === undefined || reads.kindergartenPlan?.key === undefined) return undefined;
  return kindergartenBlocks(copies, reads.source, reads.kindergartenPlan.key);
}

/** The fortnight of blocks a copy of the kindergarten plan holds (`key`: kindergartenPlanKey) as timetable days; undefined while it holds none. */
export function kindergartenBlocks(copies: Copies, source: KindergartenPlanSource, key: string): TimetableDays | undefined {
  const kindergartenPlan = copies.get(KINDERGARTEN_PLAN, key);
  if (kindergartenPlan === undefined) return undefined;
  const activities = new Map((copies.get(KINDERGARTEN_ACTIVITIES, source.host)?.activitiesTypes ?? []).map((a) => [a.identifier, a.name]));
  // A room by its name ("sala 1", "ogród przedszkolny"), as a kindergarten calls it and the screens show it whole
  // (a symbol such as "O" or "1" says nothing to a parent), else its symbol.
  const rooms = new Map((copies.get(KINDERGARTEN_ROOMS)?.data ?? []).map((r) => [r.identifier, r.name ?? r.symbol]));
  const teachers = makeNames({ users: copies.get(USERS)?.Users });
  const { dateFrom, dateTo } = kindergartenPlanRange(key.split(' ')[2] ?? '');
  return kindergartenDays(
    kindergartenPlan.timetableEntries,
    {
      activity: (id) => (id === undefined ? null : (activities.get(id) ?? null)),
      room: (id) => (id === undefined ? null : (rooms.get(id) ?? null)),
      teacher: (lid) => teachers.teacherByLid(lid),
    },
    dateFrom,
    dateTo,
  );
}

/**
 * What the diagnostics say of the child's kindergarten plan (interface 12.2), as the figures keep it: a school or a
 * kindergarten (`kind`, as the account's passes tell it; a school's while not known), where its kindergarten plan comes from
 * (the place the identifier was found in, the host that answered), or where its search stands.
 */
export function kindergartenPlanFacts(copies: Pick<Copies, 'peek'>, kind: AccountKind | undefined): NonNullable<SavedFigures['plan']> {
  const search = copies.peek(KINDERGARTEN_SEARCH);
  const source = sourceOf(search);
  const account_kind = source !== undefined || kind === 'kindergarten' ? 'kindergarten' : 'school';
  if (search === undefined) return { account_kind };
  const next = { state: search.state, next: isoWarsaw(searchAgainAt(search)) };
  if (source === undefined) return { account_kind, plan_search: next };
  return {
    account_kind,
    plan_source: { identifier: source.place, host: source.host },
    ...(search.state === 'found' ? {} : { plan_search: next }),
  };
}

const stored = z.union([
  z.object({ state: z.literal('found'), at: z.number(), lid: z.string(), place: z.string(), host: z.enum(['gateway', 'api']) }),
  z.object({ state: z.literal('nothing'), at: z.number() }),
]);

/** Where the last run's search stood (found or nothing; a failed search is not kept), in data_dir. */
export class KindergartenPlanSearchStore extends LoginFile<typeof stored> {
  constructor(dataDir: string, login: string) {
    super(dataDir, 'kindergarten', login, stored);
  }

  /** The kept search, seeded into the cache as read when it was (so that it is asked again when it would have been), before the first pass. */
  async restore(cache: ResourceCache): Promise<void> {
    const kept = await peekStored(this.path, stored);
    if (kept !== undefined && cache.readAt(KINDERGARTEN_SEARCH) === undefined) cache.seed(KINDERGARTEN_SEARCH, kept, kept.at);
  }

  /** Keeps a search that found something or nothing (written only when it changed); one that failed leaves the last kept. */
  async keep(search: KindergartenPlanSearch | undefined): Promise<void> {
    if (search === undefined || search.state === 'failed') return;
    // Where it was found, not the kindergarten plan that found it (the kindergarten plan's own copy holds that).
    const { kindergartenPlan: _kindergartenPlan, ...kept } = search.state === 'found' ? search : { ...search, kindergartenPlan: undefined };
    await this.save(kept);
  }
}
