// One simulated login: the child's register (ChildRecords, account-records.ts; its changes named by the
// change feed, change-feed-records.ts) with the login's password and LIDs, and the switches tests use to change
// how the portal answers it ("the password was changed", "module X answers 403", a raw body for an endpoint).
import { createHash } from 'node:crypto';
import { ChangeFeedRecords, type ChangeFeedEnv } from './change-feed-records.js';
import { SimKindergarten } from './kindergarten.js';
import type { SimRecords } from './account-records.js';
import { HOSTILE_STANDING_TIMETABLE, hostileStandingEntries } from './data/timetable.js';

export interface SimAccountInit {
  login: string;
  password: string;
  /**
   * Which child fixture to start from: 'ania' (default, class 4b), 'janek' (class 1a) or 'zosia' (a kindergarten group);
   * with `records`, the profile names only its mailboxes (messages.json).
   */
  profile?: string;
  /** The child's (and the school's) records as data, in the fixtures' form, in place of the profile's files: a generated world's. */
  records?: SimRecords;
  firstName?: string;
  lastName?: string;
  registerNumber?: number;
  /**
   * Fixed messages the demo offers for this account in its config (same shape as the config's
   * accounts[].messages). The simulator itself does not read them.
   */
  messages?: DemoMessage[];
}

export interface DemoMessage {
  id: string;
  name: string;
  to: 'class_tutor' | { teacher: string } | { account_id: string };
  topic: string;
  body: string;
}

/**
 * How a gateway endpoint should answer for this account instead of its normal answer; 'disabled' is a
 * module the school switched off (200 {"Status":"Disabled"}, live-notes 9).
 */
export type ModuleStatus = 403 | 404 | 405 | 'insufficient_scopes' | 'disabled';

/**
 * How the school answers LuckyNumbers (live-notes 8): 'object' (the usual), 'list', 'null' (not
 * active), 'disabled' (200 Status Disabled), 'not_active' (400 Code LuckyNumberIsNotActive).
 */
export type LuckyForm = 'object' | 'list' | 'null' | 'disabled' | 'not_active';

/** A UUID-shaped value derived from text, so an account's LIDs are stable and differ per login. */
function uuidFrom(text: string): string {
  const h = createHash('sha1').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export class SimAccount extends ChangeFeedRecords {
  readonly login: string;
  password: string;
  /** The parent's LID (Auth/TokenInfo.UserIdentifier). */
  readonly parentLid: string;
  /** The child's LID (Users/{UserId}.AccountId and Auth/UserInfo IdentifierOfStudentAssignedWithUser). */
  readonly childLid: string;
  luckyForm: LuckyForm = 'object';
  /** The school is a complex of two units, the other one listed first (live-notes 10). */
  schoolComplex = false;
  /** The unit the child belongs to (Users/<id>.Unit): 1, the primary school; 2, the complex's lyceum. */
  unitId = 1;
  readonly moduleStatus = new Map<string, ModuleStatus>();
  readonly overrides = new Map<string, unknown>();
  /**
   * The day the child's records were laid out on, for a test that lives through weeks: while set, the
   * fixtures' dates relative to today (today, weekday, monday) count from it, so that, as in a real
   * register, nothing moves by itself as the days pass (a grade of last Tuesday stays last Tuesday's);
   * the clock, the timetable and the school year go on. Undefined (the default): the demo always looks current.
   * The messaging host's mailboxes are not held (their dates follow today; a message is known by its id).
   */
  recordsHeldOn: string | undefined;
  /** A kindergarten child's plan of blocks, lookups and switches (a profile with a `kindergarten` part); undefined for a pupil. */
  readonly kindergarten: SimKindergarten | undefined;

  constructor(init: SimAccountInit, env: ChangeFeedEnv) {
    super(init.profile ?? 'ania', env, init.records);
    this.login = init.login;
    this.password = init.password;
    const child = this.data.account.child;
    if (init.firstName !== undefined) child.firstName = init.firstName;
    if (init.lastName !== undefined) child.lastName = init.lastName;
    if (init.registerNumber !== undefined) this.data.account.registerNumber = init.registerNumber;
    this.data.account.login = init.login;
    this.data.account.password = init.password;
    this.parentLid = `LID-AUTH-USER-${uuidFrom(`parent:${init.login}`)}`;
    this.childLid = `LID-AUTH-USER-${uuidFrom(`child:${init.login}`)}`;
    this.kindergarten = this.data.kindergarten ? new SimKindergarten(this.data.kindergarten, this) : undefined;
  }

  /** How LuckyNumbers answers from now on (see LuckyForm). */
  setLuckyForm(form: LuckyForm): void {
    this.luckyForm = form;
  }

  /**
   * Overrides how an endpoint answers (null restores it). The endpoint is the path after
   * /gateway/api/2.0/; one ending in '/*' also covers everything under it.
   */
  setModuleStatus(endpoint: string, status: ModuleStatus | null): void {
    if (status === null) this.moduleStatus.delete(endpoint);
    else this.moduleStatus.set(endpoint, status);
  }

  /** Serves this raw JSON body (tokens expanded) for the endpoint; undefined restores the normal answer. */
  setResource(endpoint: string, body: unknown): void {
    if (body === undefined) this.overrides.delete(endpoint);
    else this.overrides.set(endpoint, body);
  }

  /**
   * TimetableEntries answers a hostile portal's standing plan (interface 19.2) in place of the child's own: `entries`
   * entries and `repeats` of them again (data/timetable.ts hostileStandingEntries).
   */
  serveHostileStandingTimetable({ entries, repeats } = HOSTILE_STANDING_TIMETABLE): void {
    this.setResource('TimetableEntries', { TimetableEntries: hostileStandingEntries(Object.keys(this.data.lessons), entries, repeats) });
  }

  /**
   * The school publishes its own averages (live-notes 12): Grades/Averages answers them per subject id
   * as [Semester1, Semester2, FullYear] (0: none yet); null: averages switched off (Status Disabled).
   */
  setSchoolAverages(bySubject: Record<number, [number, number, number]> | null): void {
    if (bySubject === null) {
      this.overrides.delete('Grades/Averages');
      return;
    }
    const Averages = Object.entries(bySubject).map(([subject, [Semester1, Semester2, FullYear]]) => ({
      Student: `@Users/${this.data.account.userId}`,
      Subject: `@Subjects/${subject}`,
      Semester1,
      Semester2,
      FullYear,
    }));
    this.overrides.set('Grades/Averages', { Averages });
  }
}
