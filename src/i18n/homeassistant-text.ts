// The words of what the bridge makes in Home Assistant through its API (interface 15.4), in each language:
// the names of each child's calendars and homework list, and `check`'s lines about them.
import type { Language } from '../config/language.js';
import type { CalendarFeedName } from '../rules/calendar-feeds.js';
import { CALENDAR_TEXT } from './calendar-text.js';

/** What the bridge makes for each child: a calendar per calendar feed, and the homework list. */
export type ListKind = CalendarFeedName | 'homework';

const en = {
  /** The second half of a list's name: "Zofia – lessons"; a calendar's as its calendar feed names itself (and the board links it). */
  lists: { ...CALENDAR_TEXT.en.calendarFeeds, homework: 'homework' } satisfies Record<ListKind, string>,
  /** A homework item without a subject or a topic. */
  homework: 'Homework',
  /** How `check` tells an entry: to be made, made by the bridge, one of that name the bridge keeps, deleted by the family. */
  status: { 'would make': 'would make', made: 'made', kept: 'kept', 'removed by the family': 'removed by the family' },
  off: "Home Assistant's API: not set up (homeassistant: in the config), nothing is made there",
  answers: (url: string) => `Home Assistant's API at ${url} answers; each child's calendars and homework list:`,
  fails: (url: string, why: string) => `Home Assistant's API at ${url}: ${why}`,
  faults: {
    unauthorized: 'the token is refused (401): a long-lived access token of an administrator is needed (its profile, Security)',
    refused: 'the request is refused',
    server_error: 'Home Assistant answered with an error',
    unavailable: 'Home Assistant is not running or is starting',
    unreachable: 'no answer (is the address right, is Home Assistant up?)',
  },
  statistics: {
    off: "the school year's statistics: off (homeassistant.statistics: false)",
    answers: (url: string) => `OK   Home Assistant's WebSocket at ${url} answers and takes the token`,
    fails: (url: string, why: string) => `FAIL Home Assistant's WebSocket at ${url}: ${why}`,
    imported: (statistics: number, rows: number) => `     the school year in the statistics: ${statistics} statistics, ${rows} daily rows imported`,
    none: "     the school year in the statistics: nothing imported yet (the bridge's first pass with the grades imports the year)",
  },
  noCalendars: (why: string) => `the calendars are not made: ${why}`,
  noPublicUrl: "homeassistant.public_url is not set (the bridge's address as Home Assistant reaches it)",
  webOff: 'the web server that serves their feeds is off (http.port is 0)',
  /** `check`'s lines on Assist's Model Context Protocol entry (16.4). */
  assist: {
    entry: (status: string) => `Assist (the Model Context Protocol entry "dziennik2mqtt"): ${status}`,
    off: 'Assist: no Model Context Protocol entry is made (homeassistant.assist: false)',
    present: 'Assist: Home Assistant has the Model Context Protocol entry "dziennik2mqtt"',
    absent: 'Assist: Home Assistant has no Model Context Protocol entry "dziennik2mqtt" yet (the app offers it among the discovered integrations)',
    notMade: (why: string) => `Assist: the Model Context Protocol entry is not made: ${why}`,
    tools: (names: string) => `     its tools: ${names}`,
  },
};

export type HomeAssistantText = typeof en;
/** How `check` tells an entry (the English words are the keys). */
export type EntryStatus = keyof HomeAssistantText['status'];
/** Why Home Assistant's API did not do what was asked (the diagnostics' reason). */
export type HaFault = keyof HomeAssistantText['faults'];

const pl: HomeAssistantText = {
  lists: { ...CALENDAR_TEXT.pl.calendarFeeds, homework: 'zadania domowe' },
  homework: 'Zadanie domowe',
  status: { 'would make': 'do utworzenia', made: 'utworzony', kept: 'zachowany', 'removed by the family': 'usunięty przez rodzinę' },
  off: 'API Home Assistant: nieustawione (homeassistant: w konfiguracji), nic nie jest tam tworzone',
  answers: (url) => `API Home Assistant pod ${url} odpowiada; kalendarze i lista zadań każdego dziecka:`,
  fails: (url, why) => `API Home Assistant pod ${url}: ${why}`,
  faults: {
    unauthorized: 'token odrzucony (401): potrzebny jest token dostępu długoterminowego administratora (jego profil, Bezpieczeństwo)',
    refused: 'żądanie odrzucone',
    server_error: 'Home Assistant odpowiedział błędem',
    unavailable: 'Home Assistant nie działa albo się uruchamia',
    unreachable: 'brak odpowiedzi (czy adres jest dobry, czy Home Assistant działa?)',
  },
  statistics: {
    off: 'statystyki roku szkolnego: wyłączone (homeassistant.statistics: false)',
    answers: (url) => `OK   WebSocket Home Assistant pod ${url} odpowiada i przyjmuje token`,
    fails: (url, why) => `FAIL WebSocket Home Assistant pod ${url}: ${why}`,
    imported: (statistics, rows) => `     rok szkolny w statystykach: ${statistics} statystyk, ${rows} wierszy dziennych zaimportowanych`,
    none: '     rok szkolny w statystykach: jeszcze nic nie zaimportowano (pierwsze odczytanie ocen przez mostek zaimportuje rok)',
  },
  noCalendars: (why) => `kalendarze nie są tworzone: ${why}`,
  noPublicUrl: 'nie ustawiono homeassistant.public_url (adresu mostka, pod którym widzi go Home Assistant)',
  webOff: 'serwer WWW, który podaje ich kanały, jest wyłączony (http.port wynosi 0)',
  assist: {
    entry: (status) => `Asystent (wpis Model Context Protocol „dziennik2mqtt”): ${status}`,
    off: 'Asystent: wpis Model Context Protocol nie jest tworzony (homeassistant.assist: false)',
    present: 'Asystent: Home Assistant ma wpis Model Context Protocol „dziennik2mqtt”',
    absent:
      'Asystent: Home Assistant nie ma jeszcze wpisu Model Context Protocol „dziennik2mqtt” (aplikacja proponuje go wśród wykrytych integracji)',
    notMade: (why) => `Asystent: wpis Model Context Protocol nie jest tworzony: ${why}`,
    tools: (names) => `     jego narzędzia: ${names}`,
  },
};

const uk: HomeAssistantText = {
  lists: { ...CALENDAR_TEXT.uk.calendarFeeds, homework: 'домашні завдання' },
  homework: 'Домашнє завдання',
  status: { 'would make': 'буде створено', made: 'створено', kept: 'збережено', 'removed by the family': 'видалено родиною' },
  off: 'API Home Assistant: не налаштовано (homeassistant: у конфігурації), там нічого не створюється',
  answers: (url) => `API Home Assistant за адресою ${url} відповідає; календарі та список завдань кожної дитини:`,
  fails: (url, why) => `API Home Assistant за адресою ${url}: ${why}`,
  faults: {
    unauthorized: 'токен відхилено (401): потрібен довгостроковий токен доступу адміністратора (його профіль, Безпека)',
    refused: 'запит відхилено',
    server_error: 'Home Assistant відповів помилкою',
    unavailable: 'Home Assistant не працює або запускається',
    unreachable: 'немає відповіді (чи правильна адреса, чи працює Home Assistant?)',
  },
  statistics: {
    off: 'статистика навчального року: вимкнено (homeassistant.statistics: false)',
    answers: (url) => `OK   WebSocket Home Assistant за адресою ${url} відповідає і приймає токен`,
    fails: (url, why) => `FAIL WebSocket Home Assistant за адресою ${url}: ${why}`,
    imported: (statistics, rows) => `     навчальний рік у статистиці: ${statistics} статистик, ${rows} денних рядків імпортовано`,
    none: '     навчальний рік у статистиці: ще нічого не імпортовано (перше читання оцінок мостом імпортує рік)',
  },
  noCalendars: (why) => `календарі не створюються: ${why}`,
  noPublicUrl: 'не задано homeassistant.public_url (адресу мосту, за якою його бачить Home Assistant)',
  webOff: 'вебсервер, що віддає їхні канали, вимкнено (http.port дорівнює 0)',
  assist: {
    entry: (status) => `Асистент (запис Model Context Protocol «dziennik2mqtt»): ${status}`,
    off: 'Асистент: запис Model Context Protocol не створюється (homeassistant.assist: false)',
    present: 'Асистент: Home Assistant має запис Model Context Protocol «dziennik2mqtt»',
    absent: 'Асистент: Home Assistant ще не має запису Model Context Protocol «dziennik2mqtt» (застосунок пропонує його серед виявлених інтеграцій)',
    notMade: (why) => `Асистент: запис Model Context Protocol не створюється: ${why}`,
    tools: (names) => `     його інструменти: ${names}`,
  },
};

export const HOMEASSISTANT_TEXT: Readonly<Record<Language, HomeAssistantText>> = { en, pl, uk };
