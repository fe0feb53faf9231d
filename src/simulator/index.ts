// The fake portal: five hosts on loopback (portal, auth and the family road's API, messages, sandbox,
// the family portal) that follow the portal interface spec and live-notes 21-32 (the change feed included:
// `sim.account(login).changeFeed`), with switches tests use to play failures. Used by the unit and integration
// tests and by the `demo` command.
import { SimAccount } from './account.js';
import type { SimAccountInit } from './account.js';
import { authHost } from './auth.js';
import { warsawNow } from './dates.js';
import { buildSchoolDays, type SchoolDays } from './data/school-days.js';
import { SimDownloads } from './download-state.js';
import { familyHost } from './family.js';
import { SimFamilies, type SimFamilyInit } from './family-state.js';
import { Faults, matches } from './faults.js';
import { changeFeedIds } from './change-feed-state.js';
import { Hosts } from './hosts.js';
import { InProcessDispatcher } from './in-process.js';
import { messagesHost } from './messages.js';
import { SimMessaging } from './messaging-state.js';
import { portalHost } from './portal.js';
import { sandboxHost } from './sandbox.js';
import { SessionStore } from './sessions.js';
import type { RequestMatch, SimRequest, SimUrls } from './types.js';
import type { CaptchaWhere, LoginRefusal, World } from './world.js';
export type { LoginRefusal } from './world.js';
import type { LiveLoginSwitch } from './auth-live.js';
export { LIVE_LOGIN_SWITCHES, type LiveLoginSwitch } from './auth-live.js';

export { SimAccount } from './account.js';
export type { DemoMessage, LuckyForm, ModuleStatus, SimAccountInit } from './account.js';
export { SimKindergarten, type BearerAt, type KindergartenFixture } from './kindergarten.js';
export type { GradeInit, LessonMove, SimNotice, SimRecords } from './account-records.js';
export type { ChangeFixture, ChildFixture, ExtraClassFixture, SchoolFixture } from './fixtures.js';
export type { AlreadyRegistered, SimChange, SimChangeKind, SimChangeFeed } from './change-feed-state.js';
export type { HostName, RequestMatch, SimRequest, SimUrls } from './types.js';
export { SimMessaging } from './messaging-state.js';
export { SimFamilies } from './family-state.js';
export type { LinkState, SimFamilyInit, SynergiaAccountEntry } from './family-state.js';
export type { NextSendAnswer, SentMessage, SimMessage, StaffFixture } from './messaging-state.js';
export type { FileKind, KeyOutcome, SimDownloads, SimFile } from './download-state.js';
export { attachmentLinkReply } from './download-attachments.js';
export { SimLife } from './life.js';
export type { LifeOptions, LifeRound } from './life.js';

export interface SimulatorOptions {
  /** 0 (default): every host its own ephemeral port; otherwise all four hosts on this port. */
  port?: number;
  /** Clock for session lifetimes and "today"; default Date.now. */
  now?: () => number;
  /** YYYY-MM-DD override of the data's today (else the Europe/Warsaw date of now()). */
  today?: string;
  /** Default: the demo family (DEMO_ACCOUNTS). */
  accounts?: SimAccountInit[];
  /** The family portal's e-mail accounts; default: DEMO_FAMILY, which links both demo children. */
  families?: SimFamilyInit[];
}

/** The demo family: two children of one school and one of its kindergarten, each with its own parent login. */
export const DEMO_ACCOUNTS: readonly SimAccountInit[] = [
  {
    login: '1234567u',
    password: 'demo-ania',
    profile: 'ania',
    messages: [
      {
        id: 'sick',
        name: 'Zgłoś nieobecność',
        to: 'class_tutor',
        topic: 'Nieobecność {first_name}',
        body: 'Dzień dobry, {first_name} jest dziś nieobecna z powodu choroby.',
      },
    ],
  },
  {
    login: '7654321u',
    password: 'demo-janek',
    profile: 'janek',
    messages: [
      {
        id: 'sick',
        name: 'Zgłoś nieobecność',
        to: 'class_tutor',
        topic: 'Nieobecność {first_name}',
        body: 'Dzień dobry, {first_name} jest dziś nieobecny z powodu choroby.',
      },
    ],
  },
  // Four years old, in the school's kindergarten (live-notes 33-36): a kindergarten plan of blocks, no grades, no timetable.
  { login: '5432167u', password: 'demo-zosia', profile: 'zosia' },
];

/**
 * The e-mail account of the family portal ("Konto LIBRUS") the tests' simulator has, linking the two school children;
 * the demo's links the preschool child too (DEMO_FAMILY_ALL).
 */
export const DEMO_FAMILY: SimFamilyInit = { email: 'rodzic@example.com', password: 'demo-rodzina', logins: ['1234567u', '7654321u'] };

/** The demo's family account: the same e-mail, linking the three demo children (the preschool child beside her siblings). */
export const DEMO_FAMILY_ALL: SimFamilyInit = { ...DEMO_FAMILY, logins: ['1234567u', '7654321u', '5432167u'] };

export class PortalSimulator {
  readonly requests: SimRequest[] = [];
  /** The messaging host's world and its test controls (mailboxes, sessions, sends). */
  readonly messaging: SimMessaging;
  /** Download keys and links, and the switches tests flip (keys that wait or fail, redirects, dead web sessions). */
  readonly downloads: SimDownloads;
  /** The family portal's e-mail accounts and the family road's switches (captcha, links, 403s, tokens). */
  readonly families: SimFamilies;
  private readonly accounts = new Map<string, SimAccount>();
  private readonly faults = new Faults(() => this.now());
  private readonly sessions: SessionStore;
  private readonly hosts: Hosts;
  private readonly now: () => number;
  private todayOverride: string | undefined;
  private captchas = new Map<string, CaptchaWhere>();
  private loopRedirects = false;
  private loginSwitches = new Set<LiveLoginSwitch>();
  private refusals = new Map<string, LoginRefusal>();
  private refreshWithoutToken = false;
  private loginCounts = new Map<string, number>();
  private seeded = false;
  /** The change feed's ids, one sequence for every account: another account's id is unknown to this one. */
  private readonly changeFeedIds = changeFeedIds();

  constructor(private readonly options: SimulatorOptions = {}) {
    this.now = options.now ?? Date.now;
    this.todayOverride = options.today;
    this.sessions = new SessionStore(this.now);
    this.messaging = new SimMessaging({ now: this.now, today: () => this.today(), account: (login) => this.accounts.get(login) });
    this.downloads = new SimDownloads({ urls: () => this.urls });
    this.families = new SimFamilies({
      now: this.now,
      studentName: (login) => {
        const child = this.accounts.get(login)?.data.account.child;
        return child && `${child.firstName} ${child.lastName}`;
      },
    });
    const world = this.world();
    this.hosts = new Hosts({
      handlers: {
        portal: portalHost(world),
        auth: authHost(world),
        messages: messagesHost(world),
        sandbox: sandboxHost(world),
        family: familyHost(world),
      },
      faults: this.faults,
      log: this.requests,
      now: this.now,
    });
  }

  async start(): Promise<void> {
    this.seed();
    await this.hosts.start(this.options.port ?? 0);
  }

  async stop(): Promise<void> {
    await this.hosts.stop();
  }

  /**
   * The hosts reached in process, without a socket, for a bridge's `dispatcher` (in-process.ts): the same answers,
   * cookies and log as over HTTP, once started.
   */
  dispatcher(): InProcessDispatcher {
    return new InProcessDispatcher({ urls: () => this.urls, exchange: (host, request) => this.hosts.exchange(host, request) });
  }

  get urls(): SimUrls {
    const urls = this.hosts.urls;
    if (!urls) throw new Error('PortalSimulator: not started');
    return urls;
  }

  addAccount(init: SimAccountInit): SimAccount {
    this.seed();
    if (this.accounts.has(init.login)) throw new Error(`PortalSimulator: account ${init.login} exists`);
    const account = new SimAccount(init, {
      clock: () => ({ today: this.today(), time: warsawNow(this.now()).time }),
      changeFeedIds: this.changeFeedIds,
    });
    this.accounts.set(init.login, account);
    return account;
  }

  account(login: string): SimAccount {
    this.seed();
    const account = this.accounts.get(login);
    if (!account) throw new Error(`PortalSimulator: no account ${login}`);
    return account;
  }

  /** The simulated today: the override, or the Warsaw date of now(). */
  today(): string {
    return this.todayOverride ?? warsawNow(this.now()).date;
  }

  setToday(date: string | undefined): void {
    if (date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`PortalSimulator: bad date ${date}`);
    this.todayOverride = date;
  }

  /** An account's school calendar as its requests see it now: school days, lessons, announced changes. */
  schoolDays(login: string): SchoolDays {
    const account = this.account(login);
    const now = this.now();
    const base = this.hosts.urls?.base_url ?? '';
    return buildSchoolDays({
      account,
      today: this.today(),
      nowMs: now,
      recordsDay: account.recordsHeldOn,
      clock: warsawNow(now).time,
      api: `${base}/gateway/api/2.0`,
      base,
      method: 'GET',
      query: new URLSearchParams(),
      body: '',
      params: {},
    });
  }

  /** Kills server-side sessions: the next gateway call answers the dead-session 401. */
  expireSessions(login?: string): void {
    this.sessions.expire(login);
  }

  /** 'login': step 3 answers a captcha; 'redirect': a hop of step 4 does; false: no captcha. */
  requireCaptcha(login: string | '*', where: CaptchaWhere | false): void {
    if (where === false) this.captchas.delete(login);
    else this.captchas.set(login, where);
  }

  /** Step 3 refuses this login with these words (a locked account), whatever the password; null lifts it. */
  refuseLogin(login: string, refusal: LoginRefusal | null): void {
    if (refusal === null) this.refusals.delete(login);
    else this.refusals.set(login, refusal);
  }

  /**
   * Plays the live portal's login of 2026 (live-notes 16-18, `login-2026`) or its page for a leaked
   * password (live-notes 19, `password-leak`); the spec's flow is the default.
   */
  setLoginSwitch(name: LiveLoginSwitch, on: boolean): void {
    if (on) this.loginSwitches.add(name);
    else this.loginSwitches.delete(name);
  }

  /** Step 4 redirects forever. */
  setRedirectLoop(on: boolean): void {
    this.loopRedirects = on;
  }

  /** refreshToken answers 200 but sets no new oauth_token (and does not extend the session). */
  setRefreshWithoutToken(on: boolean): void {
    this.refreshWithoutToken = on;
  }

  /** Ends every failure, delay and huge answer set so far (the portal as it is again). */
  clearFaults(): void {
    this.faults.clear();
  }

  /** The next `count` matching requests answer `status` (503, 200: maintenance page; 500: empty HTML; 0: the connection reset, no answer). */
  failNext(count: number, status: number, match?: RequestMatch): void {
    this.faults.failNext(count, status, match);
  }

  /** Every matching request answers `status` for the next `ms` of the simulator's clock (200: the maintenance page, as 503 gives it). */
  failFor(ms: number, status: number, match?: RequestMatch): void {
    this.faults.failFor(ms, status, match);
  }

  /**
   * The next `count` matching requests answer 200 with `bytes` of valid JSON, written in 64 KB pieces
   * as the client reads them (never built whole): a broken or hostile server's endless answer. By
   * default chunked, so only counting the body can catch it; announceLength sends a Content-Length.
   */
  answerHugeNext(count: number, bytes: number, match?: RequestMatch, options: { announceLength?: boolean } = {}): void {
    this.faults.hugeNext(count, { bytes, announceLength: options.announceLength ?? false }, match);
  }

  /** Delays matching requests; 0 clears the delay for that match (or every delay without one). */
  setLatency(ms: number, match?: RequestMatch): void {
    this.faults.setLatency(ms, match);
  }

  count(match?: RequestMatch): number {
    return this.requests.filter((r) => matches(match, r)).length;
  }

  /** Forgets the request log and the login counts. */
  resetCounts(): void {
    this.requests.length = 0;
    this.loginCounts.clear();
  }

  /** Successful password logins (step 3 accepted), of one login or of all. */
  logins(login?: string): number {
    if (login !== undefined) return this.loginCounts.get(login) ?? 0;
    return [...this.loginCounts.values()].reduce((a, b) => a + b, 0);
  }

  /** Accounts are created on first use, not in the constructor, which only assigns. */
  private seed(): void {
    if (this.seeded) return;
    this.seeded = true;
    for (const init of this.options.accounts ?? DEMO_ACCOUNTS) this.addAccount(init);
    for (const family of this.options.families ?? (this.options.accounts ? [] : [DEMO_FAMILY])) this.families.add(family);
  }

  private world(): World {
    return {
      now: () => this.now(),
      today: () => this.today(),
      urls: () => this.urls,
      sessions: this.sessions,
      messaging: this.messaging,
      account: (login) => this.accounts.get(login),
      captcha: (login) => this.captchas.get(login) ?? this.captchas.get('*') ?? false,
      redirectLoop: () => this.loopRedirects,
      loginSwitch: (name) => this.loginSwitches.has(name),
      loginRefusal: (login) => this.refusals.get(login),
      refreshWithoutToken: () => this.refreshWithoutToken,
      loginSucceeded: (login) => this.loginCounts.set(login, (this.loginCounts.get(login) ?? 0) + 1),
      downloads: this.downloads,
      families: this.families,
    };
  }
}
