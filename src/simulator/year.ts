// The school year as the simulated portal answers it for one child (live-notes 38-41). Classes, the
// school days (timetable, attendance, the lucky number) and the lists all take the year from here:
// - the year of the simulated today, its dates as dates.ts lays them out (1 September, the last Friday
//   of January, the last Friday of June); July and August belong to the year that ended;
// - the school moves its children up `movesUpAfterDays` days after 1 September (0: on 1 September).
//   Until then the portal still answers the ended year (live-notes 39): Classes its dates, no lessons;
// - the first request on or after that day moves the child up: the class number grows by one (4b ->
//   5b) under a new class id (7104 -> 7204) with, as a rule, another teacher as its tutor; the class's
//   own free days follow it; records dated before the new year leave the lists (live-notes 40). The new
//   year's free days and calendar arrive by themselves: the fixtures date them in the school year.
// The hook for everything else: `settle()` before answering (gateway.ts does it for every data request),
// `portalYear()` for the year's dates, `since()` for the first day records are still listed from.
import { addDays, daysBetween, schoolYearOf, type SchoolYear } from './dates.js';
import type { ChildFixture, SchoolFixture } from './fixtures.js';

/** What a year's move changes: the school's classes and free days, the child's class. */
interface YearRecords {
  readonly school: SchoolFixture;
  readonly data: ChildFixture;
}

/** How many whole school years lie from one year's start to another's. */
function yearsFrom(start: string, later: string): number {
  return Number(later.slice(0, 4)) - Number(start.slice(0, 4));
}

export class SimYear {
  /**
   * Days after 1 September the school moves its children up a class; until then Classes answers the
   * ended year. A test sets it before the simulated clock reaches 1 September.
   */
  movesUpAfterDays = 0;
  /** The start of the school year of the account's first request (its fixtures are that year's class). */
  private began: string | undefined;
  /** School years the child has moved up since. */
  private moved = 0;

  constructor(
    private readonly records: YearRecords,
    private readonly today: () => string,
  ) {}

  /** The school year the portal answers on `date`: the ended one until the school moves its children up. */
  portalYear(date: string = this.today()): SchoolYear {
    const calendar = schoolYearOf(date);
    if (daysBetween(calendar.start, date) >= this.movesUpAfterDays) return calendar;
    return schoolYearOf(addDays(calendar.start, -1));
  }

  /** Moves the child up once per school year begun since the last look (never down: a clock set back keeps the class). */
  settle(date: string = this.today()): SchoolYear {
    const year = this.portalYear(date);
    this.began ??= year.start;
    for (const due = yearsFrom(this.began, year.start); this.moved < due; this.moved++) this.moveUp();
    return year;
  }

  /** The first day records are listed from: the new year's start once the child moved up; undefined before (the fixtures' own year). */
  since(date: string = this.today()): string | undefined {
    return this.moved > 0 ? this.settle(date).start : undefined;
  }

  /** A new class one number up, its id a hundred up, a tutor who tutors no other class; the class's free days go with it. */
  private moveUp(): void {
    const { school, data } = this.records;
    const old = school.classes.find((c) => c.Id === data.account.classId);
    if (old === undefined) return;
    const id = old.Id + 100;
    const tutors = new Set(school.classes.map((c) => c.ClassTutor));
    const teachers = school.users.filter((u) => typeof u.FirstName === 'string' && u.IsEmployee === true).map((u) => Number(u.Id));
    const from = Math.max(0, teachers.indexOf(old.ClassTutor));
    const tutor = [...teachers.slice(from + 1), ...teachers.slice(0, from)].find((t) => !tutors.has(t)) ?? old.ClassTutor;
    school.classes.push({ ...old, Id: id, Number: old.Number + 1, ClassTutor: tutor });
    for (const day of school.classFreeDays) if (day.Class === old.Id) day.Class = id;
    data.account.classId = id;
  }
}

// The day a record was entered says whose year it is (a test entered in June for a date in September is last year's).
const RECORD_DAY = ['AddDate', 'CreationDate', 'addDate', 'Date'];

/** Drops the records of a body's lists dated before `since` (last year's, once the child moved up). */
export function hidePast<T>(body: T, since: string | undefined): T {
  if (since === undefined || !body || typeof body !== 'object' || Array.isArray(body)) return body;
  const out: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const [key, value] of Object.entries(out)) {
    if (!Array.isArray(value)) continue;
    out[key] = value.filter((item: unknown) => {
      if (!item || typeof item !== 'object') return true;
      const record = item as Record<string, unknown>;
      const day = RECORD_DAY.map((f) => record[f]).find((v): v is string => typeof v === 'string');
      return day === undefined || day.slice(0, 10) >= since;
    });
  }
  return out as T;
}
