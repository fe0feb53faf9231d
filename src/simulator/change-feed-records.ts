// A child's register whose every change the portal's change feed names (live-notes 28-32): each way a
// test or the demo's life changes a record (account-records.ts) is recorded here, under the API's
// resource names of live-notes 31, for the devices registered at that moment (change-feed-state.ts).
import { ChildRecords, type AccountEnv, type LessonMove, type SimNotice, type SimRecords } from './account-records.js';
import type { ChangeFixture } from './fixtures.js';
import { SimChangeFeed, type ChangeFeedIds, type SimChangeInit, type SimChangeKind } from './change-feed-state.js';

export interface ChangeFeedEnv extends AccountEnv {
  /** The simulator's id counters (ids never repeat across accounts). */
  changeFeedIds: ChangeFeedIds;
}

/**
 * The change feed's name for a resource whose records change (live-notes 31); undefined for the resources the
 * official app's list leaves out (comments, trips, files, lessons held, the newer partial grades).
 * BaseTextGrades holds the text grades the list calls TextGrades; the plain free-day lists are the
 * Calendars ones; a change of the standing timetable shows as Timetables.
 */
const CHANGE_FEED_TYPES: Readonly<Record<string, string>> = {
  Grades: 'Grades',
  PointGrades: 'PointGrades',
  DescriptiveGrades: 'DescriptiveGrades',
  TextGrades: 'TextGrades',
  BaseTextGrades: 'TextGrades',
  DescriptiveTextGrades: 'DescriptiveTextGrades',
  BehaviourGrades: 'BehaviourGrades',
  'BehaviourGrades/Points': 'BehaviourGrades/Points',
  Attendances: 'Attendances',
  HomeWorks: 'HomeWorks',
  HomeWorkAssignments: 'HomeWorkAssignments',
  ParentTeacherConferences: 'ParentTeacherConferences',
  SchoolFreeDays: 'Calendars/SchoolFreeDays',
  'Calendars/SchoolFreeDays': 'Calendars/SchoolFreeDays',
  ClassFreeDays: 'Calendars/ClassFreeDays',
  'Calendars/ClassFreeDays': 'Calendars/ClassFreeDays',
  'Calendars/TeacherFreeDays': 'Calendars/TeacherFreeDays',
  'Calendars/Substitutions': 'Calendars/Substitutions',
  SchoolNotices: 'SchoolNotices',
  Notes: 'Notes',
  LuckyNumbers: 'LuckyNumbers',
  Timetables: 'Timetables',
  TimetableEntries: 'Timetables',
};

/** The change feed's resource name of a register resource, if the change feed names its changes. */
export function changeFeedType(resource: string): string | undefined {
  return CHANGE_FEED_TYPES[resource];
}

const STAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/**
 * The lists whose records the simulated clock brings into view or takes out of it (a presence mark at
 * its lesson's end, an entry dated later in a fixture, the oldest day of a rolling window): a teacher
 * entering them on the real portal makes its change feed name them.
 */
const REVEALED = [
  'Grades',
  'PointGrades',
  'DescriptiveGrades',
  'BaseTextGrades',
  'BehaviourGrades/Points',
  'Attendances',
  'HomeWorks',
  'HomeWorkAssignments',
  'ParentTeacherConferences',
  'Calendars/Substitutions',
  'SchoolNotices',
  'Notes',
] as const;

/** The ids of the records in a list's answer (`{"Grades": [{"Id": ...}, ...]}`), or undefined when it is none. */
function listedIds(answer: unknown): Set<string> | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined;
  const list = Object.values(answer).find((v): v is unknown[] => Array.isArray(v));
  if (list === undefined) return undefined;
  return new Set(list.map((r) => String((r as { Id?: unknown } | null)?.Id)));
}

export class ChangeFeedRecords extends ChildRecords {
  /** The account's change feed: its devices, their changes and the switches tests flip. */
  readonly changeFeed: SimChangeFeed;

  constructor(profile: string, env: ChangeFeedEnv, records?: SimRecords) {
    super(profile, env, records);
    this.changeFeed = new SimChangeFeed(env.changeFeedIds);
  }

  /** The ids each list in REVEALED showed at the change feed's last look. */
  private readonly seen = new Map<string, Set<string>>();
  /** The records whose changes a test or the demo's life named itself (or lost on purpose), by list. */
  private readonly named = new Map<string, Set<string>>();

  /**
   * Names what the clock brought into view or took out of it since the change feed's last look (see REVEALED),
   * `read` answering a list as the gateway would now. The first look only remembers.
   */
  reveal(read: (endpoint: string) => unknown): void {
    this.revealLucky(read('LuckyNumbers'));
    for (const endpoint of REVEALED) {
      const ids = listedIds(read(endpoint));
      if (ids === undefined) continue;
      const before = this.seen.get(endpoint);
      this.seen.set(endpoint, ids);
      if (before === undefined) continue;
      const named = this.named.get(endpoint);
      const came = [...ids].filter((id) => !before.has(id) && !named?.has(id)).map((id) => this.entry(endpoint, 'Add', id));
      const went = [...before].filter((id) => !ids.has(id) && !named?.has(id)).map((id) => this.entry(endpoint, 'Delete', id));
      this.changeFeed.record([...came, ...went], { losable: false });
    }
  }

  /** The lucky number's day at the change feed's last look. */
  private luckySeen: string | undefined;

  /**
   * Names the lucky number the clock brings into view (the school's draw: the next school day's from 15:00)
   * as the change feed names a number a test sets (live-notes 31 lists LuckyNumbers). The first look only remembers.
   */
  private revealLucky(answer: unknown): void {
    const entry = (answer as { LuckyNumber?: { LuckyNumber?: unknown; LuckyNumberDay?: unknown } | null } | null)?.LuckyNumber;
    const day = typeof entry?.LuckyNumberDay === 'string' ? entry.LuckyNumberDay : undefined;
    const before = this.luckySeen;
    this.luckySeen = day;
    if (before === undefined || day === undefined || day === before || this.named.get('LuckyNumbers')?.has(day)) return;
    this.changeFeed.record([this.entry('LuckyNumbers', 'Add', day)], { losable: false });
  }

  override addRecord<T extends Record<string, unknown>>(endpoint: string, record: T): T {
    const added = super.addRecord(endpoint, record);
    this.changed(endpoint, 'Add', added.Id, { at: added.AddDate });
    return added;
  }

  override editRecord(endpoint: string, id: number | string, fields: Record<string, unknown>): Record<string, unknown> {
    const record = super.editRecord(endpoint, id, fields);
    this.changed(endpoint, 'Edit', id);
    return record;
  }

  override removeRecord(endpoint: string, id: number | string): void {
    super.removeRecord(endpoint, id);
    this.changed(endpoint, 'Delete', id);
  }

  override addNotice(init: Partial<SimNotice> & Pick<SimNotice, 'Subject' | 'Content'>): SimNotice {
    const notice = super.addNotice(init);
    // The only change that carries extraData here: the notice's subject, as a push would show it.
    this.changed('SchoolNotices', 'Add', notice.Id, { at: notice.CreationDate, extraData: notice.Subject });
    return notice;
  }

  override addPlanChange(init: Omit<ChangeFixture, 'Id' | 'AddDate'>): ChangeFixture {
    const change = super.addPlanChange(init);
    this.changed('Calendars/Substitutions', 'Add', change.Id);
    return change;
  }

  override addFreeDay(init: Parameters<ChildRecords['addFreeDay']>[0]): { Id: number } {
    const day = super.addFreeDay(init);
    this.changed('name' in init ? 'SchoolFreeDays' : 'ClassFreeDays', 'Add', day.Id);
    return day;
  }

  override setAttendanceType(id: number | string, type: number): void {
    super.setAttendanceType(id, type);
    this.changed('Attendances', 'Edit', id);
  }

  override setLuckyNumber(n: number | null, day?: string): void {
    super.setLuckyNumber(n, day);
    this.changed('LuckyNumbers', n === null ? 'Edit' : 'Add', day ?? this.env.clock().today);
  }

  /** Both days' plans change: the slot the lesson leaves and the one it goes to (one record change). */
  override moveLesson(move: LessonMove): void {
    super.moveLesson(move);
    const days = [...new Set([move.from.date, move.to.date])];
    this.changeFeed.record(days.map((date) => this.entry('Timetables', 'Edit', date)));
  }

  override addGroupLesson(init: { weekday: number; lessonNo: number; lesson: number; classroom: number }): void {
    super.addGroupLesson(init);
    this.changed('TimetableEntries', 'Edit', init.lesson);
  }

  /** Records one change of a record of `resource`, when the change feed names that resource. */
  private changed(resource: string, kind: SimChangeKind, id: unknown, options: { at?: unknown; extraData?: string } = {}): void {
    const type = changeFeedType(resource);
    if (type === undefined || (typeof id !== 'string' && typeof id !== 'number')) return;
    // Named here (or lost on purpose): what the clock reveals of it is never named again.
    this.named.set(resource, (this.named.get(resource) ?? new Set()).add(String(id)));
    this.changeFeed.record([this.entry(type, kind, String(id), options)]);
  }

  /**
   * The change as the change feed lists it, stamped now; a record dated later (an AddDate written out in
   * full) is listed from that moment, as the record itself shows only then.
   */
  private entry(type: string, kind: SimChangeKind, recordId: string, options: { at?: unknown; extraData?: string } = {}): SimChangeInit {
    const now = this.stamp();
    const at = typeof options.at === 'string' && STAMP.test(options.at) && options.at > now ? options.at : now;
    return { kind, type: changeFeedType(type) ?? type, recordId, addDate: at, extraData: options.extraData ?? null };
  }
}
