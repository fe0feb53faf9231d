// The family board's words (interface 6.5, `/`), in each language: the headings the page prints and
// the phrases the board model fills in with the data (days, changes, warnings).
import type { Language } from '../config/language.js';
import { WEEKDAYS } from './lesson-words.js';

/** Headings and fixed lines of the page; the model hands them to the page as they are. */
export interface BoardLabels {
  title: string;
  now: string;
  next: string;
  homework: string;
  tests: string;
  /** The box of trips, meetings and other agenda entries, apart from the tests. */
  agenda: string;
  grades: string;
  messages: string;
  notices: string;
  /** Beside the newest message while it is unread. */
  unreadMessage: string;
  /** Above the message last opened through the bridge (open_message). */
  openedMessage: string;
  /** Beside the opened message's topic when its sender withdrew it. */
  withdrawn: string;
  noHomework: string;
  noTests: string;
  noGrades: string;
  /** Beside the count of lessons already over that a short screen left out ("+2 za nami"). */
  lessonsOver: string;
  /** The box of the school's own things: the behaviour grade, the newest sent message, the school's files. */
  school: string;
  behaviour: string;
  /** Before the class tutor's name (the class is in the card's heading, the school's name the school box's). */
  tutor: string;
  sentRead: string;
  sentUnread: string;
  /** The page lost the bridge (the stream and the polls fail): the data shown may be old. */
  connectionLost: string;
  /** The bridge has no child yet (first start, or every account still logging in). */
  noChildren: string;
  /** The bridge answered 401: the page was opened without the token. */
  noAccess: string;
  /** The card's control that shows the child's calendar feed addresses, and the overlay's heading. */
  calendars: string;
  /** The overlay's one line of help: where each address goes. */
  calendarsHelp: string;
  copy: string;
  copied: string;
  /** The `webcal://` link: a phone's calendar subscribes to the feed. */
  subscribe: string;
  close: string;
  /** The news box of the next school day's plan changes; the model adds the day ("Zmiany planu: jutro, czw. 19.11"). */
  planChanges: string;
  /** Before an unread announcement's title, which stands among the news without a heading of its own. */
  unreadNotice: string;
}

export interface BoardText {
  labels: BoardLabels;
  weekdays: readonly string[];
  weekdaysShort: readonly string[];
  today: string;
  tomorrow: string;
  noLessons: string;
  room: (room: string) => string;
  until: (time: string) => string;
  firstLesson: string;
  /** A kindergarten's first block of the next day. */
  firstBlock: string;
  homeworkFor: (day: string) => string;
  /** Before this semester's attendance in the school box ("Frekwencja 95,8%"). */
  attendance: string;
  /** A share in per cent, the language's way (95,8%). */
  percent: (value: number) => string;
  /** After the homework box's heading when it lists the next two weeks' (homework_upcoming). */
  quiz: string;
  test: string;
  /** An agenda entry's kind beside it in the agenda box (a trip of several days shows its first and last day). */
  agendaKinds: Readonly<Record<'trip' | 'meeting' | 'event', string>>;
  /** A proposed term grade entered this week, beside its subject in the grades' list. */
  proposal: { semester_proposal: string; final_proposal: string };
  /** Beside a grade's subject: the grade its average gives ("prognoza 4"). */
  forecast: (grade: string) => string;
  updated: (when: string) => string;
  stale: (when: string) => string;
  offline: (when: string) => string;
  waiting: string;
  problem: string;
  /** The link to /diagnostics at the foot of the board in the app's panel (ingress). */
  diagnostics: string;
}

/** A share in per cent with at most one decimal, in the language's own way (95,8%). */
const share = (value: number, point: string): string => `${Number(value).toFixed(1).replace(/\.0$/, '').replace('.', point)}%`;

export const BOARD_TEXT: Record<Language, BoardText> = {
  en: {
    labels: {
      title: 'School board',
      now: 'Now',
      next: 'Next',
      homework: 'Homework',
      tests: 'Tests',
      agenda: 'Trips and events',
      grades: 'Newest grades',
      messages: 'Messages',
      notices: 'Announcements',
      unreadMessage: 'new',
      openedMessage: 'Opened',
      withdrawn: 'withdrawn by the sender',
      noHomework: 'No homework due.',
      noTests: 'No tests in the next two weeks.',
      noGrades: 'No grades yet.',
      lessonsOver: 'done',
      school: 'School',
      behaviour: 'Behaviour',
      tutor: 'Class tutor',
      sentRead: 'read',
      sentUnread: 'not read yet',
      connectionLost: 'No connection to the bridge: what you see may be old.',
      noChildren: 'The bridge has not read the register yet.',
      noAccess: 'No access: open the address with the token that `dziennik2mqtt check --show-token` prints.',
      calendars: 'Calendars',
      calendarsHelp:
        'Add to Home Assistant: Remote Calendar; to a phone: subscribe by address. Each address opens only its own calendar (a key of its own, not the access token); still, keep it private.',
      copy: 'Copy',
      copied: 'Copied',
      subscribe: 'Subscribe (webcal)',
      close: 'Close',
      planChanges: 'Plan changes',
      unreadNotice: 'announcement',
    },
    weekdays: WEEKDAYS.en.long,
    weekdaysShort: WEEKDAYS.en.short,
    today: 'Today',
    tomorrow: 'Tomorrow',
    noLessons: 'No lessons.',
    room: (room) => `room ${room}`,
    until: (time) => `until ${time}`,
    firstLesson: 'First lesson',
    firstBlock: 'First activity',
    homeworkFor: (day) => `due ${day}`,
    attendance: 'Attendance',
    percent: (p) => share(p, '.'),
    quiz: 'quiz',
    test: 'test',
    agendaKinds: { trip: 'trip', meeting: 'meeting', event: 'event' },
    proposal: { semester_proposal: 'proposed semester grade', final_proposal: 'proposed end-of-year grade' },
    forecast: (grade) => `heading for ${grade}`,
    updated: (when) => `Updated ${when}`,
    stale: (when) => `Old data: the register was last read ${when}.`,
    offline: (when) => `The register has not been read for days (last ${when}): this is old data.`,
    waiting: 'Waiting for the first reading of the register.',
    problem: 'The register cannot be read right now.',
    diagnostics: 'Diagnostics file for a bug report',
  },
  pl: {
    labels: {
      title: 'Tablica szkolna',
      now: 'Teraz',
      next: 'Następna',
      homework: 'Zadania domowe',
      tests: 'Sprawdziany',
      agenda: 'Wycieczki i wydarzenia',
      grades: 'Najnowsze oceny',
      messages: 'Wiadomości',
      notices: 'Ogłoszenia',
      unreadMessage: 'nowa',
      openedMessage: 'Otwarta',
      withdrawn: 'wycofana przez nadawcę',
      noHomework: 'Brak zadań na ten dzień.',
      noTests: 'Brak sprawdzianów w najbliższych dwóch tygodniach.',
      noGrades: 'Brak ocen.',
      lessonsOver: 'za nami',
      school: 'Szkoła',
      behaviour: 'Zachowanie',
      tutor: 'Wychowawca',
      sentRead: 'przeczytana',
      sentUnread: 'jeszcze nieprzeczytana',
      connectionLost: 'Brak połączenia z mostkiem: dane mogą być nieaktualne.',
      noChildren: 'Mostek jeszcze nie odczytał dziennika.',
      noAccess: 'Brak dostępu: otwórz adres z tokenem, który wypisuje `dziennik2mqtt check --show-token`.',
      calendars: 'Kalendarze',
      calendarsHelp:
        'Do Home Assistant: integracja Remote Calendar; do telefonu: subskrypcja z adresu. Każdy adres otwiera tylko swój kalendarz (ma własny klucz, nie token dostępu); mimo to nie udostępniaj go.',
      copy: 'Kopiuj',
      copied: 'Skopiowano',
      subscribe: 'Subskrybuj (webcal)',
      close: 'Zamknij',
      planChanges: 'Zmiany planu',
      unreadNotice: 'ogłoszenie',
    },
    weekdays: WEEKDAYS.pl.long,
    weekdaysShort: WEEKDAYS.pl.short,
    today: 'Dziś',
    tomorrow: 'Jutro',
    noLessons: 'Brak lekcji.',
    room: (room) => `s. ${room}`,
    until: (time) => `do ${time}`,
    firstLesson: 'Pierwsza lekcja',
    firstBlock: 'Pierwsze zajęcia',
    homeworkFor: (day) => `na ${day}`,
    attendance: 'Frekwencja',
    percent: (p) => share(p, ','),
    quiz: 'kartkówka',
    test: 'sprawdzian',
    agendaKinds: { trip: 'wycieczka', meeting: 'zebranie', event: 'wydarzenie' },
    proposal: { semester_proposal: 'propozycja śródroczna', final_proposal: 'propozycja roczna' },
    forecast: (grade) => `prognoza ${grade}`,
    updated: (when) => `Aktualizacja: ${when}`,
    stale: (when) => `Stare dane: dziennik odczytano ostatnio ${when}.`,
    offline: (when) => `Dziennika nie udało się odczytać od kilku dni (ostatnio ${when}): to stare dane.`,
    waiting: 'Czekam na pierwszy odczyt dziennika.',
    problem: 'Nie można teraz odczytać dziennika.',
    diagnostics: 'Plik diagnostyczny do zgłoszenia błędu',
  },
  uk: {
    labels: {
      title: 'Шкільна дошка',
      now: 'Зараз',
      next: 'Далі',
      homework: 'Домашні завдання',
      tests: 'Контрольні',
      agenda: 'Екскурсії та події',
      grades: 'Останні оцінки',
      messages: 'Повідомлення',
      notices: 'Оголошення',
      unreadMessage: 'нове',
      openedMessage: 'Відкрите',
      withdrawn: 'відкликане відправником',
      noHomework: 'Немає завдань на цей день.',
      noTests: 'Немає контрольних у найближчі два тижні.',
      noGrades: 'Оцінок ще немає.',
      lessonsOver: 'минули',
      school: 'Школа',
      behaviour: 'Поведінка',
      tutor: 'Класний керівник',
      sentRead: 'прочитано',
      sentUnread: 'ще не прочитано',
      connectionLost: "Немає з'єднання з мостом: дані можуть бути застарілими.",
      noChildren: 'Міст ще не прочитав журнал.',
      noAccess: 'Немає доступу: відкрийте адресу з токеном, яку виводить `dziennik2mqtt check --show-token`.',
      calendars: 'Календарі',
      calendarsHelp: 'У Home Assistant: інтеграція Remote Calendar; у телефон: підписка за адресою. Адреси містять токен доступу: не поширюйте їх.',
      copy: 'Копіювати',
      copied: 'Скопійовано',
      subscribe: 'Підписатися (webcal)',
      close: 'Закрити',
      planChanges: 'Зміни розкладу',
      unreadNotice: 'оголошення',
    },
    weekdays: WEEKDAYS.uk.long,
    weekdaysShort: WEEKDAYS.uk.short,
    today: 'Сьогодні',
    tomorrow: 'Завтра',
    noLessons: 'Уроків немає.',
    room: (room) => `каб. ${room}`,
    until: (time) => `до ${time}`,
    firstLesson: 'Перший урок',
    firstBlock: 'Перші заняття',
    homeworkFor: (day) => `на ${day}`,
    attendance: 'Відвідуваність',
    percent: (p) => share(p, ','),
    quiz: 'коротка контрольна',
    test: 'контрольна',
    agendaKinds: { trip: 'екскурсія', meeting: 'збори', event: 'подія' },
    proposal: { semester_proposal: 'пропозиція семестрової', final_proposal: 'пропозиція річної' },
    forecast: (grade) => `прогноз ${grade}`,
    updated: (when) => `Оновлено: ${when}`,
    stale: (when) => `Застарілі дані: журнал востаннє прочитано ${when}.`,
    offline: (when) => `Журнал не вдається прочитати кілька днів (востаннє ${when}): це застарілі дані.`,
    waiting: 'Чекаю на перше читання журналу.',
    problem: 'Журнал зараз неможливо прочитати.',
    diagnostics: 'Діагностичний файл для звіту про помилку',
  },
};
