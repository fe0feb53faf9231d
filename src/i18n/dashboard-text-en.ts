// What the dashboard says, word by word, in English: the shape every language fills (DashboardText is this
// table's type), so a label missing in Polish (dashboard-text.ts) or Ukrainian (dashboard-text-uk.ts) does not compile.
import { AGENDA_WORDS, WEEKDAYS } from './lesson-words.js';
import { FEATURE_TEXT } from './feature-text.js';

/** Words of a note that asks a parent to sign; a template searches the note for them (either language). */
export const SIGNATURE_WORDS = 'podpis|podpisa|sign';

export const EN_DASHBOARD = {
  title: 'School',
  header: 'dziennik2mqtt dashboard: in Home Assistant add a dashboard, open it, "Edit" > three dots > "Raw configuration editor", paste this.',
  family: 'Family',
  /** The link to the bridge's own family board (the web server). */
  board: 'Family board',
  diagnostics: 'Bridge',
  problem: 'The register cannot be read right now:',
  /** Shown when the problem carries no advice (an old retained state): never its reason code. */
  problemUnknown: 'the bridge reports a problem; see the Bridge view.',
  /** Monday first, as Python's weekday() counts. */
  weekdays: WEEKDAYS.en.long,
  weekdaysShort: WEEKDAYS.en.short,
  decimal: '.',
  lessonNow: 'Now',
  /** Beside today's heading while at_school is ON. */
  atSchool: 'at school',
  /** The same for a kindergarten child (a day of blocks, interface 12.2). */
  atKindergarten: 'at kindergarten',
  nextLesson: 'Next',
  noMoreLessons: 'No more lessons today.',
  noLessonsToday: 'No lessons today.',
  /** A kindergarten's day: its blocks are activities, not lessons. */
  noMoreActivities: 'No more activities today.',
  noActivitiesToday: 'No kindergarten today.',
  activities: 'Activities',
  lessons: 'Lessons',
  room: 'room',
  changes: 'Changes',
  /** How this and next week differ from the standing weekly plan (the board's and Assist's words too). */
  standing: 'Different from the standing plan',
  noChanges: 'No plan changes.',
  /** What an agenda entry is, for one that names no subject (src/i18n/lesson-words.ts). */
  agendaKinds: AGENDA_WORDS.en,
  homework: 'Homework',
  noHomework: 'No homework due.',
  testsAhead: 'Tests in the next 14 days',
  noTestsAhead: 'No tests in the next 14 days.',
  grades: 'Grades',
  yearGraph: 'Averages over the school year',
  yearAttendance: 'Attendance over the school year',
  newestGrades: 'Newest grades',
  noGrades: 'No grades yet.',
  /** The heading over the semester's descriptive and text grades, each with its comment. */
  describedGrades: 'Descriptive grades',
  averages: 'Average',
  subject: 'Subject',
  average: 'Average',
  /** Beside our average: the school's own, where the two differ ("school 4.29"). */
  schoolAverage: 'school',
  count: 'Grades',
  /** Beside a subject's percentage of points ("90.0 % pts"). */
  pointsShort: 'pts',
  /** Before a proposed semester or final grade ("proposed end of year: 4"). */
  proposal: 'proposed',
  /** Before the first semester's average, shown through the second ("1st semester: 4.25"). */
  firstSemester: '1st semester',
  /** What the next threshold needs: the template puts the grade for {grade} and the threshold for {threshold}. */
  neededForNext: '{grade} lifts it to {threshold}',
  /** Before the subjects whose average is below the first threshold. */
  atRisk: 'At risk',
  /**
   * The grades' forecast: the averages table's column, the report card's mean of the forecasts beside the
   * averages' heading, honours in sight, and what lifts a subject a grade ({count} grades of {grade}).
   */
  forecast: {
    column: 'Forecast',
    /** Beside a grade: the grade its subject's average gives, in the board's words. */
    grade: 'heading for {grade}',
    reportCard: 'report card forecast',
    honours: 'certificate with distinction in sight',
    toNext: '{count}× {grade} for a grade more',
  },
  /** The lessons card: the topics taught lately, what to revise before the next test, the lessons missed. */
  lessonTopics: 'Lately in lessons',
  noLessonTopics: 'No lesson topics in the last 14 days.',
  revise: 'To revise',
  catchUp: 'Lessons to catch up',
  noCatchUp: 'No lessons missed in the last 14 days.',
  notesAbsences: 'Notes and attendance',
  newestNote: 'Newest note',
  noNotes: 'No notes.',
  signature: 'Needs your signature',
  /** Words of a note that asks a parent to sign; a template searches the note for them (either language). */
  signatureWords: SIGNATURE_WORDS,
  unexcused: 'Unexcused absences',
  noUnexcused: 'No unexcused absences.',
  attendance: 'Attendance',
  library: 'Library',
  noBooks: 'No books borrowed.',
  /** The formal behaviour grade's heading, and its semester and final grades. */
  behaviour: 'Behaviour',
  semesterGrade: 'semester',
  finalGrade: 'end of year',
  schoolFiles: 'School files',
  noSchoolFiles: 'The school shares no files.',
  /** The newest message sent from the child's account, and who read it. */
  sentMessage: 'Sent message',
  readAt: 'read',
  notRead: 'not read yet',
  overdue: 'overdue',
  due: 'return by',
  freeTextbook: 'school textbook, returned at the end of the year',
  /** After the due date of a lending that may be a free textbook (its due date may be a placeholder). */
  dueUnsure: 'may be a school textbook; ask the library',
  calendar: 'Calendar',
  /** homework_upcoming's card: the homework of the next two weeks. */
  homeworkUpcoming: { heading: 'Homework, next two weeks', none: 'No homework due in the next two weeks.' },
  /** school's card: the class (a kindergarten child's group), the tutor, the child's number, the year, the bells. */
  school: {
    heading: 'School',
    class: 'Class',
    group: 'Group',
    tutor: 'tutor',
    number: 'number',
    year: 'School year',
    firstSemesterEnds: 'first semester ends',
    headTeacher: 'head teacher',
    email: 'e-mail',
    phone: 'phone',
    lesson: 'Lesson',
    hours: 'Hours',
  },
  /** attendance's table: each subject's lessons present of all, absences and late arrivals. */
  attendanceBySubject: { heading: 'Attendance by subject', present: 'Present', absent: 'absent', excused: 'excused', late: 'late' },
  /** The child's streaks and this school year's achievements (an achievement: its count, then its kind's words). */
  streaks: {
    heading: 'Streaks',
    goodGrades: 'Good grades in a row',
    noAbsence: 'School days without an absence',
    noNegativeNote: 'School days without a negative note',
    achievements: 'Achievements this school year',
    kinds: FEATURE_TEXT.en.streaks.kinds,
  },
  tests: 'Tests',
  events: 'Trips, meetings and events',
  noEvents: 'Nothing planned.',
  messages: 'Messages',
  newestMessage: 'Newest message',
  newestNotice: 'Newest notice',
  /** Beside the newest message while the portal has it unread. */
  unread: 'unread',
  openMessage: 'Open newest message',
  openAction: 'Open',
  /** Opening marks the message read in the portal: the parent is told before. */
  confirmOpen: 'Open the newest message? The register will mark it read.',
  openedMessage: 'Opened message',
  /** Below the opened message's topic when its sender withdrew it. */
  withdrawn: 'The sender withdrew this message.',
  noOpenedMessage: 'No message opened yet: "Open" shows the newest one here.',
  /** Below a text the bridge cut (8,000 characters). */
  truncated: 'The message goes on: read the rest in the register.',
  attachments: 'Attachments',
  send: 'Send to school',
  markRead: 'Mark notices as read',
  markReadAction: 'Mark',
  confirmSend: (name: string) => `Send "${name}" to the school now?`,
  confirmMarkRead: 'Mark every notice as read in the register?',
  bridge: 'Bridge',
  lastUpdate: 'Last update',
  refresh: 'Refresh now',
  refreshAction: 'Refresh',
  problemRow: 'Register readable',
  /** The account's figures in the bridge view (interface 9.2). */
  requestsToday: 'Portal requests today',
  loginsToday: 'Password logins today',
  lastRead: 'Last successful read',
  sessionAge: 'Session age',
  /** The bridge's own device in the bridge view: its broker connection, its start, its memory. */
  broker: 'MQTT broker',
  uptime: 'Running since',
  memory: 'Memory',
  /** The bridge's update (its newest release), and the weekly summary on demand with its button's word. */
  update: 'Update',
  summaryNow: 'Weekly summary now',
  summaryNowAction: 'Ask',
  /** Before the portal's advice to change the password (the bridge view, while `problem` carries it). */
  passwordAdvice: 'The portal advises changing this account’s password.',
};

export type DashboardText = typeof EN_DASHBOARD;
