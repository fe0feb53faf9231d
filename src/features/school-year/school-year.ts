// The school year feature: one `school_year` event when the portal shows the child in a new school year
// (its identity's BeginSchoolYear moves on), with the new class, its tutor and the year's dates. The
// event gate adds what the rollover took away and brought (store/rollover.ts), which it keeps quiet.
// Its candidate's id is the year's first day, so the seen memory fires it once per year, across restarts
// too, and never at a bridge's first read (a new install is not a new year).
import { lookup, USERS, userOf } from '../../resources/lookups.js';
import { eventEntity } from '../../feature-kit/entities.js';
import { shape } from '../../feature-kit/contract.js';
import { feature } from '../feature.js';
import type { RolloverSummary } from '../../store/rollover.js';
import type { Identity } from '../../feature-kit/identity.js';
import type { NewItem } from '../../store/seen.js';
import type { Source, SourceContext, SourceResult } from '../../feature-kit/source.js';

/** What the child's identity says of the new year. */
export type SchoolYearFacts = {
  class: string | null;
  /** The class tutor's name, as the Users lookup gives it. */
  tutor: string | null;
  begins: string;
  first_semester_ends: string | null;
  ends: string | null;
};

/** What a `school_year` event carries: the year's facts and the rollover's counts (added by the event gate). */
export type SchoolYearPayload = SchoolYearFacts & { summary: RolloverSummary };

export const schoolYearEvent = eventEntity(
  'school_year',
  { en: 'New school year', pl: 'Nowy rok szkolny', uk: 'Новий навчальний рік' },
  'mdi:school-outline',
  {
    payload: shape<SchoolYearPayload>(),
  },
);

export const schoolYear = feature({
  name: 'school-year',
  // The tutor's name: a new tutor's id the copy lacks has it read again (at most every 10 minutes).
  reads: ({ identity, copies }) => (identity.schoolYearBegin === undefined ? [] : [lookup(copies, USERS, [identity.classTutorId])]),
  entities: [schoolYearEvent],
  create: () => new SchoolYearSource(),
});

/** The day part of a portal date ("2026-09-01" or "2026-09-01 00:00:00"). */
const day = (value: string | undefined): string | null => value?.slice(0, 10) ?? null;

/** The year's candidate for the event, or none while the portal does not say when the year began. */
export function schoolYearEvents(identity: Identity, tutor: string | null): NewItem<SchoolYearFacts>[] {
  const begins = day(identity.schoolYearBegin);
  if (begins === null) return [];
  const facts: SchoolYearFacts = {
    class: identity.className ?? null,
    tutor,
    begins,
    first_semester_ends: day(identity.semester1End),
    ends: day(identity.schoolYearEnd),
  };
  return [{ id: `${schoolYearEvent.key}:${begins}`, payload: facts }];
}

class SchoolYearSource implements Source {
  poll(ctx: SourceContext): Promise<SourceResult> {
    const { identity } = ctx;
    const user = identity.classTutorId === undefined || identity.schoolYearBegin === undefined ? undefined : userOf(ctx.cache, identity.classTutorId);
    const tutor = [user?.FirstName, user?.LastName].filter((part) => part?.trim()).join(' ');
    return Promise.resolve({ states: {}, events: { [schoolYearEvent.key]: schoolYearEvents(identity, tutor === '' ? null : tutor) } });
  }
}
