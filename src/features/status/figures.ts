// One account's figures for the diagnostics (interface 9.3) and its diagnostic entities: the requests
// of the day per resource, the password logins and messaging bootstraps of the day, each resource's
// last answer and last success, the session's age, the problems of the last 7 days and the last
// login's transcript (with `check --trace`'s redaction). Told by the portal access (PortalObserver);
// kept in data_dir after each pass (engine/figures-store.ts) so that `dziennik2mqtt diagnostics` beside
// a running bridge reads them. A sink (the metrics) may be told the same events.
import type { Logger } from '../../util/log.js';
import { LoginTrace } from '../../portal/trace.js';
import { warsawDate } from '../../util/time.js';
import type { PortalObserver } from '../../portal/observer.js';
import type { PortalUrls } from '../../config/schema.js';
import type { Clock } from '../../util/clock.js';
import type { FiguresStore, SavedFigures, SchoolYearFigures } from '../../engine/figures-store.js';
import type { FiguresView, ProblemFacts } from './status.js';
import type { Identity } from '../../engine/identity.js';

/** What else hears of the figures' events (the metrics), by child. */
export interface FiguresSink {
  answered(child: string, resource: string, status: string): void;
  loggedIn(child: string, outcome: string): void;
  /** A pass of the account ran for `ms`. */
  passed(child: string, ms: number): void;
  /** A safety read found a change the change feed never named. */
  changeFeedMissed(child: string, resource: string): void;
}

const WEEK_MS = 7 * 24 * 60 * 60_000;
/** Problems kept at most (a flapping problem must not grow the file without end). */
const MAX_PROBLEMS = 50;

/** What is kept, as it is saved: all but what is asked when saving (the child, the road, the session, the last pass's plans). */
type Kept = Omit<SavedFigures, 'version' | 'child' | 'road' | 'saved_at' | 'logged_in_at' | 'next_reads' | 'change_feed' | 'plan' | 'school_year'>;
/** The counts of one Warsaw day. */
const dayCounts = (day: string) => ({ day, requests: {}, logins: 0, failed_logins: 0, bootstraps: 0 });

export interface AccountFiguresOptions {
  clock: Clock;
  urls: PortalUrls;
  /** The child's id now (it changes once the child's name is known). */
  child: () => string;
  /** When the session in use began (its password login). */
  sessionSince: () => number | undefined;
  /** The road the account is read through now: `register` or `family` (a child on both roads changes it). */
  road: () => string;
  sink?: FiguresSink;
  /** Where the figures are kept in data_dir (`dziennik2mqtt diagnostics` reads them beside the bridge). */
  store: FiguresStore;
  log: Logger;
}

export class AccountFigures implements PortalObserver {
  private kept: Kept = { ...dayCounts(''), reads: {}, problems: [] };
  /** The reads the scheduler planned after the last pass (set by the account's runner). */
  nextReads: NonNullable<SavedFigures['next_reads']> = [];
  /** The change feed as the last pass left it (set by the account's runner). */
  changeFeed: SavedFigures['change_feed'];
  /** A school or a kindergarten, and where its kindergarten plan comes from (set by the account's runner). */
  kindergartenPlan: SavedFigures['plan'];

  /** The school year as the identity last read gave it (set by the account's runner). */
  schoolYear: SchoolYearFigures;

  /** The last write of the figures (writes run one after another, off the pass's path). */
  written: Promise<void> = Promise.resolve();

  constructor(private readonly options: AccountFiguresOptions) {}

  /**
   * Keeps the figures in data_dir, in the background: a pass never waits on the disk for them (it would
   * move its next timer), and one write follows another. A stop waits for the last.
   */
  save(): Promise<void> {
    const { store, log } = this.options;
    // Spelt out now rather than copied to be spelt out later: a copy and then its text cost twice.
    this.written = store
      .save(this.figures(), this.written)
      .catch((error: Error) => log.debug({ err: error.message }, 'could not save the diagnostics figures'));
    return this.written;
  }

  answered(resource: string, status: string): void {
    const now = this.today();
    const { requests, reads } = this.kept;
    requests[resource] = (requests[resource] ?? 0) + 1;
    reads[resource] = { status, at: now, ok_at: status === 'ok' ? now : reads[resource]?.ok_at };
    this.options.sink?.answered(this.options.child(), resource, status);
  }

  login(): ReturnType<PortalObserver['login']> {
    const trace = new LoginTrace(this.options.urls);
    const at = this.today();
    return {
      exchange: (exchange) => trace.record(exchange),
      ended: (outcome) => {
        this.kept.logins++;
        if (outcome !== 'ok') this.kept.failed_logins++;
        trace.outcome(outcome === 'ok' ? 'logged in' : `failed: ${outcome}`);
        this.kept.last_login = { at, outcome, transcript: trace.entries() };
        this.options.sink?.loggedIn(this.options.child(), outcome);
      },
    };
  }

  bootstrapped(): void {
    this.today();
    this.kept.bootstraps++;
  }

  /** A pass ran for `ms` (the metrics' histogram). */
  passed(ms: number): void {
    this.options.sink?.passed(this.options.child(), ms);
  }

  /**
   * What `problem` says after a pass: a problem is noted with its time when it appears, or when its
   * reason, the portal's words or its resource change; the same one again only after it cleared.
   * Returns when the problem on now began (`problem`'s `since`), undefined while there is none.
   */
  noteProblem(now: number, facts: ProblemFacts | undefined): number | undefined {
    if (facts === undefined || facts.reason === null) {
      this.kept.problem_since = undefined;
      return undefined;
    }
    const { reason, portal_message, resource, detail } = facts;
    // No problem was on (`problem` went OFF since the last one was noted): the same problem again is new.
    const cleared = this.kept.problem_since === undefined;
    // Other words from the portal are the same problem still: only another reason begins a new one.
    if (this.kept.problem_since?.reason !== reason) this.kept.problem_since = { reason, at: now };
    const last = this.kept.problems.at(-1);
    const same = last?.reason === reason && last.portal_message === portal_message && last.resource === resource;
    if (!same || cleared) {
      const entry = { at: now, reason, portal_message, resource, detail };
      this.kept.problems = [...this.kept.problems.filter((p) => now - p.at < WEEK_MS), entry].slice(-MAX_PROBLEMS);
    }
    return this.kept.problem_since.at;
  }

  /** What the account's diagnostic entities show now (no portal request; their declarations in entities.ts). */
  view(now: number): FiguresView {
    this.today();
    const { requests, bootstraps, logins, failed_logins, reads, last_login } = this.kept;
    const okAts = Object.values(reads).flatMap((r) => (r.ok_at === undefined ? [] : [r.ok_at]));
    const since = this.options.sessionSince();
    return {
      requests,
      bootstraps,
      logins,
      failedLogins: failed_logins,
      lastLogin: last_login?.outcome ?? null,
      lastRead: okAts.length === 0 ? null : Math.max(...okAts),
      sessionMinutes: since === undefined ? null : Math.floor(Math.max(0, now - since) / 60_000),
    };
  }

  /** A safety read found a change the change feed never named: counted, and said once per resource in the log. */
  changeFeedMissed(resource: string): void {
    const missed = (this.kept.feed_missed ??= {});
    missed[resource] = (missed[resource] ?? 0) + 1;
    this.options.sink?.changeFeedMissed(this.options.child(), resource);
    if (missed[resource] === 1)
      this.options.log.warn(
        { resource },
        'change feed: a safety read found a change the feed never named (counted as feed_missed in the diagnostics)',
      );
  }

  /** The figures now, a copy (the counts go on while its reader holds it). */
  snapshot(): SavedFigures {
    return structuredClone(this.figures());
  }

  /** The figures now, as they are kept (not a copy). */
  private figures(): SavedFigures {
    const now = this.today();
    return {
      version: 1,
      child: this.options.child(),
      road: this.options.road(),
      saved_at: now,
      ...this.kept,
      problems: this.kept.problems.filter((p) => now - p.at < WEEK_MS),
      logged_in_at: this.options.sessionSince(),
      next_reads: this.nextReads.length === 0 ? undefined : this.nextReads,
      change_feed: this.changeFeed,
      plan: this.kindergartenPlan,
      school_year: this.schoolYear,
    };
  }

  /** Takes up what the last run saved: the day's counts only on the same day. A broken file is told to onBroken. */
  async restore(onBroken?: (error: Error) => void): Promise<void> {
    const saved = await this.options.store.load(onBroken).catch(() => undefined);
    if (!saved) return;
    const { day, requests, logins, failed_logins, bootstraps, reads, problems, problem_since, last_login, feed_missed } = saved;
    this.kept = { day, requests, logins, failed_logins, bootstraps, reads, problems, problem_since, last_login, feed_missed };
    this.kindergartenPlan = saved.plan;
    this.schoolYear = saved.school_year;
    this.today();
  }

  /** Now, after starting a new day's counts when the day changed (Warsaw's day). */
  private today(): number {
    const now = this.options.clock.now();
    const day = warsawDate(now);
    if (day !== this.kept.day) Object.assign(this.kept, dayCounts(day));
    return now;
  }
}

/** The school year of the diagnostics from the child's identity: the year's dates and the class as the portal last answered them. */
export function schoolYearFacts(identity: Identity | undefined): SchoolYearFigures {
  if (identity === undefined) return undefined;
  const { schoolYearBegin: begins, semester1End: first_semester_ends, schoolYearEnd: ends, className, fetchedAt: read_at } = identity;
  return { begins, first_semester_ends, ends, class: className, read_at };
}
