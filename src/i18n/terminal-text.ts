// What the bridge prints for a person in a terminal (not its log lines, which stay English for bug
// reports): the web server's addresses on the first start, and `token --rotate`. Commands, addresses
// and config keys stay as they are in every language.
import type { Language } from '../config/language.js';

const en = {
  webHeading: 'dziennik2mqtt web server: the board and the calendar feeds',
  webHowTo:
    '(they open with the access token, the feeds each with a key of its own: `dziennik2mqtt check --show-token` prints them so; keep those private):',
  calendarFeedsFollow: "  (the calendar feeds follow once every child's first pass has named it)",
  calendarFeedsHeading: 'dziennik2mqtt calendar feeds',
  tokenNotWritten: (dir: string, code: string) => `token: cannot write a new access token into ${dir} (${code}); the old one stays in force`,
  tokenMade: 'New access token made. The old addresses and board cookies no longer open anything (a running bridge too, from its next request).',
  tokenWebOff: 'The web server is off (http.port is 0): the token counts once it is turned on.',
  tokenOpenAgain:
    'Open the board once with its new address on each tablet, and give calendar apps the new feed addresses (each feed has a new key of its own; keep them private):',
  tokenCalendarFeedsFollow: (children: string) =>
    `  (the feeds of ${children} follow once the bridge or check has named the child: dziennik2mqtt check --show-token)`,
};

/** Every language's words: the English table is the shape, so a word missing in one does not compile. */
export type TerminalText = typeof en;

const pl: TerminalText = {
  webHeading: 'serwer WWW dziennik2mqtt: tablica i kalendarze',
  webHowTo:
    '(otwierają się z tokenem dostępu, każdy kalendarz z własnym kluczem: `dziennik2mqtt check --show-token` wypisuje je w tej postaci; nie udostępniaj ich):',
  calendarFeedsFollow: '  (kalendarze pojawią się, gdy pierwszy odczyt każdego dziecka nada mu id)',
  calendarFeedsHeading: 'kalendarze dziennik2mqtt',
  tokenNotWritten: (dir, code) => `token: nie można zapisać nowego tokenu dostępu w ${dir} (${code}); obowiązuje dotychczasowy`,
  tokenMade:
    'Utworzono nowy token dostępu. Stare adresy i ciasteczka tablicy niczego już nie otwierają (także w działającym mostku, od jego następnego żądania).',
  tokenWebOff: 'Serwer WWW jest wyłączony (http.port wynosi 0): token zacznie obowiązywać po jego włączeniu.',
  tokenOpenAgain:
    'Otwórz raz tablicę pod nowym adresem na każdym tablecie i podaj aplikacjom kalendarza nowe adresy (każdy kalendarz ma nowy własny klucz; nie udostępniaj ich):',
  tokenCalendarFeedsFollow: (children) =>
    `  (kalendarze ${children} pojawią się, gdy mostek lub check nazwie dziecko: dziennik2mqtt check --show-token)`,
};

const uk: TerminalText = {
  webHeading: 'вебсервер dziennik2mqtt: дошка й календарі',
  webHowTo:
    '(вони відкриваються з токеном доступу, кожен календар — з власним ключем: `dziennik2mqtt check --show-token` виводить їх так; не показуйте їх нікому):',
  calendarFeedsFollow: '  (календарі з’являться, коли перше читання кожної дитини дасть їй id)',
  calendarFeedsHeading: 'календарі dziennik2mqtt',
  tokenNotWritten: (dir, code) => `token: не вдається записати новий токен доступу в ${dir} (${code}); діє попередній`,
  tokenMade:
    'Створено новий токен доступу. Старі адреси й cookie дошки більше нічого не відкривають (і в мосту, що працює, з його наступного запиту).',
  tokenWebOff: 'Вебсервер вимкнено (http.port дорівнює 0): токен діятиме, коли його ввімкнуть.',
  tokenOpenAgain:
    'Відкрийте дошку один раз за новою адресою на кожному планшеті й дайте програмам календаря нові адреси (кожен календар має новий власний ключ; не показуйте їх нікому):',
  tokenCalendarFeedsFollow: (children) => `  (календарі ${children} з’являться, коли міст або check назве дитину: dziennik2mqtt check --show-token)`,
};

export const TERMINAL_TEXT: Readonly<Record<Language, TerminalText>> = { pl, en, uk };
