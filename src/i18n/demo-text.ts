// The words of the demo's banner and of what it prints while it runs, in the language of the demo's
// config (Polish, the default, as the bridge it starts speaks). Addresses, logins, commands, topics
// and the demo's own school data stay as they are.
import type { Language } from '../config/language.js';

const en = {
  /** Each label is padded to one width by the banner. */
  label: {
    portal: 'simulated portal',
    family: 'family portal',
    broker: 'MQTT broker',
    ownBroker: 'your own broker',
    watch: 'watch it',
    homeAssistant: 'Home Assistant',
    check: 'check, dashboard',
    news: 'news',
    board: 'family board',
    /** The MCP server's address (interface 16.4), for Home Assistant's Model Context Protocol or another client. */
    mcp: 'MCP server',
  },
  logins: 'logins',
  /** The rest of the portal's line: its other hosts. */
  hosts: (auth: string, messages: string, sandbox: string) => `auth ${auth}, messages ${messages}, sandbox ${sandbox}`,
  family: (email: string): [string, string] => [
    `(e-mail ${email}, linking the three children:`,
    'their road while the register login fails, see --quirks register-broken)',
  ],
  brokerEmbedded: 'embedded, on every interface of this machine; use one of these addresses:',
  brokerYours: (url: string) => `${url} (yours; the demo's topics are removed when it stops)`,
  homeAssistant: 'point its MQTT integration at this broker; the children appear as devices',
  configFile: (file: string) => `${file} holds every address and login above; from another terminal here:`,
  news: (every: string, first: string): [string, string, string, string] => [
    `every ${every} the simulated school adds a grade, a message, a plan change`,
    `and an announcement for one child (the first in ${first}); the bridge fires`,
    'its events (grade, message, notice, plan_change) at its next passes, at any hour:',
    "the demo's school is in lessons day and night",
  ],
  minutes: (m: number) => `${m} minute${m === 1 ? '' : 's'}`,
  seconds: (s: number) => `${s} s`,
  stop: 'press Ctrl-C to stop',
  /** The board's loopback address, beside the home network's. */
  onThisMachine: 'on this machine:',
  boardToken: "(the demo's own access token; the board's Calendars button gives the feeds)",
  stopping: 'stopping...',
  notCleared: (url: string, why: string) => `could not remove the demo's retained topics from ${url}: ${why}`,
  cleared: (count: number, url: string) => `removed the demo's ${count} retained topics (devices and states) from ${url}`,
  /** `grade` is the grade's words with their comma (none for a kindergarten child), `change` the plan change's. */
  round: (child: string, grade: string, message: string, notice: string, change: string) =>
    `news for ${child}: ${grade}message "${message}", announcement "${notice}"${change}`,
  grade: (grade: string, subject: string) => `grade ${grade} in ${subject}, `,
  planChange: (date: string, lessonNo: number, subject: string, kind: string) => `, plan change ${date} lesson ${lessonNo} ${subject} (${kind})`,
};

/** Every language's words: the English table is the shape, so a word missing in one does not compile. */
export type DemoText = typeof en;

const pl: DemoText = {
  label: {
    portal: 'symulowany portal',
    family: 'portal dla rodzin',
    broker: 'broker MQTT',
    ownBroker: 'własny broker',
    watch: 'podgląd',
    homeAssistant: 'Home Assistant',
    check: 'check, dashboard',
    news: 'nowości',
    board: 'tablica rodziny',
    mcp: 'serwer MCP',
  },
  logins: 'loginy',
  hosts: (auth, messages, sandbox) => `auth ${auth}, wiadomości ${messages}, sandbox ${sandbox}`,
  family: (email) => [
    `(Konto LIBRUS; e-mail ${email}, powiązane z trojgiem dzieci:`,
    'ich droga, gdy logowanie do dziennika zawodzi, zob. --quirks register-broken)',
  ],
  brokerEmbedded: 'wbudowany, na każdym interfejsie tego komputera; użyj jednego z tych adresów:',
  brokerYours: (url) => `${url} (Twój; tematy demo zostaną usunięte po jego zatrzymaniu)`,
  homeAssistant: 'wskaż ten broker w integracji MQTT; dzieci pojawią się jako urządzenia',
  configFile: (file) => `${file} zawiera wszystkie adresy i loginy powyżej; z innego terminala tutaj:`,
  news: (every, first) => [
    `co ${every} symulowana szkoła dodaje ocenę, wiadomość, zmianę w planie`,
    `i ogłoszenie dla jednego dziecka (pierwsze za ${first}); mostek wywołuje`,
    'swoje zdarzenia (grade, message, notice, plan_change) przy kolejnych odczytach, o każdej porze:',
    'w szkole demo lekcje trwają dzień i noc',
  ],
  minutes: (m) => `${m} min`,
  seconds: (s) => `${s} s`,
  stop: 'Ctrl-C zatrzymuje demo',
  onThisMachine: 'na tym komputerze:',
  boardToken: '(własny token dostępu demo; przycisk Kalendarze na tablicy podaje kalendarze)',
  stopping: 'zatrzymywanie...',
  notCleared: (url, why) => `nie udało się usunąć zachowanych tematów demo z ${url}: ${why}`,
  cleared: (count, url) => `usunięto zachowane tematy demo (urządzenia i stany: ${count}) z ${url}`,
  round: (child, grade, message, notice, change) => `nowości (${child}): ${grade}wiadomość "${message}", ogłoszenie "${notice}"${change}`,
  grade: (grade, subject) => `ocena ${grade} z przedmiotu ${subject}, `,
  planChange: (date, lessonNo, subject, kind) => `, zmiana w planie ${date} lekcja ${lessonNo} ${subject} (${kind})`,
};

const uk: DemoText = {
  label: {
    portal: 'симульований портал',
    family: 'сімейний портал',
    broker: 'брокер MQTT',
    ownBroker: 'власний брокер',
    watch: 'перегляд',
    homeAssistant: 'Home Assistant',
    check: 'check, dashboard',
    news: 'новини',
    board: 'дошка родини',
    mcp: 'сервер MCP',
  },
  logins: 'логіни',
  hosts: (auth, messages, sandbox) => `auth ${auth}, повідомлення ${messages}, sandbox ${sandbox}`,
  family: (email) => [
    `(Konto LIBRUS; e-mail ${email}, пов’язаний з трьома дітьми:`,
    'їхній шлях, коли вхід до журналу не вдається, див. --quirks register-broken)',
  ],
  brokerEmbedded: 'вбудований, на кожному інтерфейсі цього комп’ютера; використайте одну з цих адрес:',
  brokerYours: (url) => `${url} (ваш; теми демо буде видалено, коли воно зупиниться)`,
  homeAssistant: 'вкажіть цей брокер в інтеграції MQTT; діти з’являться як пристрої',
  configFile: (file) => `${file} містить усі адреси й логіни вище; з іншого термінала тут:`,
  news: (every, first) => [
    `кожні ${every} симульована школа додає оцінку, повідомлення, зміну в розкладі`,
    `і оголошення для однієї дитини (перше за ${first}); міст запускає`,
    'свої події (grade, message, notice, plan_change) під час наступних читань, у будь-яку годину:',
    'у школі демо уроки тривають день і ніч',
  ],
  minutes: (m) => `${m} хв`,
  seconds: (s) => `${s} с`,
  stop: 'Ctrl-C зупиняє демо',
  onThisMachine: 'на цьому комп’ютері:',
  boardToken: '(власний токен доступу демо; кнопка «Календарі» на дошці дає календарі)',
  stopping: 'зупинка...',
  notCleared: (url, why) => `не вдалося видалити збережені теми демо з ${url}: ${why}`,
  cleared: (count, url) => `видалено збережені теми демо (пристрої та стани: ${count}) з ${url}`,
  round: (child, grade, message, notice, change) => `новини (${child}): ${grade}повідомлення "${message}", оголошення "${notice}"${change}`,
  grade: (grade, subject) => `оцінка ${grade} з предмета ${subject}, `,
  planChange: (date, lessonNo, subject, kind) => `, зміна в розкладі ${date} урок ${lessonNo} ${subject} (${kind})`,
};

export const DEMO_TEXT: Readonly<Record<Language, DemoText>> = { pl, en, uk };

/** A banner line: its label padded to the banner's width, then the words. */
export function bannerLine(label: string, words: string): string {
  return `  ${`${label}:`.padEnd(20)} ${words}`;
}

/** A banner line that goes on under the one before. */
export function bannerMore(words: string): string {
  return `${' '.repeat(23)}${words}`;
}
