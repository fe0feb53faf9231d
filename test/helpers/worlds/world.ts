// A generated world: one family's portal account as a school might fill it, described in a few lines so that a
// failing one prints readably and shrinks to a small one (fast-check). Each child starts from a kind the simulator
// knows (a pupil of class 4b, a first-grader with descriptive grades only, a kindergarten child) and the world
// varies what the spec lets a school send: every kind and period of grade with corrections and categories the school
// names itself, plan changes (a substitution by another subject, teacher and room, a cancellation, a lesson moved),
// extra classes, free days, agenda entries under the school's own categories, modules that answer 403 or 404, empty
// lists, teachers without a first name, string ids; then the news a teacher enters between two passes. records.ts
// turns it into the simulator's records; nothing here knows the bridge.
import fc from 'fast-check';
import type { Language } from '../../../src/config/language.js';

export type ChildKind = 'pupil' | 'first-grader' | 'kindergarten';
export type GradePeriod = 'ordinary' | 'semester_proposal' | 'semester' | 'final_proposal' | 'final';

/** A grade of the classic kind (Grades), on a subject of the child's plan (by its place in the plan's subjects). */
export interface GradeSpec {
  subject: number;
  /** The school's category: one of school.json's (by place), or one the school named itself (`own`). */
  category: number | { own: string; weight: number | null };
  value: string;
  period: GradePeriod;
  /** School days before today (0: today). */
  daysAgo: number;
  /** It corrects the grade before it in the list (Improvement). */
  corrects: boolean;
  comment: string | null;
}

/** A point grade or a text grade: the other kinds of a pupil's register. */
export interface OtherGradeSpec {
  kind: 'point' | 'text';
  subject: number;
  value: string;
  daysAgo: number;
}

export type ChangeSpec =
  | { kind: 'cancelled'; weekday: number; slot: number }
  /** Another subject, teacher and room (each by place; null keeps the plan's), or only another room. */
  | { kind: 'substitution'; weekday: number; slot: number; subject: number | null; teacher: number | null; room: number | null | 'none' }
  /** The lesson of a slot moved to another day's slot (live-notes 11). */
  | { kind: 'moved'; weekday: number; slot: number; toWeekday: number; toSlot: number };

/** A change the year's list of changes carries (a move shows in the timetable alone). */
export type ListedChange = Exclude<ChangeSpec, { kind: 'moved' }>;

export interface AgendaSpec {
  /** HomeWorks/Categories: school.json's (by place) or one the school named itself. */
  category: number | { own: string };
  /** Days from today (negative: past). */
  days: number;
  content: string;
  /** A subject of the plan (by place), or the whole class. */
  subject: number | null;
  slot: number | null;
  /**
   * Its TimeTo (spec 2.8; interface 19.1): the slot's bell (`lesson`), late in the day (`late`: a trip from 07:45 when
   * it has no slot), or none (absent, or null).
   */
  end: 'lesson' | 'late' | 'absent' | 'null';
}

/** A message in one of the child's mailboxes, unread or read, its subject possibly empty. */
export interface MessageSpec {
  mailbox: 'inbox' | 'notes';
  subject: string;
  read: boolean;
  hoursAgo: number;
}

/** An absence mark of a lesson long ago or lately (excused or not): the lessons missed (spec 2.6). */
export interface AbsenceSpec {
  /** School days before today. */
  daysAgo: number;
  slot: number;
  excused: boolean;
}

export interface ExtraSpec {
  weekday: number;
  start: string;
  title: string;
  cancelledNextWeek: boolean;
}

export interface FreeDaySpec {
  /** Days from today. */
  days: number;
  length: number;
  name: string;
}

/**
 * What a teacher enters between the first pass and the second. A lesson moved is none of it: the portal shows a move in
 * the timetable alone (no entry in the year's list of changes), which the bridge reads at the timetable's own age
 * (interface 8.5: within 5 minutes), not on a refresh at the same instant (interface 14.1: a refresh reads the lists
 * of records a family hears of, the timetable not among them), and the change feed that would name it is refused on
 * the register road (live-notes 28). A move is drawn among the records the first pass reads.
 */
export type NewsSpec =
  | { kind: 'grade'; grade: GradeSpec }
  | { kind: 'change'; change: ListedChange }
  | { kind: 'agenda'; entry: AgendaSpec }
  | { kind: 'notice'; subject: string };

/** A gateway endpoint the school keeps from the child's account, and how. */
export interface RefusedSpec {
  endpoint: string;
  status: 403 | 404;
}

export interface ChildWorld {
  kind: ChildKind;
  firstName: string;
  grades: GradeSpec[];
  otherGrades: OtherGradeSpec[];
  changes: ChangeSpec[];
  agenda: AgendaSpec[];
  extra: ExtraSpec[];
  freeDays: FreeDaySpec[];
  refused: RefusedSpec[];
  /** Lists the school answers empty. */
  empty: string[];
  /** Teachers (by place among the school's) the portal sends without a first name. */
  nameless: number[];
  /** Ids of the records sent as strings ("210001") rather than numbers, as some lists do. */
  stringIds: boolean;
  news: NewsSpec[];
  messages: MessageSpec[];
  absences: AbsenceSpec[];
  /** The school sends no lucky number today (LuckyNumber null). */
  luckyEmpty: boolean;
  /** A lesson at number 0 (before the first bell) on a weekday of the plan. */
  lessonZero: number | null;
  /** Slots (weekday, lesson) split into groups where the child's own group is listed second in the standing plan. */
  groups: { weekday: number; slot: number }[];
  /** The child's timetable holds its own group's lessons alone (a live school's), not every group's. */
  ownGroupOnly: boolean;
  /**
   * The child moved to another class of its year within the school year (a new class id, symbol and tutor), and each
   * class has a free day of its own (a trip) on a day of this fortnight (days from today): the old class's frees none
   * of the child's lessons, the new one's all of that day's. Null: the class of the fixture all year.
   */
  movedClass: { oldClassTrip: number; newClassTrip: number } | null;
}

export interface World {
  language: Language;
  /** The day the bridge reads, in the school year 2026/27, and the Warsaw time of its first pass. */
  date: string;
  time: string;
  /** The children come through one family login (the family road) rather than a login each. */
  family: boolean;
  children: ChildWorld[];
}

const FIRST = '2026-09-01';
const LAST = '2027-06-25';
const DAY = 86_400_000;
const SPAN = (Date.parse(LAST) - Date.parse(FIRST)) / DAY;

/** The grades a school gives (Grades/Types), with the signs and marks the spec lists (2.5). */
const VALUES = ['1', '2', '2+', '3-', '3', '3+', '4', '4-', '5', '5+', '6', '0', '+', '-', 'np', 'bz', 'zw'];
/** Categories schools name themselves (a tests' word, a project, a recitation). */
const OWN_CATEGORIES = ['Projekt edukacyjny', 'Dyktando', 'Recytacja', 'Zadanie z gwiazdką', 'Próbny egzamin', 'Dzień otwarty', 'Inne'];
const CONTENTS = [
  'Rozdział 4: ułamki dziesiętne',
  'Wiersz na pamięć',
  'Przynieść strój',
  'Spotkanie z autorem',
  'Zebranie klasowe',
  'Lekcja w muzeum',
  '',
];
const NAMES = ['Zofia', 'Jan', 'Łucja', 'Staś', 'Ola', 'Mikołaj', 'Żaneta', 'Ignacy'];
const TITLES = ['Koło szachowe', 'Chór', 'Zajęcia wyrównawcze', 'Basen'];
const FREE_NAMES = ['Dzień sportu', 'Rekolekcje', 'Egzamin ósmoklasisty'];
/** The lists a school may keep from a child's account (spec 3: 403, 404). */
const REFUSABLE = [
  'Attendances',
  'Notes',
  'HomeWorks',
  'HomeWorkAssignments',
  'SchoolNotices',
  'LuckyNumbers',
  'ParentTeacherConferences',
  'PointGrades',
  'SchoolTrips',
];
const EMPTIABLE = [
  'Grades',
  'Notes',
  'HomeWorks',
  'HomeWorkAssignments',
  'Attendances',
  'ParentTeacherConferences',
  'SchoolTrips',
  'EbiblioLendings',
];

const small = <T>(arb: fc.Arbitrary<T>, max: number) => fc.array(arb, { maxLength: max });

const gradeArb: fc.Arbitrary<GradeSpec> = fc.record({
  subject: fc.nat(12),
  category: fc.oneof(
    fc.nat(9),
    fc.record({ own: fc.constantFrom(...OWN_CATEGORIES), weight: fc.option(fc.constantFrom(1, 2, 3, 1.5), { nil: null }) }),
  ),
  value: fc.constantFrom(...VALUES),
  period: fc.constantFrom<GradePeriod>('ordinary', 'ordinary', 'ordinary', 'semester_proposal', 'semester', 'final_proposal', 'final'),
  daysAgo: fc.nat(25),
  corrects: fc.nat(4).map((n) => n === 0),
  comment: fc.option(fc.constantFrom('Brawo!', 'Poprawa w przyszłym tygodniu', 'Brak zadania'), { freq: 4, nil: null }),
});

/** A change the year's list of changes (Calendars/Substitutions) carries: a cancellation or a substitution. */
const listedChanges: fc.Arbitrary<ListedChange>[] = [
  fc.record({ kind: fc.constant('cancelled' as const), weekday: fc.integer({ min: -3, max: 8 }), slot: fc.nat(8) }),
  fc.record({
    kind: fc.constant('substitution' as const),
    weekday: fc.integer({ min: -3, max: 8 }),
    slot: fc.nat(8),
    subject: fc.option(fc.nat(12), { nil: null }),
    teacher: fc.option(fc.nat(16), { nil: null }),
    room: fc.oneof(fc.constant('none' as const), fc.option(fc.nat(9), { nil: null })),
  }),
];

const changeArb: fc.Arbitrary<ChangeSpec> = fc.oneof(
  ...listedChanges,
  fc.record({
    kind: fc.constant('moved' as const),
    weekday: fc.integer({ min: 0, max: 8 }),
    slot: fc.nat(8),
    toWeekday: fc.integer({ min: 0, max: 8 }),
    toSlot: fc.integer({ min: 1, max: 8 }),
  }),
);

/** The ends an agenda entry may have, a lesson's twice as often. */
const ENDS: readonly AgendaSpec['end'][] = ['lesson', 'lesson', 'late', 'absent', 'null'];

const agendaArb: fc.Arbitrary<AgendaSpec> = fc
  .record({
    category: fc.oneof(fc.nat(6), fc.record({ own: fc.constantFrom(...OWN_CATEGORIES) })),
    days: fc.integer({ min: -5, max: 20 }),
    content: fc.constantFrom(...CONTENTS),
    subject: fc.option(fc.nat(12), { nil: null }),
    slot: fc.option(fc.integer({ min: 1, max: 7 }), { nil: null }),
  })
  // The end follows from the day rather than a draw of its own: what the worlds drew before it was added stays drawn.
  .map((a) => ({ ...a, end: ENDS[((a.days % ENDS.length) + ENDS.length) % ENDS.length] as AgendaSpec['end'] }));

/** Subjects a teacher writes, and none at all (a message without a subject: interface 19.1). */
const MESSAGE_SUBJECTS = ['Wycieczka do muzeum', 'Zebranie', '', ' '];

const messageArb: fc.Arbitrary<MessageSpec> = fc.record({
  mailbox: fc.constantFrom<MessageSpec['mailbox']>('inbox', 'inbox', 'notes'),
  subject: fc.constantFrom(...MESSAGE_SUBJECTS),
  read: fc.boolean(),
  hoursAgo: fc.integer({ min: 1, max: 24 * 20 }),
});

const newsArb: fc.Arbitrary<NewsSpec> = fc.oneof(
  fc.record({ kind: fc.constant('grade' as const), grade: gradeArb.map((g) => ({ ...g, daysAgo: 0, corrects: false })) }),
  fc.record({ kind: fc.constant('change' as const), change: fc.oneof(...listedChanges) }),
  fc.record({ kind: fc.constant('agenda' as const), entry: agendaArb }),
  fc.record({ kind: fc.constant('notice' as const), subject: fc.constantFrom('Dzień otwarty szkoły', 'Zbiórka makulatury') }),
);

const childArb: fc.Arbitrary<ChildWorld> = fc.record({
  kind: fc.constantFrom<ChildKind>('pupil', 'pupil', 'first-grader', 'kindergarten'),
  firstName: fc.constantFrom(...NAMES),
  grades: small(gradeArb, 8),
  otherGrades: small(
    fc.record({
      kind: fc.constantFrom('point' as const, 'text' as const),
      subject: fc.nat(12),
      value: fc.constantFrom('7', '9.5', '12', 'Aktywny'),
      daysAgo: fc.nat(20),
    }),
    3,
  ),
  changes: small(changeArb, 5),
  agenda: small(agendaArb, 5),
  extra: small(
    fc.record({
      weekday: fc.integer({ min: 1, max: 5 }),
      start: fc.constantFrom('13:40', '14:35', '15:00'),
      title: fc.constantFrom(...TITLES),
      cancelledNextWeek: fc.boolean(),
    }),
    2,
  ),
  freeDays: fc.uniqueArray(
    fc.record({ days: fc.integer({ min: -3, max: 12 }), length: fc.integer({ min: 1, max: 3 }), name: fc.constantFrom(...FREE_NAMES) }),
    {
      maxLength: 2,
      selector: (f) => f.name,
    },
  ),
  refused: small(fc.record({ endpoint: fc.constantFrom(...REFUSABLE), status: fc.constantFrom<403 | 404>(403, 404) }), 2),
  empty: fc.uniqueArray(fc.constantFrom(...EMPTIABLE), { maxLength: 3 }),
  nameless: fc.uniqueArray(fc.nat(16), { maxLength: 2 }),
  stringIds: fc.boolean(),
  // News in a third of the children: a world with none is read in one pass (drive.ts).
  news: fc.oneof({ weight: 2, arbitrary: fc.constant<NewsSpec[]>([]) }, { weight: 1, arbitrary: fc.array(newsArb, { minLength: 1, maxLength: 4 }) }),
  // Drawn after the rest, so that what the worlds drew before these were added stays drawn the same.
  messages: small(messageArb, 3),
  absences: small(fc.record({ daysAgo: fc.integer({ min: 1, max: 70 }), slot: fc.nat(7), excused: fc.boolean() }), 3),
  luckyEmpty: fc.nat(4).map((n) => n === 0),
  lessonZero: fc.option(fc.integer({ min: 1, max: 5 }), { freq: 4, nil: null }),
  groups: small(fc.record({ weekday: fc.integer({ min: 1, max: 5 }), slot: fc.integer({ min: 1, max: 6 }) }), 2),
  ownGroupOnly: fc.boolean(),
  movedClass: fc.option(fc.record({ oldClassTrip: fc.integer({ min: -3, max: 12 }), newClassTrip: fc.integer({ min: -3, max: 12 }) }), {
    freq: 4,
    nil: null,
  }),
});

/**
 * Siblings at one school (pupils and first-graders: the fixtures' one school) see its one lucky number, run or not, and
 * its free days: the bridge takes one child's read of the lucky number as its schoolmates' (engine/school-reads.ts), as a
 * school's answer is. A class's own free days (movedClass) stay the child's.
 */
function oneSchool(children: ChildWorld[]): ChildWorld[] {
  const school = children.find((c) => c.kind !== 'kindergarten');
  if (school === undefined) return children;
  return children.map((c) => (c.kind === 'kindergarten' ? c : { ...c, luckyEmpty: school.luckyEmpty, freeDays: school.freeDays }));
}

/** A world: a day of the school year 2026/27 at a time of the day (not the night), one to three children. */
export const worldArb: fc.Arbitrary<World> = fc.record({
  language: fc.constantFrom<Language>('pl', 'pl', 'en', 'uk'),
  date: fc.noBias(fc.nat(SPAN)).map((n) => new Date(Date.parse(FIRST) + n * DAY).toISOString().slice(0, 10)),
  time: fc
    .record({ h: fc.integer({ min: 6, max: 20 }), m: fc.constantFrom(0, 15, 30, 45) })
    .map(({ h, m }) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
  family: fc.boolean(),
  // One child in most worlds, two or three siblings (never of one first name) in one of four.
  children: fc.oneof(
    { weight: 3, arbitrary: fc.tuple(childArb).map((one) => [...one]) },
    { weight: 1, arbitrary: fc.uniqueArray(childArb, { minLength: 2, maxLength: 3, selector: (c) => c.firstName }).map(oneSchool) },
  ),
});
