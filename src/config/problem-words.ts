// The config's refusals in the family's language. The schema, the add-on's form and the schema
// library write their messages in English (the language of the code, and of the tests that read
// them); each problem line `key.path: message` is put into Polish or Ukrainian here, as the last step
// before a person reads it. Key paths, key names, values to type and examples stay as written.
import type { Language } from './language.js';

type Words = readonly [pl: string, uk: string];

/** Messages that are always the same text. */
const FIXED: Readonly<Record<string, Words>> = {
  "an e-mail address like rodzic@example.com (the family portal's login); a register login like 1234567u goes under login:": [
    'adres e-mail, np. rodzic@example.com: login do portalu dla rodzin (Konto LIBRUS); login do dziennika, np. 1234567u, wpisuje się pod login:',
    'адреса e-mail, напр. rodzic@example.com: логін до сімейного порталу (Konto LIBRUS); логін до журналу, напр. 1234567u, вказують у login:',
  ],
  'this is an e-mail address (an account of the family portal, Konto LIBRUS): put it under email: instead of login: for the family road, or use the register login of the parent account, digits ending in u like 1234567u, with its own password':
    [
      'to adres e-mail konta portalu dla rodzin (Konto LIBRUS): wpisz go pod email: zamiast login:, by czytać przez portal dla rodzin, albo podaj login do dziennika konta rodzica, cyfry zakończone na u, np. 1234567u, z jego własnym hasłem',
      'це адреса e-mail облікового запису сімейного порталу (Konto LIBRUS): вкажіть її в email: замість login:, щоб читати через сімейний портал, або вкажіть логін до журналу облікового запису батьків, цифри з u в кінці, як 1234567u, з його власним паролем',
    ],
  '"bridge" is reserved for the bridge itself': ['"bridge" jest zarezerwowane dla samego mostka', '"bridge" зарезервовано для самого мосту'],
  'give login (the register road) or email (the family road), not both: one entry per road': [
    'podaj login (odczyt z dziennika) albo email (odczyt przez portal dla rodzin), nie oba: jeden wpis na drogę',
    'вкажіть login (читання з журналу) або email (читання через сімейний портал), не обидва: один запис на шлях',
  ],
  'give password or password_file, not both': ['podaj password albo password_file, nie oba', 'вкажіть password або password_file, не обидва'],
  'required (or password_file)': ['wymagane (albo password_file)', 'обов’язково (або password_file)'],
  'list at least one child, or leave children: out for every linked child': [
    'wymień co najmniej jedno dziecko albo pomiń children:, by czytać każde powiązane dziecko',
    'вкажіть хоча б одну дитину або пропустіть children:, щоб читати кожну пов’язану дитину',
  ],
  'only lowercase letters, digits and _': ['tylko małe litery, cyfry i _', 'лише малі літери, цифри та _'],
  'true or false': ['true albo false', 'true або false'],
  'an http:// or https:// address': ['adres http:// albo https://', 'адреса http:// або https://'],
  'give token (a long-lived access token of an administrator) or token_file, one of the two': [
    'podaj token (token dostępu długoterminowego administratora) albo token_file, jedno z dwojga',
    'вкажіть token (довгостроковий токен доступу адміністратора) або token_file, одне з двох',
  ],
  'must start with https:// (plain http:// only for a loopback host such as 127.0.0.1)': [
    'musi zaczynać się od https:// (zwykłe http:// tylko dla tego komputera, np. 127.0.0.1)',
    'має починатися з https:// (звичайний http:// лише для цього комп’ютера, напр. 127.0.0.1)',
  ],
  'use HH:MM-HH:MM, e.g. 22:00-06:00': ['wpisz GG:MM-GG:MM, np. 22:00-06:00', 'вкажіть ГГ:ХХ-ГГ:ХХ, напр. 22:00-06:00'],
  'each threshold is at least 1': ['każdy próg wynosi co najmniej 1', 'кожен поріг щонайменше 1'],
  'each threshold is at most 6': ['każdy próg wynosi co najwyżej 6', 'кожен поріг щонайбільше 6'],
  'five numbers, e.g. [1.75, 2.75, 3.75, 4.75, 5.5]': [
    'pięć liczb, np. [1.75, 2.75, 3.75, 4.75, 5.5]',
    'п’ять чисел, напр. [1.75, 2.75, 3.75, 4.75, 5.5]',
  ],
  'five numbers: the average from which each grade 2, 3, 4, 5 and 6 is given': [
    'pięć liczb: średnia, od której wystawia się ocenę 2, 3, 4, 5 i 6',
    'п’ять чисел: середня, від якої ставлять оцінку 2, 3, 4, 5 і 6',
  ],
  'the five numbers must increase': ['pięć liczb musi rosnąć', 'п’ять чисел мають зростати'],
  'a port number from 1 to 65535, or 0 to turn the web server off': [
    'numer portu od 1 do 65535 albo 0, by wyłączyć serwer WWW',
    'номер порту від 1 до 65535 або 0, щоб вимкнути вебсервер',
  ],
  'a whole number': ['liczba całkowita', 'ціле число'],
  'an IP address: 0.0.0.0 for every interface, 127.0.0.1 for this machine only': [
    'adres IP: 0.0.0.0 dla każdego interfejsu, 127.0.0.1 tylko dla tego komputera',
    'IP-адреса: 0.0.0.0 для кожного інтерфейсу, 127.0.0.1 лише для цього комп’ютера',
  ],
  'must start with mqtt:// or mqtts://': ['musi zaczynać się od mqtt:// albo mqtts://', 'має починатися з mqtt:// або mqtts://'],
  'letters, digits, _ and - only': ['tylko litery, cyfry, _ i -', 'лише літери, цифри, _ і -'],
  'at least one account is needed': ['potrzebne jest co najmniej jedno konto', 'потрібен щонайменше один обліковий запис'],
  'a whole number of megabytes, 1 to 1024': ['liczba całkowita megabajtów, od 1 do 1024', 'ціла кількість мегабайтів, від 1 до 1024'],
  'a whole number of messages, 0 to 100': ['liczba całkowita wiadomości, od 0 do 100', 'ціла кількість повідомлень, від 0 до 100'],
  'at least 0 (0: the bridge sends nothing)': ['co najmniej 0 (0: mostek nic nie wysyła)', 'щонайменше 0 (0: міст нічого не надсилає)'],
  'at most 100 a day': ['co najwyżej 100 dziennie', 'щонайбільше 100 на день'],
  'must be class_tutor, {teacher: "Name Surname"} or {account_id: "..."}': [
    'musi być class_tutor, {teacher: "Imię Nazwisko"} albo {account_id: "..."}',
    'має бути class_tutor, {teacher: "Ім’я Прізвище"} або {account_id: "..."}',
  ],
  'the file is empty': ['plik jest pusty', 'файл порожній'],
  'the path of a PEM file': ['ścieżka pliku PEM', 'шлях до файлу PEM'],
  'the options must be a mapping of keys': ['opcje muszą być mapą kluczy', 'параметри мають бути відображенням ключів'],
  "fill in the parent's register login (like 1234567u)": [
    'wpisz login rodzica do dziennika (np. 1234567u)',
    'вкажіть логін батьків до журналу (напр. 1234567u)',
  ],
  'fill in the login (the register road) or the e-mail (the family road), not both': [
    'wpisz login (odczyt z dziennika) albo e-mail (odczyt przez portal dla rodzin), nie oba',
    'вкажіть логін (читання з журналу) або e-mail (читання через сімейний портал), не обидва',
  ],
  'add at least one account (a login and password)': [
    'dodaj co najmniej jedno konto (login i hasło)',
    'додайте щонайменше один обліковий запис (логін і пароль)',
  ],
  'an e-mail entry brings every linked child, each named by its first name; leave id empty, or give the child a login entry of its own (its register login) to choose its id':
    [
      'wpis z e-mailem obejmuje każde powiązane dziecko, każde nazwane jego imieniem; zostaw id puste albo daj dziecku własny wpis z loginem (jego login do dziennika), by wybrać mu id',
      'запис з e-mail охоплює кожну пов’язану дитину, кожну названо її ім’ям; залиште id порожнім або дайте дитині власний запис з логіном (її логін до журналу), щоб вибрати їй id',
    ],
  "a fixed message is sent from a login entry's account, and there is none: add the child's register login (like 1234567u) as an account of its own (it is read on the register road, the e-mail entry standing behind it), or remove the message":
    [
      'stała wiadomość wychodzi z konta wpisu z loginem, a takiego nie ma: dodaj login dziecka do dziennika (np. 1234567u) jako osobne konto (będzie czytane z dziennika, a wpis z e-mailem zostanie w odwodzie) albo usuń wiadomość',
      'фіксоване повідомлення надсилається з облікового запису запису з логіном, а такого немає: додайте логін дитини до журналу (напр. 1234567u) як окремий обліковий запис (його читатимуть з журналу, а запис з e-mail лишиться запасним) або видаліть повідомлення',
    ],
  'required when there is more than one account (the login or id of the account that sends it)': [
    'wymagane, gdy kont jest więcej niż jedno (login albo id konta, które ją wysyła)',
    'обов’язково, коли облікових записів більше одного (логін або id облікового запису, який його надсилає)',
  ],
  'file not found': ['nie ma pliku', 'файл не знайдено'],
  'not valid JSON': ['niepoprawny JSON', 'некоректний JSON'],
  'no broker is set and SUPERVISOR_TOKEN is missing, so the Supervisor cannot be asked. Set mqtt_url in the options.': [
    'nie podano brokera, a brak SUPERVISOR_TOKEN, więc nie można zapytać Supervisora. Wpisz mqtt_url w opcjach.',
    'брокер не задано, а SUPERVISOR_TOKEN немає, тож Supervisor не можна запитати. Вкажіть mqtt_url у параметрах.',
  ],
};

/** Messages with a value inside: the English pattern and its words. */
const PATTERNS: readonly (readonly [RegExp, (...parts: string[]) => Words])[] = [
  [
    /^Home Assistant has no MQTT broker(.*)\. Install and start the "Mosquitto broker" add-on \(Settings > Add-ons > Add-on store\), then restart this add-on; or set mqtt_url in the options\.$/,
    (said) => [
      `Home Assistant nie ma brokera MQTT${said}. Zainstaluj i uruchom dodatek "Mosquitto broker" (Ustawienia > Dodatki > Sklep z dodatkami), a potem uruchom ten dodatek ponownie; albo wpisz mqtt_url w opcjach.`,
      `у Home Assistant немає брокера MQTT${said}. Установіть і запустіть додаток "Mosquitto broker" (Налаштування > Додатки > Магазин додатків), потім перезапустіть цей додаток; або вкажіть mqtt_url у параметрах.`,
    ],
  ],
  [
    /^the Supervisor refused to name the MQTT broker(.*)\. The add-on needs "services: mqtt:need" in its config\.yaml\.$/,
    (said) => [
      `Supervisor odmówił podania brokera MQTT${said}. Dodatek potrzebuje "services: mqtt:need" w swoim config.yaml.`,
      `Supervisor відмовився назвати брокер MQTT${said}. Додатку потрібно "services: mqtt:need" у його config.yaml.`,
    ],
  ],
  [
    /^cannot reach the Supervisor at (\S+): (.*)$/,
    (url, why) => [`nie można połączyć się z Supervisorem pod ${url}: ${why}`, `не вдається зв’язатися із Supervisor за адресою ${url}: ${why}`],
  ],
  [
    /^unexpected answer from the Supervisor \(HTTP (\d+)\)(.*)$/,
    (status, said) => [`nieoczekiwana odpowiedź Supervisora (HTTP ${status})${said}`, `неочікувана відповідь Supervisor (HTTP ${status})${said}`],
  ],
  [/^ \(the Supervisor said: (.*)\)$/, (said) => [` (Supervisor odpowiedział: ${said})`, ` (Supervisor відповів: ${said})`]],
  [/^Invalid option: expected one of (.+)$/, (v) => [`wpisz jedną z wartości ${v}`, `вкажіть одне зі значень ${v}`]],
  [/^Invalid input: expected (.+)$/, (v) => [`oczekiwano ${v}`, `очікувалося ${v}`]],
  [/^Too small: expected string to have >=1 characters?$/, () => ['nie może być puste', 'не може бути порожнім']],
  [/^Invalid (URL|url)$/, () => ['to nie jest adres (np. https://...)', 'це не адреса (напр. https://...)']],
  [/^expected (\w+), received (\w+)$/, (e, r) => [`oczekiwano: ${e}, jest: ${r}`, `очікувалося: ${e}, є: ${r}`]],
  [
    /^not a duration: (".*") \(use 90s, 3m, 1h\)$/,
    (v) => [`to nie jest czas: ${v} (wpisz np. 90s, 3m, 1h)`, `це не тривалість: ${v} (вкажіть напр. 90s, 3m, 1h)`],
  ],
  [
    /^(.+) is too often: at least (\S+), to spare the portal and the family's account$/,
    (v, floor) => [
      `${v} to za często: co najmniej ${floor}, by oszczędzić portal i konto rodziny`,
      `${v} — це надто часто: щонайменше ${floor}, щоб берегти портал і обліковий запис родини`,
    ],
  ],
  [
    /^the same e-mail as (accounts\[\d+\]\.email); list each account once$/,
    (at) => [`ten sam e-mail co ${at}; wpisz każde konto raz`, `той самий e-mail, що й ${at}; вкажіть кожен обліковий запис один раз`],
  ],
  [
    /^the same login as (accounts\[\d+\]\.login) (\(".*"\)); list each account once$/,
    (at, login) => [
      `ten sam login co ${at} ${login}; wpisz każde konto raz`,
      `той самий логін, що й ${at} ${login}; вкажіть кожен обліковий запис один раз`,
    ],
  ],
  [
    /^the same login as (children\[\d+\]\.login); list each child once$/,
    (at) => [`ten sam login co ${at}; wpisz każde dziecko raz`, `той самий логін, що й ${at}; вкажіть кожну дитину один раз`],
  ],
  [/^duplicate id (".*")$/, (id) => [`powtórzone id ${id}`, `повторений id ${id}`]],
  [/^cannot read (.+) \((\w+)\)$/, (file, code) => [`nie można odczytać ${file} (${code})`, `не вдається прочитати ${file} (${code})`]],
  [
    /^(.+) is not a PEM file \(no -----BEGIN line\)$/,
    (file) => [`${file} nie jest plikiem PEM (brak wiersza -----BEGIN)`, `${file} не є файлом PEM (немає рядка -----BEGIN)`],
  ],
  [
    /^needed with (mqtt\.\w+): the client certificate and its private key go together$/,
    (key) => [
      `potrzebne razem z ${key}: certyfikat klienta i jego klucz prywatny idą w parze`,
      `потрібно разом із ${key}: сертифікат клієнта та його приватний ключ ідуть разом`,
    ],
  ],
  [/^cannot read \((\w+)\)$/, (code) => [`nie można odczytać (${code})`, `не вдається прочитати (${code})`]],
  [
    /^fill in the password of that (e-mail|login)$/,
    (what) => [
      `wpisz hasło do tego ${what === 'login' ? 'loginu' : 'adresu e-mail'}`,
      `вкажіть пароль до цього ${what === 'login' ? 'логіна' : 'e-mail'}`,
    ],
  ],
  [
    /^must be class_tutor, teacher:Name Surname or account:<id> \(got (".*")\)$/,
    (got) => [
      `musi być class_tutor, teacher:Imię Nazwisko albo account:<id> (jest ${got})`,
      `має бути class_tutor, teacher:Ім’я Прізвище або account:<id> (є ${got})`,
    ],
  ],
  [
    /^no login entry has the login or id (".*") \(.*\)$/,
    (name) => [
      `żaden wpis z loginem nie ma loginu ani id ${name} (stała wiadomość wychodzi z konta wpisu z loginem; dziecko z wpisu z e-mailem potrzebuje do niej własnego wpisu z loginem)`,
      `жоден запис з логіном не має логіна чи id ${name} (фіксоване повідомлення надсилається з облікового запису запису з логіном; дитині із запису з e-mail для нього потрібен власний запис з логіном)`,
    ],
  ],
];

/** One message in the language, or as written when it is already in it (or unknown here). */
export function messageIn(message: string, language: Language): string {
  if (language === 'en') return message;
  const pick = (words: Words): string => (language === 'pl' ? words[0] : words[1]);
  const fixed = FIXED[message];
  if (fixed) return pick(fixed);
  for (const [pattern, words] of PATTERNS) {
    const found = pattern.exec(message);
    // A part may be a message of its own (the Supervisor's words around its answer).
    if (found) return pick(words(...found.slice(1).map((part) => (part ? messageIn(part, language) : ''))));
  }
  return message;
}

/** A problem line `key.path: message` (or a bare message) with its message in the language. */
export function problemIn(problem: string, language: Language): string {
  const [, path, message] = /^([\w.[\]]+|\(top level\)): ([\s\S]*)$/.exec(problem) ?? [];
  if (path === undefined || message === undefined) return messageIn(problem, language);
  return `${path === '(top level)' ? TOP_LEVEL[language] : path}: ${messageIn(message, language)}`;
}

const TOP_LEVEL: Readonly<Record<Language, string>> = { en: '(top level)', pl: '(najwyższy poziom)', uk: '(верхній рівень)' };

/** The add-on as a refusal's first words name it (what the Supervisor could not give). */
export const ADDON: Readonly<Record<Language, string>> = { en: 'Home Assistant add-on', pl: 'dodatek Home Assistant', uk: 'додаток Home Assistant' };

/** Where the add-on's options come from, as the refusal's first words say it. */
export const ADDON_OPTIONS: Readonly<Record<Language, string>> = { en: 'add-on options', pl: 'opcje dodatku', uk: 'параметри додатка' };
