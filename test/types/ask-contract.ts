// The contract from a feature to Assist (interface 17.1), checked by the typecheck (`npm run typecheck`, and
// `npm test`'s checks), never run, as timetable-contract.ts checks the screens': each feature's `ask` part reads the
// facts its own pass keeps, typed by the feature (`… satisfies GradesAsk` where the pass makes them), so a field the
// part reads that is renamed where the feature declares it fails to compile where the part reads it. Each
// `@ts-expect-error` below is a copy of a feature's facts with one field the part reads renamed (a field of the facts,
// or of the view's records inside them: a grade's comment, a day's lessons, a note's text), handed to the part: the
// line compiles only if the part stopped taking the feature's own type (facts read loosely, as the answers once read
// attributes), and then the typecheck fails on the unused directive. That the rename then fails inside the part, where
// it reads the field, is the compiler's own rule for typed code; this file keeps the parts typed.
import type { AskContext, AskPart } from '../../src/features/screens/ask.js';
import { timetableAsk, type TimetableAsk } from '../../src/features/timetable/ask.js';
import { agendaAsk, type AgendaAsk } from '../../src/features/agenda/ask.js';
import { gradesAsk, type GradesAsk } from '../../src/features/grades/ask.js';
import { attendanceAsk, type AttendanceAsk } from '../../src/features/attendance/ask.js';
import { lessonsHeldAsk, type LessonsHeldAsk } from '../../src/features/lessons-held/ask.js';
import { behaviourAsk, type BehaviourAsk } from '../../src/features/behaviour/ask.js';
import { notesAsk, type NotesAsk } from '../../src/features/notes/ask.js';
import { streaksAsk, type StreaksAsk } from '../../src/features/streaks/ask.js';
import { schoolAsk, type SchoolAsk } from '../../src/features/school-year/ask.js';
import { luckyAsk, type LuckyAsk } from '../../src/features/lucky/ask.js';
import { schoolFilesAsk, type SchoolFilesAsk } from '../../src/features/school-files/ask.js';
import { messagesAsk, type MessagesAsk } from '../../src/features/messages/ask.js';
import { noticesAsk, type NoticesAsk } from '../../src/features/notices/ask.js';
import { sentAsk, type SentAsk } from '../../src/features/sent-message/ask.js';
import { openedAsk, type OpenedAsk } from '../../src/features/opened-message/ask.js';
import { writeAsk, type WriteAsk } from '../../src/features/message-write/ask.js';
import { FEATURES } from '../../src/features/index.js';

/** T with its field K renamed to `renamed` (a copy of the feature's type after a rename). */
type Renamed<T, K extends keyof T> = Omit<T, K> & { renamed: T[K] };
/** A list of T with each item's field K renamed. */
type RenamedItems<T, K extends keyof T> = readonly Renamed<T, K>[];
type Item<L> = NonNullable<L> extends readonly (infer I)[] ? I : never;

/** True when A and B are one type (each assignable to the other). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** The facts a part reads: its `unknown`'s type, which each of its questions takes. */
type FactsOf<P> = P extends AskPart<infer F> ? F : never;

// Each part reads exactly the facts its feature's pass keeps (the type the pass's `satisfies` names).
export const typed: [
  Same<FactsOf<typeof timetableAsk>, TimetableAsk>,
  Same<FactsOf<typeof gradesAsk>, GradesAsk>,
  Same<FactsOf<typeof attendanceAsk>, AttendanceAsk>,
  Same<FactsOf<typeof writeAsk>, WriteAsk>,
] = [true, true, true, true];

// Every feature with a part is in the features' list the MCP server assembles (a part not listed is never asked).
export const listed: number = FEATURES.filter((f) => f.ask !== undefined).length;

declare const c: AskContext;

export function renamedFacts(
  timetable: Renamed<TimetableAsk, 'fortnight'>,
  day: Omit<TimetableAsk, 'fortnight'> & { fortnight: RenamedItems<Item<TimetableAsk['fortnight']>, 'lessons'> },
  agenda: Omit<AgendaAsk, 'items'> & { items: RenamedItems<Item<AgendaAsk['items']>, 'date'> },
  grades: Renamed<GradesAsk, 'items'>,
  comment: Omit<GradesAsk, 'items'> & { items: RenamedItems<Item<GradesAsk['items']>, 'comment'> },
  attendance: Renamed<AttendanceAsk, 'semester'>,
  topics: Renamed<LessonsHeldAsk, 'recent'>,
  behaviour: Renamed<BehaviourAsk, 'view'>,
  notes: Omit<NotesAsk, 'notes'> & { notes: RenamedItems<Item<NotesAsk['notes']>, 'text'> },
  streak: Renamed<StreaksAsk, 'daysWithoutNegativeNote'>,
  school: Renamed<SchoolAsk, 'tutor'>,
  lucky: Renamed<LuckyAsk, 'number'>,
  files: Omit<SchoolFilesAsk, 'files'> & { files: RenamedItems<Item<SchoolFilesAsk['files']>, 'name'> },
  messages: Renamed<Extract<MessagesAsk, { listed: unknown }>, 'listed'>,
  notices: Omit<NoticesAsk, 'notices'> & { notices: RenamedItems<Item<NoticesAsk['notices']>, 'content'> },
  sent: Omit<SentAsk, 'sent'> & { sent: RenamedItems<Item<SentAsk['sent']>, 'receivers'> },
  opened: Renamed<OpenedAsk, 'record'>,
  write: Omit<WriteAsk, 'targets'> & { targets: RenamedItems<Item<WriteAsk['targets']>, 'person'> },
): unknown[] {
  return [
    // @ts-expect-error get_day reads the timetable's days as `fortnight`
    timetableAsk.day?.(timetable, '2026-11-19', c),
    // @ts-expect-error get_day reads each day's `lessons`
    timetableAsk.day?.(day, '2026-11-19', c),
    // @ts-expect-error get_day and get_upcoming read each agenda entry's `date`
    agendaAsk.upcoming?.(agenda, '2026-11-30', c),
    // @ts-expect-error get_grades reads the grades as `items`
    gradesAsk.grades?.(grades, { subject: null, days: null }, c),
    // @ts-expect-error get_grades tells each grade's `comment`
    gradesAsk.grades?.(comment, { subject: null, days: null }, c),
    // @ts-expect-error get_attendance reads the semester's attendance as `semester`
    attendanceAsk.attendance?.(attendance, { days: null }, c),
    // @ts-expect-error get_lesson_topics reads the lessons held as `recent`
    lessonsHeldAsk.topics?.(topics, { subject: null, days: 14 }, c),
    // @ts-expect-error get_behaviour reads the behaviour grade's `view`
    behaviourAsk.behaviour?.(behaviour, c),
    // @ts-expect-error get_behaviour tells each note's `text`
    notesAsk.behaviour?.(notes, c),
    // @ts-expect-error get_behaviour tells the days without a negative note
    streaksAsk.behaviour?.(streak, c),
    // @ts-expect-error get_school tells the class `tutor`
    schoolAsk.school?.(school, c),
    // @ts-expect-error get_school tells the lucky `number`
    luckyAsk.school?.(lucky, c),
    // @ts-expect-error get_school tells each file's `name`
    schoolFilesAsk.school?.(files, c),
    // @ts-expect-error get_messages reads the mailboxes' lists as `listed`
    messagesAsk.messages?.(messages, { days: 14 }, c),
    // @ts-expect-error get_messages tells each announcement's `content`
    noticesAsk.messages?.(notices, { days: 14 }, c),
    // @ts-expect-error get_messages tells who read each sent message (`receivers`)
    sentAsk.messages?.(sent, { days: 14 }, c),
    // @ts-expect-error open_message tells the opened `record`
    openedAsk.opened?.(opened, c),
    // @ts-expect-error send_message's preview names the recipient's `person`
    writeAsk.recipient?.(write, 'class_tutor'),
  ];
}
