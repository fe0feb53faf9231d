// A child's records as the portal serves them (spec part 2), read the way any client would: a login by hand through
// the tests' tiny browser (test/helpers/simulator.ts; over the simulator's in-process dispatcher, as the worlds' bridge
// reads, the same handlers without a socket), then each gateway list the reference needs, kept as the JSON
// came; the mailboxes as the messaging host keeps them. Nothing of the bridge's portal client is used: what the
// reference knows of the school is what the portal answers.
import type { PortalSimulator } from '../../../src/simulator/index.js';
import { gatewayGet, logIn, TinyBrowser } from '../simulator.js';
import { addDays, mondayOf } from './dates.js';

/** The gateway lists the reference reads (spec 2.2 to 2.9). */
export const READ = [
  'Classes',
  'LuckyNumbers',
  'TimetableEntries',
  'Lessons',
  'Subjects',
  'Users',
  'Classrooms',
  'Grades',
  'Grades/Categories',
  'GradingSystem',
  'HomeWorks',
  'HomeWorks/Categories',
  'Attendances',
  'Attendances/Types',
  'ClassFreeDays',
  'SchoolNotices',
] as const;

/** The mailboxes a parent reads (spec 2.10), without the trash. */
export const MAILBOXES = ['inbox', 'notes', 'alerts', 'substitutions', 'absences', 'justifications'] as const;

export interface Message {
  mailbox: (typeof MAILBOXES)[number];
  topic: string;
  unread: boolean;
  sent: string;
}

/** What the portal holds of one child at one moment. */
export interface Records {
  /** The Warsaw date the records were read on. */
  today: string;
  /** Each list's answer as it came, null where the portal refused it (any status but 200). */
  lists: Partial<Record<(typeof READ)[number], unknown>>;
  /** Timetables by date: the day's slots, each a list of lessons (several for a split class). */
  days: Record<string, unknown[][]>;
  messages: Message[];
}

/** The weeks of Timetables read: the one before this, this, and the two after it. */
const WEEKS = [-7, 0, 7, 14];

/** Reads a child's records from a running simulator by its own login. */
export async function readRecords(sim: PortalSimulator, login: string, password: string, today: string): Promise<Records> {
  const browser = await logIn(sim, login, password, new TinyBrowser(sim.dispatcher()));
  const get = async (endpoint: string): Promise<unknown> => {
    const answer = await gatewayGet(sim, browser, endpoint);
    return answer.status === 200 ? answer.body : null;
  };
  const lists: Records['lists'] = {};
  for (const endpoint of READ) lists[endpoint] = await get(endpoint);
  const days: Records['days'] = {};
  for (const week of WEEKS) {
    const answer = (await get(`Timetables?weekStart=${addDays(mondayOf(today), week)}`)) as { Timetable?: Record<string, unknown[][]> } | null;
    Object.assign(days, answer?.Timetable ?? {});
  }
  const messages = MAILBOXES.flatMap((mailbox) =>
    sim.messaging.box(login, mailbox).map((m) => ({ mailbox, topic: m.topic, unread: m.readDate === null, sent: m.sent })),
  );
  return { today, lists, days, messages };
}
