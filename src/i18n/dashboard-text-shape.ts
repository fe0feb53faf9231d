// What the dashboard says, word by word: every language's text (dashboard-text.ts, dashboard-text-uk.ts)
// fills this one shape, so a label missing in one language does not compile.
import type { ChangeKind } from '../school/plan-changes.js';
import type { AgendaEntryKind } from '../school/calendar-feeds.js';

export interface DashboardText {
  title: string;
  header: string;
  family: string;
  /** The link to the bridge's own family board (the web server). */
  board: string;
  diagnostics: string;
  problem: string;
  /** Shown when the problem carries no advice (an old retained state): never its reason code. */
  problemUnknown: string;
  /** Monday first, as Python's weekday() counts. */
  weekdays: readonly string[];
  weekdaysShort: readonly string[];
  decimal: string;
  lessonNow: string;
  /** Beside today's heading while at_school is ON. */
  atSchool: string;
  /** The same for a kindergarten child (a day of blocks, interface 12.2). */
  atKindergarten: string;
  nextLesson: string;
  noMoreLessons: string;
  noLessonsToday: string;
  /** A kindergarten's day: its blocks are activities, not lessons. */
  noMoreActivities: string;
  noActivitiesToday: string;
  activities: string;
  lessons: string;
  room: string;
  changes: string;
  noChanges: string;
  from: string;
  /** A changed lesson's change in words (src/i18n/lesson-words.ts). */
  kinds: Readonly<Record<ChangeKind, string>>;
  /** What an agenda entry is, for one that names no subject (src/i18n/lesson-words.ts). */
  agendaKinds: Readonly<Record<AgendaEntryKind, string>>;
  /** A lesson moved away, from template expressions that print its day and lesson number (i18n/lesson-words). */
  movedTo: (day: string, lessonNo: string) => string;
  homework: string;
  noHomework: string;
  testsWeek: string;
  noTestsWeek: string;
  grades: string;
  newestGrades: string;
  noGrades: string;
  averages: string;
  subject: string;
  average: string;
  /** Beside our average: the school's own, where the two differ ("school 4.29"). */
  schoolAverage: string;
  count: string;
  /** Beside a subject's percentage of points ("90.0 % pts"). */
  pointsShort: string;
  /** Before a proposed semester or final grade ("proposed end of year: 4"). */
  proposal: string;
  /** Before the first semester's average, shown through the second ("1st semester: 4.25"). */
  firstSemester: string;
  /** What the next threshold needs: the template puts the grade for {grade} and the threshold for {threshold}. */
  neededForNext: string;
  /** Before the subjects whose average is below the first threshold. */
  atRisk: string;
  /**
   * The grades' forecast: the averages table's column, the report card's mean of the forecasts beside the
   * averages' heading, honours in sight, and what lifts a subject a grade ({count} grades of {grade}).
   */
  forecast: { column: string; reportCard: string; honours: string; toNext: string };
  /** The lessons card: the topics taught lately, what to revise before the next test, the lessons missed. */
  lessonTopics: string;
  noLessonTopics: string;
  revise: string;
  catchUp: string;
  noCatchUp: string;
  notesAbsences: string;
  newestNote: string;
  noNotes: string;
  signature: string;
  /** Words of a note that asks a parent to sign; a template searches the note for them (either language). */
  signatureWords: string;
  unexcused: string;
  noUnexcused: string;
  attendance: string;
  library: string;
  noBooks: string;
  /** The formal behaviour grade's heading, and its semester and final grades. */
  behaviour: string;
  semesterGrade: string;
  finalGrade: string;
  schoolFiles: string;
  noSchoolFiles: string;
  /** The newest message sent from the child's account, and who read it. */
  sentMessage: string;
  readAt: string;
  notRead: string;
  overdue: string;
  due: string;
  calendar: string;
  /** homework_upcoming's card: the homework of the next two weeks. */
  homeworkUpcoming: { heading: string; none: string };
  /** school's card: the class (a kindergarten child's group), the tutor, the child's number, the year, the bells. */
  school: {
    heading: string;
    class: string;
    group: string;
    tutor: string;
    number: string;
    year: string;
    firstSemesterEnds: string;
    lesson: string;
    hours: string;
  };
  /** attendance's table: each subject's lessons present of all, absences and late arrivals. */
  attendanceBySubject: { heading: string; present: string; absent: string; excused: string; late: string };
  tests: string;
  events: string;
  noEvents: string;
  messages: string;
  newestMessage: string;
  newestNotice: string;
  /** Beside the newest message while the portal has it unread. */
  unread: string;
  openMessage: string;
  openAction: string;
  /** Opening marks the message read in the portal: the parent is told before. */
  confirmOpen: string;
  openedMessage: string;
  /** Below the opened message's topic when its sender withdrew it. */
  withdrawn: string;
  noOpenedMessage: string;
  /** Below a text the bridge cut (8,000 characters). */
  truncated: string;
  attachments: string;
  send: string;
  markRead: string;
  markReadAction: string;
  freeTextbook: string;
  /** After the due date of a lending that may be a free textbook (its due date may be a placeholder). */
  dueUnsure: string;
  confirmSend: (name: string) => string;
  confirmMarkRead: string;
  bridge: string;
  lastUpdate: string;
  refresh: string;
  refreshAction: string;
  problemRow: string;
  /** The account's figures in the bridge view (interface 9.2). */
  requestsToday: string;
  loginsToday: string;
  lastRead: string;
  sessionAge: string;
  /** The bridge's own device in the bridge view: its broker connection, its start, its memory. */
  broker: string;
  uptime: string;
  memory: string;
  /** Before the portal's advice to change the password (the bridge view, while `problem` carries it). */
  passwordAdvice: string;
}
