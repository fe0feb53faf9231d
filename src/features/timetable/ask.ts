// What Assist asks of the timetable (interface 17.1): any day of the two weeks the lessons calendar feed holds (this
// school week and the next, with their changes), a day off by its name, the plan changes and days off ahead, the
// bells and who teaches each subject. From the timetable's own view, the days it computed for the calendar feed.
import { slotsOfChange, type SchoolDay } from '../../rules/schedule.js';
import type { PlanChange } from '../../rules/plan-changes.js';
import type { FreeDay } from '../../rules/schooldays.js';
import type { Bell } from '../../portal/schemas/identity.js';
import { ASK_TEXT } from '../../i18n/ask-text.js';
import { BOARD_TEXT } from '../../i18n/board-text.js';
import { TIMETABLE_WORDS } from '../../i18n/lesson-words.js';
import { plCompare } from '../../rules/order.js';
import { changeWords, timetableOf } from './day.js';
import { dayShort } from '../screens/shown.js';
import { joinedFacts, ofSubject, type AskContext, type AskPart, type ReachAsked, type Told, type UpcomingAsked } from '../screens/ask.js';
import { weeksToReach, type SchoolYearSpan } from './asked-weeks.js';
import { standingLine, type StandingOut } from './standing.js';
import type { AccountKind } from './kindergarten.js';
import type { Want } from '../../engine/resource.js';
import { weekStart } from '../../util/time.js';

/** What a pass keeps for Assist of the timetable's view: the fortnight's days, the free days, the bells, the next school day. */
export interface TimetableAsk {
  /** This and next week, Monday to Sunday (TimetableOutput.fortnight): a day's `lessons` undefined where the plan is not read. */
  fortnight: readonly SchoolDay[];
  /** Null while neither list of free days was read. */
  freeDays: readonly FreeDay[] | null;
  bells: readonly Bell[];
  nextSchoolDay: string | null;
  /** The days of the weeks a person asked about, read on demand (asked-weeks.ts); none before. */
  asked: readonly SchoolDay[];
  /** The Mondays of asked weeks the portal has not published yet. */
  unpublished: readonly string[];
  /** The school year's span (get_day reaches any school day of it); null while not known. */
  year: SchoolYearSpan | null;
  kind: AccountKind;
  /** Where a kindergarten's plan of blocks answers (its host and identifier), for a week read on demand; null for a school. */
  kindergartenPlan: string | null;
  /** This and next week against the standing plan (standing.ts); null while the plan is not read, and for a kindergarten. */
  standing: readonly StandingOut[] | null;
}

/** The free days (whole or some lessons) that touch `date`. */
const freeOn = (free: readonly FreeDay[], date: string): FreeDay[] => free.filter((f) => f.from <= date && f.to >= date);

function freeLine(f: FreeDay, c: AskContext): string {
  const w = ASK_TEXT[c.language].timetable;
  return joinedFacts([f.name ?? w.dayOff, f.lessons && w.lessonsFree(f.lessons.from, f.lessons.to)]);
}

/** The day's lessons as timetable_today lists them, one line each: "3. 09:50–10:35 Matematyka, nauczyciel: …, s. 12 — zastępstwo". */
function lessonLines(day: SchoolDay, c: AskContext): string[] {
  const w = ASK_TEXT[c.language];
  const text = BOARD_TEXT[c.language];
  return timetableOf(day, c.language).attributes.lessons.map((l) => {
    const place = joinedFacts([l.no === null ? null : `${l.no}.`, l.from && l.to && `${l.from}–${l.to}`], ' ');
    const teachers = l.teachers?.join(', ') ?? l.teacher;
    const what = joinedFacts([l.subject, teachers && `${w.common.teacher}: ${teachers}`, l.room && text.room(l.room)]);
    return `${joinedFacts([place, what], ' ')}${l.note ? ` — ${l.note}` : ''}`;
  });
}

/** The day as the bridge holds it: of this and next week, or of a week read on demand. */
function heldDay(facts: TimetableAsk, date: string): SchoolDay | undefined {
  const held = facts.fortnight.find((d) => d.date === date && d.lessons !== undefined);
  return held ?? facts.asked.find((d) => d.date === date && d.lessons !== undefined);
}

/** Why a day's lessons are not held: outside the school year, a week the school has not published, else until when the bridge knows. */
function notHeld(facts: TimetableAsk, date: string, c: AskContext): string[] | null {
  const w = ASK_TEXT[c.language].timetable;
  const year = facts.year;
  if (facts.kind !== 'kindergarten' && year && (date < year.from || date > year.to)) return [w.outsideYear(date, year.from, year.to)];
  if (facts.unpublished.includes(weekStart(date))) return [w.unpublished(date)];
  const span = days(facts);
  return span === null ? null : [w.notHeld(date, span.first, span.last)];
}

function day(facts: TimetableAsk, date: string, c: AskContext): Told[] {
  const w = ASK_TEXT[c.language].timetable;
  const held = heldDay(facts, date);
  const free = freeOn(facts.freeDays ?? [], date);
  const off = free.length > 0 ? [{ title: w.daysOff, lines: free.map((f) => freeLine(f, c)) }] : [];
  if (held === undefined || held.lessons === undefined) return [{ title: w.lessons, lines: notHeld(facts, date, c) }, ...off];
  const span = timetableOf(held, c.language).attributes.hours;
  const title = span === null ? w.lessons : `${w.lessons} ${w.hours(span.from, span.to)}`;
  // A day off names itself: its name instead of an empty list of lessons.
  const empty = held.freeDay !== undefined ? (held.freeDay.name ?? w.dayOff) : BOARD_TEXT[c.language].noLessons;
  return [{ title, lines: lessonLines(held, c), empty }, ...standingOn(facts, date, c), ...off];
}

/** How the day differs from the standing plan, as every screen says it (standing.ts): this and next week's days only. */
function standingOn(facts: TimetableAsk, date: string, c: AskContext): Told[] {
  // A kindergarten has no standing plan to be told against: no line, rather than "not known yet".
  if (facts.kind === 'kindergarten' || !facts.fortnight.some((d) => d.date === date && d.lessons !== undefined)) return [];
  const title = TIMETABLE_WORDS[c.language].standing.heading;
  return [{ title, lines: facts.standing === null ? null : facts.standing.filter((d) => d.date === date).map(standingLine) }];
}

/** The days whose lessons the view holds: the first and the last of them, and the next school day. */
function days(facts: TimetableAsk): { first: string; last: string; next: string | null } | null {
  const read = facts.fortnight.filter((d) => d.lessons !== undefined);
  const [first, last] = [read[0], read.at(-1)];
  return first === undefined || last === undefined ? null : { first: first.date, last: last.date, next: facts.nextSchoolDay };
}

/** A kindergarten's plan: the days read hold blocks, and blocks only. */
function blocksOnly(facts: TimetableAsk): boolean {
  const held = facts.fortnight.flatMap((d) => d.lessons ?? []);
  return held.length > 0 && held.every((l) => l.block !== null);
}

/** One plan change as get_upcoming tells it, at one slot it stands in on `date`. */
function changeLine(ch: PlanChange, date: string, { no, hours }: { no: number | null; hours: string | null }, c: AskContext): string {
  const slot = joinedFacts([no === null ? null : `${no}.`, hours], ' ');
  // What takes place (for a cancellation, what was cancelled) with its teacher, as the day's lessons say it; the change's
  // words name what it replaced ("zamiast: Fizyka").
  const what = joinedFacts([ch.subject ?? ch.original_subject, ch.teacher && `${ASK_TEXT[c.language].common.teacher}: ${ch.teacher}`]);
  const words = changeWords(ch, date, TIMETABLE_WORDS[c.language], no);
  return `${dayShort(date, c.clock, BOARD_TEXT[c.language])} (${date}): ${joinedFacts([joinedFacts([slot, what], ' '), words], ' — ')}`;
}

function upcoming(facts: TimetableAsk, { until, subject }: UpcomingAsked, c: AskContext): Told[] {
  const w = ASK_TEXT[c.language].timetable;
  const ahead = facts.fortnight.filter((d) => d.date >= c.clock.today && d.date <= until);
  const changes = ahead.flatMap((d) =>
    d.changes
      .filter((ch) => ofSubject(subject, ch.original_subject ?? ch.subject) || ofSubject(subject, ch.subject))
      // A lesson moved away is told on the day it leaves at the slot it leaves, as the day's lessons tell it (also when
      // it moves to another hour of the same day, where it is told at both), every line of the day in slot order.
      .flatMap((ch) => slotsOfChange(ch, d.date).map((slot) => ({ ch, slot })))
      .sort((a, b) => (a.slot.no ?? 99) - (b.slot.no ?? 99))
      .map(({ ch, slot }) => changeLine(ch, d.date, slot, c)),
  );
  const free = facts.freeDays
    ?.filter((f) => f.from <= until && f.to >= c.clock.today)
    .map((f) => `${f.from === f.to ? f.from : `${f.from} – ${f.to}`}: ${freeLine(f, c)}`);
  // The plan is held to the fortnight's end: a change beyond it is not known to be none.
  const span = days(facts);
  const heldToEnd = span !== null && span.last >= until;
  return [
    // A kindergarten's plan has no plan changes to tell (its account is refused the substitutions).
    ...(blocksOnly(facts)
      ? []
      : [{ title: w.planChanges, lines: span === null ? null : [...changes, ...(heldToEnd ? [] : [w.heldUntil(span.last)])] }]),
    { title: w.daysOff, lines: free ?? null },
  ];
}

function school(facts: TimetableAsk, c: AskContext): Told[] {
  const w = ASK_TEXT[c.language].timetable;
  // Who teaches each subject, as the plan says (a substitute aside).
  const teachers = new Map<string, Set<string>>();
  for (const d of facts.fortnight)
    for (const l of d.lessons ?? [])
      if (l.change === null && !l.extra && !l.block && l.subject !== null && l.teacher !== null)
        teachers.set(l.subject, (teachers.get(l.subject) ?? new Set()).add(l.teacher));
  const span = days(facts);
  // A kindergarten's plan of blocks has no subjects to name teachers of (nor has a fortnight without lessons).
  const blocks = span !== null && facts.fortnight.every((d) => (d.lessons ?? []).every((l) => l.block !== null));
  return [
    ...(facts.bells.length > 0 ? [{ title: w.bells, lines: [facts.bells.map((b) => `${b.no}. ${b.from}–${b.to}`).join('; ')] }] : []),
    ...(blocks
      ? []
      : [
          {
            title: w.teachers,
            lines:
              span === null
                ? null
                : [...teachers].sort(([a], [b]) => plCompare(a, b)).map(([subject, names]) => `${subject}: ${[...names].join(', ')}`),
          },
        ]),
  ];
}

/**
 * get_day's dates the bridge does not hold: their weeks, read on demand within the school year. A kindergarten, which has
 * no class to give the year, runs from September to August: its plan of blocks from the asked week's Monday.
 */
function reach(facts: TimetableAsk, asked: ReachAsked): Want[] {
  if (asked.tool !== 'day') return [];
  const known = [...facts.fortnight, ...facts.asked];
  if (facts.kind !== 'kindergarten') return weeksToReach(asked.dates, known, facts.year);
  const monday = facts.fortnight[0]?.date;
  if (facts.kindergartenPlan === null || monday === undefined) return [];
  return weeksToReach(asked.dates, known, facts.year ?? kindergartenYear(monday), facts.kindergartenPlan);
}

/** The kindergarten year around a date: from the 1st of September to the 31st of August. */
function kindergartenYear(date: string): SchoolYearSpan {
  const year = Number(date.slice(0, 4)) - (date.slice(5) < '09-01' ? 1 : 0);
  return { from: `${year}-09-01`, to: `${year + 1}-08-31` };
}

export const timetableAsk: AskPart<TimetableAsk> = {
  unknown: {
    fortnight: [],
    freeDays: null,
    bells: [],
    nextSchoolDay: null,
    asked: [],
    unpublished: [],
    year: null,
    kind: 'school',
    kindergartenPlan: null,
    standing: null,
  },
  day,
  days,
  upcoming,
  school,
  reach,
};
