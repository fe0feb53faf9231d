// The school year feature: one `school_year` event when the portal shows the child in a new school year
// (its identity's BeginSchoolYear moves on), with the new class, its tutor and the year's dates. The
// event gate adds what the rollover took away and brought (once/rollover.ts), which it keeps quiet.
// Its candidate's id is the year's first day, so the seen memory fires it once per year, across restarts
// too, and never at a bridge's first read (a new install is not a new year).
// The `school` sensor (interfaces 14.1, 15.2): the class with its school, address, head teacher, e-mail, phone, tutor,
// the child's number, the year's dates and the bells (the timetable's: the school's LessonsRange, else the timetable's
// most frequent hours); from the identity and the timetable, no read of its own.
import { lookup, USERS, userOf } from '../../engine/resources/lookups.js';
import { eventEntity, sensor } from '../kit/entities.js';
import { shape, statesOf } from '../kit/contract.js';
import { withAttributes } from '../kit/render.js';
import type { TimetableOutput } from '../timetable/entities.js';
import { feature } from '../feature.js';
import { ifKnown, kindergartenVariable, markdown } from '../screens/cards.js';
import { keyed } from '../screens/templates.js';
import { str } from '../screens/shown.js';
import type { RolloverSummary } from '../../once/rollover.js';
import type { Identity } from '../../engine/identity.js';
import type { NewsItem } from '../../rules/news.js';
import type { SourceContext, SourceResult } from '../../engine/source.js';
import { schoolAsk, type SchoolAsk } from './ask.js';

/** What the child's identity says of the new year (schoolYearFacts). */
export type SchoolYearFacts = ReturnType<typeof schoolYearFacts>;

/** What a `school_year` event carries: the year's facts and the rollover's counts (added by the event gate). */
export type SchoolYearPayload = SchoolYearFacts & { summary: RolloverSummary };

export const schoolYearEvent = eventEntity(
  'school_year',
  { en: 'New school year', pl: 'Nowy rok szkolny', uk: 'Новий навчальний рік' },
  'mdi:school-outline',
  {
    payload: shape<SchoolYearPayload>(),
    rollover: { summary: true },
  },
);

/** The attributes of school: where the child learns, who its tutor is, its number, the year and the bells (renderSchool). */
export type SchoolFacts = ReturnType<typeof renderSchool>['attributes'];

/** What school shows: the child's identity, its tutor's name, the year's facts and the timetable's bells and group. */
export type SchoolView = {
  identity: Identity;
  tutor: string | null;
  year: SchoolYearFacts | undefined;
  timetable: Pick<TimetableOutput, 'bells' | 'group'> | undefined;
};

export const schoolEntity = sensor(
  'school',
  { en: 'School', pl: 'Szkoła', uk: 'Школа' },
  {
    icon: 'mdi:town-hall',
    attributes: shape<SchoolFacts>(),
    state: ({ identity, tutor, year, timetable }: SchoolView) => renderSchool(identity, tutor, year, timetable),
  },
);

export const schoolYear = feature({
  name: 'school-year',
  inputs: ['timetable'],
  // The tutor's name: a new tutor's id the copy lacks has it read again (at most every 10 minutes).
  reads: ({ identity, copies }) => [lookup(copies, USERS, [identity.classTutorId])],
  entities: [schoolEntity, schoolYearEvent],
  ask: schoolAsk,
  // The school's name heads its box on the board, the class tutor in it.
  board: ({ state }) => {
    const school = state(schoolEntity)?.attributes;
    return { school: { name: str(school?.school), tutor: str(school?.tutor) } };
  },
  dashboard: {
    // The child's school: class (or group), tutor, number, address, the year's dates and the bells.
    child: [
      {
        section: 'school',
        block: (e, t) =>
          ifKnown(e, schoolEntity, () =>
            markdown(e, t, 'features/school-year/school', {
              ...keyed(schoolEntity, 'school', 'address', 'head_teacher', 'email', 'phone', 'tutor', 'register_number', 'school_year', 'bells'),
              kindergarten: kindergartenVariable(e),
            }),
          ),
      },
    ],
  },
  create: () => ({ compute }),
});

/** The day part of a portal date ("2026-09-01" or "2026-09-01 00:00:00"). */
const day = (value: string | undefined): string | null => value?.slice(0, 10) ?? null;

/** What the child's identity says of the new year: the class, its tutor's name (as the Users lookup gives it), the year's dates. */
const schoolYearFacts = (identity: Identity, tutor: string | null, begins: string) => ({
  class: identity.className ?? null,
  tutor,
  begins,
  first_semester_ends: day(identity.semester1End),
  ends: day(identity.schoolYearEnd),
});

/** The year's candidate for the event, or none while the portal does not say when the year began. */
export function schoolYearEvents(identity: Identity, tutor: string | null): NewsItem<SchoolYearFacts>[] {
  const begins = day(identity.schoolYearBegin);
  if (begins === null) return [];
  return [{ id: `${schoolYearEvent.key}:${begins}`, payload: schoolYearFacts(identity, tutor, begins) }];
}

function compute(ctx: SourceContext): Promise<SourceResult> {
  const { identity } = ctx;
  const user = identity.classTutorId === undefined ? undefined : userOf(ctx.cache, identity.classTutorId);
  const tutor = [user?.FirstName, user?.LastName].filter((part) => part?.trim()).join(' ') || null;
  const year = schoolYearEvents(identity, tutor);
  const timetable = ctx.inputs.timetable;
  // A kindergarten child's group is read in her first pass, beside her plan; while a read of it has failed, what was
  // published stays (a state without her group would tell Home Assistant she has none).
  const waiting = identity.className === undefined && timetable?.kind === 'kindergarten' && timetable.group === undefined;
  return Promise.resolve<SourceResult>({
    ...(waiting ? {} : { states: statesOf([schoolEntity], { identity, tutor, year: year[0]?.payload, timetable }) }),
    events: { [schoolYearEvent.key]: year },
    // Assist tells what the identity says at once, a kindergarten's group while it waits too.
    ask: { identity, tutor, year: year[0]?.payload, group: timetable?.group } satisfies SchoolAsk,
  });
}

/** school: the class as the school writes it (a kindergarten child's group); the school, tutor, number, year and bells beside. */
export function renderSchool(
  identity: Identity,
  tutor: string | null,
  year: SchoolYearFacts | undefined,
  timetable: Pick<TimetableOutput, 'bells' | 'group'> | undefined,
) {
  return withAttributes(identity.className ?? timetable?.group?.name ?? null, {
    school: identity.schoolName ?? null,
    address: identity.schoolAddress ?? null,
    // The head teacher (dyrektor), the school's e-mail and phone (its secretariat), as Schools gives them.
    head_teacher: identity.headTeacher ?? null,
    email: identity.schoolEmail ?? null,
    phone: identity.schoolPhone ?? null,
    tutor: tutor ?? timetable?.group?.tutor ?? null,
    register_number: identity.registerNumber ?? null,
    school_year: year === undefined ? null : { begins: year.begins, first_semester_ends: year.first_semester_ends, ends: year.ends },
    bells: timetable?.bells ?? [],
  });
}
