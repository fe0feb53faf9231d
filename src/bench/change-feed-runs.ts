// The bench's change-feed runs (live-notes 28-32): the same child on the same two school days with the
// change feed (the family road; the register road where its gateway grants the change feed) and without it (the
// register road as before), side by side, each given every kind of news at moments from 07:00 to 21:00;
// the change feed at the reference's freshness; and a change the change feed loses, which the safety read must bring.
import { perChildPerDay, simulate, type Injection, type SimulationOptions } from './simulate.js';
import { benchLogin } from './accounts.js';
import { count, decimal, labelName } from './doc-figures.js';
import { CHANGE_FEED_SAFETY } from '../engine/resources/change-feed.js';
import { wallTime } from '../util/time.js';
import { MINUTE } from '../util/duration.js';
import { beyondFloor, type Breakdown, type Kind, type Share } from './beyond-floor.js';
import { TEN_QUESTIONS } from './questions.js';
import type { BenchTableRow } from './results.js';

const MONDAY = '2026-11-16T00:00:00+01:00';
/** The running day's start: the Sunday before, so that Monday and Tuesday are a running bridge's days. */
const SUNDAY_NOON = '2026-11-15T12:00:00+01:00';
const at = (day: number, hhmm: string): number => Date.parse(`2026-11-${16 + day}T${hhmm}:00+01:00`);
/** The targets (shared/design/performance.md: the thirteenth round's with the change feed, the seventh's at the reference's freshness). */
const CHANGE_FEED_PER_DAY = 620;
const CHANGE_FEED_REFERENCE_PER_DAY = 300;
const SAFETY_MINUTES = CHANGE_FEED_SAFETY / MINUTE;

/**
 * Every kind of news at moments spread over two school days from 07:00 to 21:00 (before, in and after
 * the lessons, in the evening), one kind at a time per moment, each watched where it shows.
 */
function allDay(): Injection[] {
  const login = benchLogin(0).login;
  const watch = (key: string) => ({ childIndex: 0, key });
  const out: Injection[] = [];
  const add = (day: number, hhmm: string, request: Injection['request'], key: string, kind: string): void => {
    out.push({ at: at(day, hhmm), request, watch: watch(key), label: `all day: ${kind}` });
  };
  add(0, '07:12', { type: 'grade', login }, 'newest_grade', 'grade');
  add(0, '15:47', { type: 'grade', login }, 'newest_grade', 'grade');
  add(1, '20:38', { type: 'grade', login }, 'newest_grade', 'grade');
  add(0, '10:23', { type: 'point grade', login }, 'newest_grade', 'point grade');
  add(1, '17:52', { type: 'point grade', login }, 'newest_grade', 'point grade');
  add(0, '18:31', { type: 'text grade', login }, 'newest_grade', 'text grade');
  add(1, '07:41', { type: 'text grade', login }, 'newest_grade', 'text grade');
  add(0, '08:36', { type: 'notice', login }, 'unread_notices', 'announcement');
  add(1, '19:14', { type: 'notice', login }, 'unread_notices', 'announcement');
  add(0, '16:58', { type: 'test', login, date: '2026-11-20' }, 'upcoming_tests', 'test');
  add(1, '12:07', { type: 'test', login, date: '2026-11-20' }, 'upcoming_tests', 'test');
  add(0, '20:22', { type: 'homework', login, due: '2026-11-17' }, 'homework_due', 'homework');
  add(1, '15:26', { type: 'homework', login, due: '2026-11-18' }, 'homework_due', 'homework');
  add(0, '19:43', { type: 'change', login, date: '2026-11-17', lessonNo: 1 }, 'plan_changes_tomorrow', 'plan change (next school day)');
  add(1, '16:18', { type: 'change', login, date: '2026-11-18', lessonNo: 1 }, 'plan_changes_tomorrow', 'plan change (next school day)');
  add(0, '14:09', { type: 'note', login }, 'newest_note', 'note');
  add(1, '09:55', { type: 'note', login }, 'newest_note', 'note');
  // The school's draw: the simulated portal shows the next school day's number from 15:00, and its change feed names it.
  add(0, '15:00', { type: 'noop' }, 'lucky_number', 'lucky number (next school day)');
  add(1, '15:00', { type: 'noop' }, 'lucky_number', 'lucky number (next school day)');
  return out;
}

type Worst = Map<string, { worst: number | null; n: number }>;

/** The worst minutes per kind (null: one never arrived). */
function worstByKind(freshness: readonly { label: string; delayMs: number | null }[]): Worst {
  const out: Worst = new Map();
  for (const f of freshness) {
    const kind = f.label.replace(/^all day: /, '');
    const known = out.get(kind) ?? { worst: 0, n: 0 };
    out.set(kind, { worst: known.worst === null || f.delayMs === null ? null : Math.max(known.worst, f.delayMs), n: known.n + 1 });
  }
  return out;
}

/**
 * The longest time between two reads of the change feed while its age is `school_interval` (07:00 to 21:00 on
 * a school day; the first read after 07:00 follows one at the early hour's age), in seconds.
 */
export function worstChangeFeedGap(reads: readonly number[]): number {
  const byDay = (t: number): boolean => {
    const { date, time } = wallTime(t);
    const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
    return weekday !== 0 && weekday !== 6 && time >= '07:00' && time <= '21:00';
  };
  let worst = 0;
  for (let i = 1; i < reads.length; i++) if (byDay(reads[i - 1]!) && byDay(reads[i]!)) worst = Math.max(worst, reads[i]! - reads[i - 1]!);
  return worst / 1000;
}

/**
 * Two school days of one child, from a fresh start at 00:00 on the Monday (the figures' yardstick since the seventh
 * round), or `running`: started the Sunday before at noon and counted from Monday's 00:00, as a bridge that was
 * already running has them (its start's first pass and login the day before).
 */
async function day(
  options: Omit<SimulationOptions, 'children' | 'start' | 'days'>,
  running = false,
): Promise<{ perDay: number; worst: Worst; changeFeedOn: number; missed: number; changeFeedGap: number; breakdown: Breakdown }> {
  const r = await simulate({
    children: 1,
    ...(running ? { start: SUNDAY_NOON, days: 2.5, countFrom: Date.parse(MONDAY) } : { start: MONDAY, days: 2 }),
    ...options,
  });
  return {
    perDay: perChildPerDay(r.counts, 1, 2),
    worst: worstByKind(r.freshness),
    changeFeedOn: r.changeFeed.on,
    missed: r.changeFeed.missed,
    changeFeedGap: worstChangeFeedGap(r.changeFeedReads[0] ?? []),
    breakdown: beyondFloor({ reads: r.reads, requests: r.requests, total: r.counts.total }, 2),
  };
}

/** A running day's line: its requests, the floor, and what is beyond it by kind (beyond-floor.ts). */
function runningLine(perDay: number, breakdown: Breakdown): string {
  const of = (kind: Kind) => sumOf(breakdown.beyond.filter((s) => s.kind === kind));
  const parts = [
    `safety reads ${of('safety').toFixed(1)}`,
    `lists the feed does not name, at their own ages ${of('unnamed').toFixed(1)}`,
    `the portal's sessions ${of('sessions').toFixed(1)}`,
    `the rest ${(of('start') + of('other')).toFixed(1)}`,
  ];
  return `A running day (the family road, its start the day before, the same news): ${perDay.toFixed(1)} requests: the floor ${sumOf(breakdown.floor).toFixed(1)}, ${parts.join(', ')}`;
}

/**
 * The running day beside the same days with a parent's ten questions to Assist on the first of them (two days counted:
 * what the questions cost falls on their day whole): what the questions cost the school.
 */
function questionsLine(quiet: number, asking: number): string {
  const more = (asking - quiet) * 2;
  return `A running day with a parent's ten questions to Assist (three read from the school: two weeks, the archive): ${(quiet + more).toFixed(1)} requests, ${more.toFixed(1)} more than without (at most 3 a question, 20 an hour)`;
}

/** The requests of some shares, per child per day. */
function sumOf(list: readonly Share[]): number {
  return list.reduce((a, s) => a + s.perDay, 0);
}

/**
 * The breakdown's lines: the floor's shares, then each request beyond it and why, per child per day on the two
 * roads with the change feed side by side (a share only one road has is 0 on the other).
 */
function breakdownLines(family: Breakdown, register: Breakdown): string[] {
  const value = (list: readonly Share[], what: string) => list.find((s) => s.what === what)?.perDay ?? 0;
  const both = (a: readonly Share[], b: readonly Share[]) => [...new Map([...a, ...b].map((s) => [s.what, s])).values()];
  const floor = both(family.floor, register.floor);
  const beyond = both(family.beyond, register.beyond);
  const width = Math.max(...[...floor, ...beyond].map((s) => s.what.length));
  const line = (what: string, f: number, r: number, why = '') =>
    `  ${what.padEnd(width)} | ${f.toFixed(1).padStart(6)} / ${r.toFixed(1).padEnd(6)}${why ? ` | ${why}` : ''}`;
  return [
    'With the change feed: requests per child per day, family road / register road (granted): the floor, then each request beyond it and why',
    ...floor.map((s) => line(s.what, value(family.floor, s.what), value(register.floor, s.what))),
    line('the floor, in all', sumOf(family.floor), sumOf(register.floor)),
    ...beyond.map((s) => line(s.what, value(family.beyond, s.what), value(register.beyond, s.what), s.why)),
    line('beyond the floor, in all', sumOf(family.beyond), sumOf(register.beyond)),
    line('every request', family.total, register.total),
  ];
}

/** The change feed's runs: rows for the table, figures for the pages, and what bench-results.json keeps. */
export async function changeFeedRuns(
  log: (text: string) => void,
  atReference: Pick<SimulationOptions, 'poll' | 'resources'>,
): Promise<{ rows: BenchTableRow[]; figures: Record<string, string>; json: Record<string, unknown>; breakdown: string[] }> {
  log('the change feed: two school days of one child with every kind of news from 07:00 to 21:00, on the family road (the feed)...');
  const family = await day({ road: 'family', injections: allDay() });
  log('... on the register road, its gateway granting the feed...');
  const granted = await day({ changeFeedGranted: true, injections: allDay() });
  log('... on the family road as a running bridge has the two days (started the Sunday before)...');
  const running = await day({ road: 'family', injections: allDay() }, true);
  log("... the same running day with a parent's ten questions to Assist (interface 18.2)...");
  const asking = await day({ road: 'family', injections: allDay(), questions: TEN_QUESTIONS }, true);
  log('... on the register road without the feed (as before it)...');
  const scheduled = await day({ injections: allDay() });
  log("... with the feed at the reference's freshness...");
  const reference = await day({ road: 'family', ...atReference });
  log('... a change the feed loses (10:00 on a Monday)...');
  const lost = await simulate({
    children: 1,
    start: MONDAY,
    days: 1,
    road: 'family',
    injections: [
      {
        at: at(0, '10:00'),
        request: { type: 'lose change', login: benchLogin(0).login },
        watch: { childIndex: 0, key: 'newest_grade' },
        label: 'lost: setup',
      },
      {
        at: at(0, '10:00') + 1000,
        request: { type: 'grade', login: benchLogin(0).login },
        watch: { childIndex: 0, key: 'newest_grade' },
        label: 'lost change',
      },
    ],
  });
  const lostMs = lost.freshness.find((f) => f.label === 'lost change')?.delayMs ?? null;

  const rows: BenchTableRow[] = [
    {
      measure: 'with the change feed: requests per child per day (family road)',
      value: family.perDay.toFixed(0),
      target: `<= ${CHANGE_FEED_PER_DAY}`,
      ok: family.perDay <= CHANGE_FEED_PER_DAY && family.changeFeedOn === 1,
    },
    {
      measure: 'with the change feed: requests per child per day (register road, granted)',
      value: granted.perDay.toFixed(0),
      target: `<= ${CHANGE_FEED_PER_DAY}`,
      ok: granted.perDay <= CHANGE_FEED_PER_DAY && granted.changeFeedOn === 1,
    },
    {
      measure: 'without the feed: requests per child per day (register road)',
      value: scheduled.perDay.toFixed(0),
      target: '<= 1190',
      ok: scheduled.perDay <= 1190,
    },
    {
      measure: "with the change feed, at the reference's freshness",
      value: reference.perDay.toFixed(0),
      target: `<= ${CHANGE_FEED_REFERENCE_PER_DAY}`,
      ok: reference.perDay <= CHANGE_FEED_REFERENCE_PER_DAY,
    },
  ];
  const minutes = (ms: number | null): string => (ms === null ? 'never' : (ms / MINUTE).toFixed(1));
  for (const [kind, f] of family.worst) {
    const g = granted.worst.get(kind);
    const p = scheduled.worst.get(kind);
    const worst = [f.worst, g?.worst ?? null];
    rows.push({
      measure: `news 07:00-21:00, ${kind}: worst minutes with the feed (family / register) | without (${f.n} changes)`,
      value: `${minutes(f.worst)} / ${minutes(g?.worst ?? null)} | ${minutes(p?.worst ?? null)}`,
      target: 'with the feed <= 5',
      ok: worst.every((w) => w !== null && w <= 5 * MINUTE),
    });
  }
  rows.push({
    measure: 'the longest time between two reads of the feed, 07:00-21:00 on school days (family / register, s)',
    value: `${family.changeFeedGap} / ${granted.changeFeedGap}`,
    target: '<= 300',
    ok: family.changeFeedGap > 0 && granted.changeFeedGap > 0 && Math.max(family.changeFeedGap, granted.changeFeedGap) <= 300,
  });
  rows.push({
    measure: 'a change the feed lost: minutes until published; counted as feed_missed',
    value: `${minutes(lostMs)}; ${lost.changeFeed.missed}`,
    target: `<= ${SAFETY_MINUTES}; >= 1`,
    ok: lostMs !== null && lostMs <= SAFETY_MINUTES * MINUTE && lost.changeFeed.missed >= 1,
  });

  const worstOf = (w: Worst): number | null =>
    [...w.values()].reduce<number | null>((a, b) => (a === null || b.worst === null ? null : Math.max(a, b.worst)), 0);
  const figures: Record<string, string> = {
    requests_feed_family: count(family.perDay),
    requests_feed_register: count(granted.perDay),
    requests_feed_reference: count(reference.perDay),
    requests_change_feed_running: count(running.perDay),
    // The running day whose Monday has a parent's ten questions to Assist (two days counted: the questions' cost whole on their day).
    requests_change_feed_running_questions: count(running.perDay + (asking.perDay - running.perDay) * 2),
    requests_polling_allday: count(scheduled.perDay),
    fresh_feed_allday_worst: minutes(
      worstOf(family.worst) === null || worstOf(granted.worst) === null ? null : Math.max(worstOf(family.worst)!, worstOf(granted.worst)!),
    ),
    fresh_polling_allday_worst: minutes(worstOf(scheduled.worst)),
    feed_lost_change_minutes: minutes(lostMs),
    feed_worst_gap_seconds: String(Math.max(family.changeFeedGap, granted.changeFeedGap)),
    feed_safety_hours: decimal(SAFETY_MINUTES / 60, 0),
  };
  for (const [kind, f] of scheduled.worst) figures[`fresh_polling_allday_${labelName(kind)}_worst`] = minutes(f.worst);
  const json = { family, granted, running, asking, scheduled, reference, lost: { delayMs: lostMs, missed: lost.changeFeed.missed } };
  return {
    rows,
    figures,
    breakdown: [
      ...breakdownLines(family.breakdown, granted.breakdown),
      runningLine(running.perDay, running.breakdown),
      questionsLine(running.perDay, asking.perDay),
    ],
    json: JSON.parse(JSON.stringify(json, (_k, v: unknown) => (v instanceof Map ? Object.fromEntries(v) : v))) as Record<string, unknown>,
  };
}
