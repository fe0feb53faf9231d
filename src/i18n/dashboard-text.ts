// The dashboard's own words (view names, headings, labels, the lines its templates print), in each
// language, with the weekday names and the decimal mark its templates format dates and numbers with.
import type { Language } from '../config/language.js';
import type { ChangeKind } from '../school/plan-changes.js';
import { AGENDA_WORDS, CHANGE_WORDS, movedTo, WEEKDAYS } from './lesson-words.js';
import type { AgendaEntryKind } from '../school/calendar-feeds.js';
import { ukrainianDashboard } from './dashboard-text-uk.js';

export interface DashboardText {
  title: string;
  header: string;
  family: string;
  /** The link to the bridge's own family board (the web server). */
  board: string;
  diagnostics: string;
  luckyYou: (name: string) => string;
  problem: string;
  /** Shown when the problem carries no advice (an old retained state): never its reason code. */
  problemUnknown: string;
  /** Monday first, as Python's weekday() counts. */
  weekdays: readonly string[];
  weekdaysShort: readonly string[];
  decimal: string;
  lucky: string;
  unreadMessages: string;
  unreadNotices: string;
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
  substitution: string;
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

const SIGNATURE_WORDS = 'podpis|podpisa|sign';

export const DASHBOARD_TEXT: Record<Language, DashboardText> = {
  en: {
    title: 'School',
    header: 'dziennik2mqtt dashboard: in Home Assistant add a dashboard, open it, "Edit" > three dots > "Raw configuration editor", paste this.',
    family: 'Family',
    board: 'Family board',
    diagnostics: 'Bridge',
    luckyYou: (name) => `Lucky number: it's you, ${name}!`,
    problem: 'The register cannot be read right now:',
    problemUnknown: 'the bridge reports a problem; see the Bridge view.',
    weekdays: WEEKDAYS.en.long,
    weekdaysShort: WEEKDAYS.en.short,
    decimal: '.',
    lucky: 'Lucky number',
    unreadMessages: 'Unread messages',
    unreadNotices: 'Unread notices',
    lessonNow: 'Now',
    atSchool: 'at school',
    atKindergarten: 'at kindergarten',
    nextLesson: 'Next',
    noMoreLessons: 'No more lessons today.',
    noLessonsToday: 'No lessons today.',
    noMoreActivities: 'No more activities today.',
    noActivitiesToday: 'No kindergarten today.',
    activities: 'Activities',
    lessons: 'Lessons',
    room: 'room',
    substitution: 'substitute teacher',
    changes: 'Changes',
    noChanges: 'No plan changes.',
    from: 'moved from',
    kinds: CHANGE_WORDS.en,
    agendaKinds: AGENDA_WORDS.en,
    movedTo: (day, lessonNo) => movedTo('en', day, lessonNo),
    homework: 'Homework',
    noHomework: 'No homework due.',
    testsWeek: 'Tests in the next 7 days',
    noTestsWeek: 'No tests in the next 7 days.',
    grades: 'Grades',
    newestGrades: 'Newest grades',
    noGrades: 'No grades yet.',
    averages: 'Average',
    subject: 'Subject',
    average: 'Average',
    schoolAverage: 'school',
    count: 'Grades',
    pointsShort: 'pts',
    proposal: 'proposed',
    firstSemester: '1st semester',
    neededForNext: '{grade} lifts it to {threshold}',
    atRisk: 'At risk',
    lessonTopics: 'Lately in lessons',
    noLessonTopics: 'No lesson topics in the last 14 days.',
    revise: 'To revise',
    catchUp: 'Lessons to catch up',
    noCatchUp: 'No lessons missed in the last 14 days.',
    notesAbsences: 'Notes and attendance',
    newestNote: 'Newest note',
    noNotes: 'No notes.',
    signature: 'Needs your signature',
    signatureWords: SIGNATURE_WORDS,
    unexcused: 'Unexcused absences',
    noUnexcused: 'No unexcused absences.',
    attendance: 'Attendance',
    library: 'Library',
    noBooks: 'No books borrowed.',
    behaviour: 'Behaviour',
    semesterGrade: 'semester',
    finalGrade: 'end of year',
    schoolFiles: 'School files',
    noSchoolFiles: 'The school shares no files.',
    sentMessage: 'Sent message',
    readAt: 'read',
    notRead: 'not read yet',
    overdue: 'overdue',
    due: 'return by',
    freeTextbook: 'school textbook, returned at the end of the year',
    dueUnsure: 'may be a school textbook; ask the library',
    calendar: 'Calendar',
    tests: 'Tests',
    events: 'Trips, meetings and events',
    noEvents: 'Nothing planned.',
    messages: 'Messages',
    newestMessage: 'Newest message',
    newestNotice: 'Newest notice',
    unread: 'unread',
    openMessage: 'Open newest message',
    openAction: 'Open',
    confirmOpen: 'Open the newest message? The register will mark it read.',
    openedMessage: 'Opened message',
    withdrawn: 'The sender withdrew this message.',
    noOpenedMessage: 'No message opened yet: "Open" shows the newest one here.',
    truncated: 'The message goes on: read the rest in the register.',
    attachments: 'Attachments',
    send: 'Send to school',
    markRead: 'Mark notices as read',
    markReadAction: 'Mark',
    confirmSend: (name) => `Send "${name}" to the school now?`,
    confirmMarkRead: 'Mark every notice as read in the register?',
    bridge: 'Bridge',
    lastUpdate: 'Last update',
    refresh: 'Refresh now',
    refreshAction: 'Refresh',
    problemRow: 'Register readable',
    requestsToday: 'Portal requests today',
    loginsToday: 'Password logins today',
    lastRead: 'Last successful read',
    sessionAge: 'Session age',
    broker: 'MQTT broker',
    uptime: 'Running since',
    memory: 'Memory',
    passwordAdvice: 'The portal advises changing this account’s password.',
  },
  pl: {
    title: 'Szkoła',
    header: 'Dashboard dziennik2mqtt: w Home Assistant dodaj dashboard, otwórz go, "Edytuj" > trzy kropki > "Edytor konfiguracji", wklej to.',
    family: 'Rodzina',
    board: 'Tablica rodziny',
    diagnostics: 'Mostek',
    luckyYou: (name) => `Szczęśliwy numerek: to Ty, ${name}!`,
    problem: 'Nie da się teraz odczytać dziennika:',
    problemUnknown: 'mostek zgłasza problem; szczegóły w widoku Mostek.',
    weekdays: WEEKDAYS.pl.long,
    weekdaysShort: WEEKDAYS.pl.short,
    decimal: ',',
    lucky: 'Szczęśliwy numerek',
    unreadMessages: 'Nieprzeczytane wiadomości',
    unreadNotices: 'Nieprzeczytane ogłoszenia',
    lessonNow: 'Teraz',
    atSchool: 'w szkole',
    atKindergarten: 'w przedszkolu',
    nextLesson: 'Następna',
    noMoreLessons: 'Dziś już nie ma lekcji.',
    noLessonsToday: 'Dziś nie ma lekcji.',
    noMoreActivities: 'Dziś już nie ma zajęć.',
    noActivitiesToday: 'Dziś nie ma zajęć w przedszkolu.',
    activities: 'Zajęcia',
    lessons: 'Lekcje',
    room: 'sala',
    substitution: 'zastępstwo',
    changes: 'Zmiany',
    noChanges: 'Bez zmian w planie.',
    from: 'przeniesiona z',
    kinds: CHANGE_WORDS.pl,
    agendaKinds: AGENDA_WORDS.pl,
    movedTo: (day, lessonNo) => movedTo('pl', day, lessonNo),
    homework: 'Zadania domowe',
    noHomework: 'Brak zadań domowych.',
    testsWeek: 'Sprawdziany w ciągu 7 dni',
    noTestsWeek: 'Brak sprawdzianów w ciągu 7 dni.',
    grades: 'Oceny',
    newestGrades: 'Najnowsze oceny',
    noGrades: 'Jeszcze bez ocen.',
    averages: 'Średnia',
    subject: 'Przedmiot',
    average: 'Średnia',
    schoolAverage: 'szkoła',
    count: 'Liczba ocen',
    pointsShort: 'pkt',
    proposal: 'propozycja',
    firstSemester: 'I semestr',
    neededForNext: 'na {threshold} wystarczy {grade}',
    atRisk: 'Zagrożenie',
    lessonTopics: 'Ostatnio na lekcjach',
    noLessonTopics: 'Brak tematów lekcji z ostatnich 14 dni.',
    revise: 'Do powtórki',
    catchUp: 'Lekcje do nadrobienia',
    noCatchUp: 'Żadnej opuszczonej lekcji w ostatnich 14 dniach.',
    notesAbsences: 'Uwagi i frekwencja',
    newestNote: 'Najnowsza uwaga',
    noNotes: 'Brak uwag.',
    signature: 'Wymaga podpisu rodzica',
    signatureWords: SIGNATURE_WORDS,
    unexcused: 'Nieusprawiedliwione nieobecności',
    noUnexcused: 'Brak nieusprawiedliwionych nieobecności.',
    attendance: 'Frekwencja',
    library: 'Biblioteka',
    noBooks: 'Brak wypożyczonych książek.',
    behaviour: 'Zachowanie',
    semesterGrade: 'śródroczna',
    finalGrade: 'roczna',
    schoolFiles: 'Pliki szkoły',
    noSchoolFiles: 'Szkoła nie udostępnia plików.',
    sentMessage: 'Wysłana wiadomość',
    readAt: 'przeczytano',
    notRead: 'jeszcze nie przeczytana',
    overdue: 'po terminie',
    due: 'zwrot do',
    freeTextbook: 'podręcznik szkolny, zwrot na koniec roku',
    dueUnsure: 'może to być podręcznik szkolny; zapytaj w bibliotece',
    calendar: 'Terminarz',
    tests: 'Sprawdziany',
    events: 'Wycieczki, zebrania i wydarzenia',
    noEvents: 'Nic nie zaplanowano.',
    messages: 'Wiadomości',
    newestMessage: 'Najnowsza wiadomość',
    newestNotice: 'Najnowsze ogłoszenie',
    unread: 'nieprzeczytana',
    openMessage: 'Otwórz najnowszą wiadomość',
    openAction: 'Otwórz',
    confirmOpen: 'Otworzyć najnowszą wiadomość? Dziennik oznaczy ją jako przeczytaną.',
    openedMessage: 'Otwarta wiadomość',
    withdrawn: 'Nadawca wycofał tę wiadomość.',
    noOpenedMessage: 'Żadna wiadomość nie jest otwarta: „Otwórz” pokaże tu najnowszą.',
    truncated: 'Wiadomość jest dłuższa: resztę przeczytasz w dzienniku.',
    attachments: 'Załączniki',
    send: 'Wyślij do szkoły',
    markRead: 'Oznacz ogłoszenia jako przeczytane',
    markReadAction: 'Oznacz',
    confirmSend: (name) => `Wysłać teraz do szkoły „${name}”?`,
    confirmMarkRead: 'Oznaczyć wszystkie ogłoszenia w dzienniku jako przeczytane?',
    bridge: 'Mostek',
    lastUpdate: 'Ostatnia aktualizacja',
    refresh: 'Odśwież teraz',
    refreshAction: 'Odśwież',
    problemRow: 'Odczyt dziennika',
    requestsToday: 'Zapytania do portalu dziś',
    loginsToday: 'Logowania hasłem dziś',
    lastRead: 'Ostatni udany odczyt',
    sessionAge: 'Wiek sesji',
    broker: 'Broker MQTT',
    uptime: 'Działa od',
    memory: 'Pamięć',
    passwordAdvice: 'Portal zaleca zmianę hasła tego konta.',
  },
  uk: ukrainianDashboard(SIGNATURE_WORDS),
};
