// The family board's words (interface 6.5, `/`), in each language: the headings the page prints and
// the phrases the board model fills in with the data (days, changes, warnings).
import type { Language } from '../config/language.js';
import { WEEKDAYS } from './lesson-words.js';

/** A share in per cent with at most one decimal, in the language's own way (95,8%). */
const share = (value: number, point: string): string => `${Number(value).toFixed(1).replace(/\.0$/, '').replace('.', point)}%`;

/** The English words: their type is every language's shape (BoardText), so a word missing in one does not compile. */
const EN = {
  labels: {
    title: 'School board',
    now: 'Now',
    next: 'Next',
    homework: 'Homework',
    tests: 'Tests',
    /** The box of trips, meetings and other agenda entries, apart from the tests. */
    agenda: 'Trips and events',
    grades: 'Newest grades',
    messages: 'Messages',
    notices: 'Announcements',
    /** Beside the newest message while it is unread. */
    unreadMessage: 'new',
    /** Above the message last opened through the bridge (open_message). */
    openedMessage: 'Opened',
    /** Beside the opened message's topic when its sender withdrew it. */
    withdrawn: 'withdrawn by the sender',
    noHomework: 'No homework due.',
    noTests: 'No tests in the next two weeks.',
    noGrades: 'No grades yet.',
    /** Beside the count of lessons already over that a short screen left out ("+2 za nami"). */
    lessonsOver: 'done',
    /** The box of the school's own things: the behaviour grade, the newest sent message, the school's files. */
    school: 'School',
    behaviour: 'Behaviour',
    /** Before the class tutor's name (the class is in the card's heading, the school's name the school box's). */
    tutor: 'Class tutor',
    sentRead: 'read',
    sentUnread: 'not read yet',
    /** The page lost the bridge (the stream and the passes fail): the data shown may be old. */
    connectionLost: 'No connection to the bridge: what you see may be old.',
    /** The bridge has no child yet (first start, or every account still logging in). */
    noChildren: 'The bridge has not read the register yet.',
    /** The bridge answered 401: the page was opened without the token. */
    noAccess: 'No access: open the address with the token that `dziennik2mqtt check --show-token` prints.',
    /** The card's control that shows the child's calendar feed addresses, and the overlay's heading. */
    calendars: 'Calendars',
    /** The overlay's one line of help: where each address goes. */
    calendarsHelp:
      'Add to Home Assistant: Remote Calendar; to a phone: subscribe by address. Each address opens only its own calendar (a key of its own, not the access token); still, keep it private.',
    copy: 'Copy',
    copied: 'Copied',
    /** The `webcal://` link: a phone's calendar subscribes to the calendar feed. */
    subscribe: 'Subscribe (webcal)',
    close: 'Close',
    /** The news box of the next school day's plan changes; the model adds the day ("Zmiany planu: jutro, czw. 19.11"). */
    planChanges: 'Plan changes',
    /** The box of how this and next week differ from the standing plan, as the footer names it when it gave way whole. */
    standing: 'Standing plan',
    /** Before an unread announcement's title, which stands among the news without a heading of its own. */
    unreadNotice: 'announcement',
  },
  weekdays: WEEKDAYS.en.long,
  weekdaysShort: WEEKDAYS.en.short,
  today: 'Today',
  tomorrow: 'Tomorrow',
  noLessons: 'No lessons.',
  /** A substitute's lesson of its own subject, both teachers initialled: the row has room for one short line. */
  substitute: (teacher: string, away: string) => `${teacher} for ${away}`,
  room: (room: string) => `room ${room}`,
  until: (time: string) => `until ${time}`,
  firstLesson: 'First lesson',
  /** A kindergarten's first block of the next day. */
  firstBlock: 'First activity',
  /** Before this semester's attendance in the school box ("Frekwencja 95,8%"). */
  attendance: 'Attendance',
  /** A share in per cent, the language's way (95,8%). */
  percent: (p: number) => share(p, '.'),
  quiz: 'quiz',
  test: 'test',
  /** An agenda entry's kind beside it in the agenda box (a trip of several days shows its first and last day). */
  agendaKinds: { trip: 'trip', meeting: 'meeting', event: 'event' },
  /** A proposed term grade entered this week, beside its subject in the grades' list. */
  proposal: { semester_proposal: 'proposed semester grade', final_proposal: 'proposed end-of-year grade' },
  /** Beside a grade's subject: the grade its average gives ("prognoza 4"). */
  forecast: (grade: string) => `heading for ${grade}`,
  updated: (when: string) => `Updated ${when}`,
  stale: (when: string) => `Old data: the register was last read ${when}.`,
  offline: (when: string) => `The register has not been read for days (last ${when}): this is old data.`,
  waiting: 'Waiting for the first reading of the register.',
  problem: 'The register cannot be read right now.',
  /** The link to /diagnostics at the foot of the board in the app's panel (ingress). */
  diagnostics: 'Diagnostics file for a bug report',
};

export type BoardText = typeof EN;
/** Headings and fixed lines of the page; the model hands them to the page as they are. */
export type BoardLabels = BoardText['labels'];

export const BOARD_TEXT: Record<Language, BoardText> = {
  en: EN,
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
      standing: 'Stały plan',
      unreadNotice: 'ogłoszenie',
    },
    weekdays: WEEKDAYS.pl.long,
    weekdaysShort: WEEKDAYS.pl.short,
    today: 'Dziś',
    tomorrow: 'Jutro',
    noLessons: 'Brak lekcji.',
    // "za" would want the name's accusative: the name is given as it is written.
    substitute: (teacher, away) => `${teacher} za ${away}`,
    room: (room) => `s. ${room}`,
    until: (time) => `do ${time}`,
    firstLesson: 'Pierwsza lekcja',
    firstBlock: 'Pierwsze zajęcia',
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
      standing: 'Сталий розклад',
      unreadNotice: 'оголошення',
    },
    weekdays: WEEKDAYS.uk.long,
    weekdaysShort: WEEKDAYS.uk.short,
    today: 'Сьогодні',
    tomorrow: 'Завтра',
    noLessons: 'Уроків немає.',
    substitute: (teacher, away) => `${teacher} замість ${away}`,
    room: (room) => `каб. ${room}`,
    until: (time) => `до ${time}`,
    firstLesson: 'Перший урок',
    firstBlock: 'Перші заняття',
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
