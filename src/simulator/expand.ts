// Turns stored fixture data into what the portal would answer today. Fixtures hold relative dates
// ("{{weekday-3}} 10:15:00") and short references ("@Subjects/5011"), so the demo always looks current
// and the files stay readable. The stored data is never changed; expand() returns a fresh copy.
import { addDays, addWeekdays, dateInSchoolYear, mondayOf, schoolYearOf, semesterOf } from './dates.js';

export interface ExpandContext {
  /** The simulated "today", YYYY-MM-DD. */
  today: string;
  /** The simulator clock in ms, for epoch tokens. */
  nowMs: number;
  /** The data gateway root, {base_url}/gateway/api/2.0 (used in reference Urls). */
  api: string;
  base: string;
  /** Named values of the account, such as {{childLid}}. */
  vars?: Record<string, string | number>;
  /**
   * The day the records' relative dates (today, weekday, monday) count from: default today, so the demo
   * always looks current (over the summer, the year's last school day: no teacher enters anything then);
   * a held account's (SimAccount.recordsHeldOn) stay where they were laid out.
   */
  recordsDay?: string;
}

const TOKEN = /\{\{([^{}]+)\}\}/g;
const REF = /^@([A-Za-z][\w/]*)\/([\w-]+)$/;

/**
 * Evaluates one date expression: today, weekday, monday, yearstart, sem1end or yearend, optionally
 * followed by +N or -N days (weekdays for "weekday"); sy:MM-DD, that day of the current school year;
 * or a literal YYYY-MM-DD. Records count from `recordsDay`: by default today, or over the summer the
 * year's last school day, where the finished year's records stay until 1 September.
 */
export function evalDate(expr: string, today: string, recordsDay?: string): string {
  // Every answer expands the same few hundred expressions for the same day: each is worked out once a
  // day (walking weekdays day by day was most of the simulator's time in a simulated week), and so is
  // the records' day.
  const day = `${today} ${recordsDay ?? ''}`;
  if (dayDates.day !== day) dayDates = { day, records: recordsDay ?? lastSchoolDay(today), dates: new Map() };
  let date = dayDates.dates.get(expr);
  if (date === undefined) {
    date = dateOf(expr, today, dayDates.records);
    dayDates.dates.set(expr, date);
  }
  return date;
}

/** Today, or over the summer (after the year's last school day, to 31 August) that last school day. */
function lastSchoolDay(today: string): string {
  const { end } = schoolYearOf(today);
  return today > end ? end : today;
}

/** The dates worked out for one simulated day and records' day (the last pair asked for). */
let dayDates = { day: '', records: '', dates: new Map<string, string>() };

function dateOf(expr: string, today: string, recordsDay: string): string {
  const m = /^\s*(today|weekday|monday|yearstart|sem1end|yearend|sy:\d\d-\d\d|\d{4}-\d\d-\d\d)\s*(?:([+-])\s*(\d+))?\s*$/.exec(expr);
  if (!m) throw new Error(`simulator fixture: bad date expression "${expr}"`);
  const [, base = '', sign, digits] = m;
  const n = digits === undefined ? 0 : Number(digits) * (sign === '-' ? -1 : 1);
  if (base === 'weekday') return addWeekdays(recordsDay, n);
  // The year's own days follow the year the portal is in; the records' relative days, their own day.
  const year = schoolYearOf(today);
  const start =
    base === 'today'
      ? recordsDay
      : base === 'monday'
        ? mondayOf(recordsDay)
        : base === 'yearstart'
          ? year.start
          : base === 'sem1end'
            ? year.semester1End
            : base === 'yearend'
              ? year.end
              : base.startsWith('sy:')
                ? dateInSchoolYear(year, base.slice(3))
                : base;
  return addDays(start, n);
}

function evalToken(token: string, ctx: ExpandContext): string | number {
  const t = token.trim();
  if (t === 'api') return ctx.api;
  if (t === 'base') return ctx.base;
  const named = ctx.vars?.[t];
  if (named !== undefined) return named;
  const epoch = /^epoch\s*(?:([+-])\s*(\d+))?$/.exec(t);
  if (epoch) {
    const shift = epoch[2] === undefined ? 0 : Number(epoch[2]) * (epoch[1] === '-' ? -1 : 1);
    return Math.floor(ctx.nowMs / 1000) + shift;
  }
  const sem = /^sem\((.+)\)$/.exec(t);
  if (sem) return semesterOf(evalDate(sem[1] ?? '', ctx.today, ctx.recordsDay));
  return evalDate(t, ctx.today, ctx.recordsDay);
}

function expandString(value: string, ctx: ExpandContext): unknown {
  const ref = REF.exec(value);
  if (ref) {
    const [, kind = '', id = ''] = ref;
    return { Id: /^\d+$/.test(id) ? Number(id) : id, Url: `${ctx.api}/${kind}/${id}` };
  }
  if (!value.includes('{{')) return value;
  const whole = /^\{\{([^{}]+)\}\}$/.exec(value);
  if (whole) return evalToken(whole[1] ?? '', ctx);
  return value.replace(TOKEN, (_, token: string) => String(evalToken(token, ctx)));
}

/** A deep copy of value with every token and short reference replaced. */
export function expand<T = unknown>(value: unknown, ctx: ExpandContext): T {
  return walk(value, ctx) as T;
}

function walk(value: unknown, ctx: ExpandContext): unknown {
  if (typeof value === 'string') return expandString(value, ctx);
  if (Array.isArray(value)) return value.map((v) => walk(v, ctx));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = walk(v, ctx);
    return out;
  }
  return value;
}

/** A reference object {Id, Url} as the gateway writes them. */
export function ref(ctx: ExpandContext, kind: string, id: number | string): { Id: number | string; Url: string } {
  return { Id: id, Url: `${ctx.api}/${kind}/${id}` };
}
