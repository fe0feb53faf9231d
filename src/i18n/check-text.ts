// What `dziennik2mqtt check` prints, in each language. Logins, child ids, step names, config keys,
// commands and addresses stay as they are in every language (a script or a bug report reads them).
import type { LoginStep, ProblemReason } from '../portal/errors.js';
import type { Language } from '../config/language.js';
import type { BrokerOrigin } from '../config/broker-origin.js';

/** "3 children on 2 accounts" (1 child, on 1 account). */
const enFamily = (children: number, accounts: number): string =>
  `${children} ${children === 1 ? 'child' : 'children'} on ${accounts} ${accounts === 1 ? 'account' : 'accounts'}`;

/** 1, 2–4 (not 12–14), and the rest: a Slavic noun's three forms after a number. */
function slavic(n: number, one: string, few: string, many: string): string {
  const tens = n % 100;
  if (n === 1) return one;
  if (n % 10 >= 2 && n % 10 <= 4 && (tens < 12 || tens > 14)) return few;
  return many;
}

/** "3 dzieci na 2 kontach" (1 dziecko na 1 koncie). */
const plFamily = (children: number, accounts: number): string =>
  `${children} ${children === 1 ? 'dziecko' : 'dzieci'} na ${accounts} ${accounts === 1 ? 'koncie' : 'kontach'}`;

/** "3 дитини на 2 облікових записах" (1 дитина на 1 обліковому записі, 5 дітей). */
const ukFamily = (children: number, accounts: number): string =>
  `${children} ${slavic(children, 'дитина', 'дитини', 'дітей')} на ${accounts} ${accounts === 1 ? 'обліковому записі' : 'облікових записах'}`;

/** The broker's certificate not trusted, for another host, out of its dates; or the broker refused ours (mqtt/client.ts tells which). */
export type CertificateFault = 'cert_untrusted' | 'cert_host' | 'cert_expired' | 'cert_refused';
/** Why the broker failed `check`: the connection (refused, unknown host, no answer, the user refused), a topic or a certificate. */
export type BrokerFault = 'not_authorised' | 'refused' | 'unknown_host' | 'no_answer' | 'topic_refused' | 'old_version' | CertificateFault | 'other';

/** A TLS key as the place it is set names it: the config file's `mqtt.ca`, the app's form's `mqtt_ca`. */
const tlsKey = (from: BrokerOrigin, name: string): string => (from === 'form' || from === 'supervisor' ? `mqtt_${name}` : `mqtt.${name}`);

/** Where the broker's address came from, as `check` names it: the file's key and the variable read alike in every language. */
const where = (from: BrokerOrigin, form: string, supervisor: string): string =>
  ({ file: 'mqtt.url', env: 'DZIENNIK2MQTT_MQTT_URL', form, supervisor })[from];

/** The reasons whose words differ on the family road (`no_children` is the family road's alone). */
export type FamilyHelp = 'wrong_credentials' | 'service_down' | 'no_children';

const en = {
  /** After `OK   <login>: `: the child, class, school and the id the config uses for the child. */
  account: (name: string, className: string, school: string, id: string) => `${name}, class ${className}, ${school} (child id: ${id})`,
  /** The same for a kindergarten child (its kindergarten plan of blocks found): a kindergarten, no class, as its device's model line says. */
  kindergartenAccount: (name: string, school: string, id: string) => `${name}, kindergarten, ${school} (child id: ${id})`,
  schoolUnknown: 'school unknown',
  /** After `OK   familyN: `: the family portal's account and how many children it links. */
  familyAccount: (children: string) => `the e-mail of the family portal (Konto LIBRUS) works; linked children: ${children}`,
  /** After `OK   <login>: ` under an e-mail entry: the child as the portal names it, its link's state, its road (`road`), its id. */
  linkedChild: (name: string, state: string, id: string, road: string) => `${name}, link ${state}, ${road} (child id: ${id})`,
  /**
   * The road `check` tells for a linked child, as the bridge will read it (portal/roads.ts): the family road
   * (proved by one read), the register road (its login entry works; the family road stands behind), or the
   * family road standing in while its register login fails for the portal's reason (proved by one read).
   */
  road: {
    register: 'read on the register road (its login entry); the family road stands behind it while the register login fails',
    family: 'read on the family road',
    'family-standing-in': 'read on the family road while its register login fails (see above); the register login is tried again hourly',
  },
  /** After `FAIL <login>: ` under an e-mail entry: the child's own register password is wrong, so neither road reads it. */
  linkedChildWrongPassword: (name: string, id: string) =>
    `${name}: its login entry's password is wrong (see above), and the bridge does not read the child on the family road either: a wrong password is never covered. Correct the password (child id: ${id})`,
  registerNumber: (number: string) => `class register number: ${number}`,
  /** When the portal gives no register number. */
  registerNumberUnknown: 'unknown (lucky_today will stay off)',
  /** The label before the portal's advice to change the password. */
  advice: 'advice',
  modules: 'modules',
  module: {
    messages: 'messages',
    announcements: 'announcements',
    timetable: 'timetable',
    kindergartenPlan: 'kindergarten plan',
    point: 'point grades',
    descriptive: 'descriptive grading',
  },
  yes: 'yes',
  no: 'no',
  didNotAnswer: 'did not answer',
  noMessagesModule: 'no (the school has no messages module)',
  notUsed: 'not used by the school',
  notPublished: 'not published yet',
  /** A module refused to a kindergarten child: one a kindergarten does not have. */
  notInKindergarten: 'not in a kindergarten',
  refused: (status: string) => `no (${status})`,
  stoppedAt: (step: string) => `the login stopped at step: ${step}`,
  /** A login's steps in words (the --trace file keeps their English names for a bug report). */
  step: {
    entry: 'entry',
    'login page': 'login page',
    password: 'password',
    redirects: 'redirects',
    'required actions': 'required actions',
    'session check': 'session check',
  } satisfies Record<LoginStep, string>,
  /** The last line when all work: the children the bridge will read (each once) and the config's entries they come from. */
  allWork: (children: number, accounts: number) => `All accounts work: ${enFamily(children, accounts)}.`,
  someFailed: (failed: string, total: string) => `${failed} of ${total} account(s) failed.`,
  /** data_dir in a form only a development version wrote (app/unreleased-data.ts): what `run` refuses, `check` refuses too. */
  unreleasedData: (dir: string, files: string) =>
    `FAIL data_dir ${dir} was written by a development version of dziennik2mqtt, before its first release, and this version does not read it (${files}). ` +
    'Nothing in it was changed and nothing was checked. To start afresh, move the folder away (or rename it) and run check again.',
  webOff: 'web server: off (http.port is 0)',
  /** The heading over the bare addresses (no token): how to see them with it. */
  webBare: 'web server (the addresses with the access token: dziennik2mqtt check --show-token):',
  /** The heading over the addresses with the token and the calendar feeds' keys. */
  webWithToken: 'web server (the board with the access token, each calendar feed with a key that opens only that feed; keep them private):',
  tokenUnreadable: (dir: string, code: string) => `web server: cannot read or keep its access token in ${dir} (${code})`,
  traceWritten: (file: string) => `transcript written to ${file} (no password, cookie values or child data: fit to attach to a bug report)`,
  traceNotWritten: (file: string, code: string) => `could not write the transcript to ${file} (${code})`,
  /** A failed login: what happened, then what to do. It speaks of one login tried now (unlike the problem's advice). */
  help: {
    wrong_credentials: [
      'wrong login or password',
      'the portal did not accept the login or password. Under login: goes the numeric register login of the parent account (like 1234567u); the e-mail of the family portal (Konto LIBRUS) goes under email: (the family road). Check the password of the account you gave.',
    ],
    login_changed: [
      'the portal’s login changed',
      'the portal answered the login in a way this version does not know; this is not a wrong password. Update dziennik2mqtt, and if the newest version fails too, report it with the file of `dziennik2mqtt check --trace FILE` (it holds no password, cookie or child data).',
    ],
    captcha_required: ['the portal asks for a captcha', 'log in once in a web browser from the same network, then run check again in 30 minutes.'],
    link_needs_action: ['the child’s link needs action', 'sign in to the family portal in a web browser and finish what it asks for this child.'],
    service_down: ['portal not reachable', 'the portal did not answer (maintenance or network). Try again later.'],
    session_expired: ['session refused', 'the portal ended the session right after login. Try again later.'],
    storage_error: ['data_dir not usable', 'check that data_dir exists and this user may write to it.'],
    unexpected_response: ['unexpected answer', 'the portal answered in an unexpected way'],
  } satisfies Record<ProblemReason, readonly [string, string]>,
  /** An `email` entry's failure where the family road's words differ (its own e-mail and password; no child linked). */
  familyHelp: {
    wrong_credentials: [
      'wrong e-mail or password',
      'the family portal did not accept the e-mail or password of this email: entry. Give the e-mail and password you sign in with at the family portal (portal.librus.pl, Konto LIBRUS), not the register’s numeric login.',
    ],
    service_down: ['family portal not reachable', 'the family portal did not answer (maintenance or network). Try again later.'],
    no_children: [
      'no child linked',
      'the family portal links no child to this e-mail. Sign in to the family portal in a web browser and link your child’s register account there.',
    ],
  } satisfies Record<FamilyHelp, readonly [string, string]>,
  /** A link's state as the family portal gives it: `active` in words, any other as the portal's own word. */
  linkState: (state: string) => (state === 'active' ? 'active' : state),
  /** `check`'s broker line: the broker took the user, the proof and the subscriptions; else what failed and what to do. */
  broker: {
    ok: (published: string, subscribed: string) => `the MQTT broker takes the config's user: published to ${published}, subscribed to ${subscribed}`,
    /** What failed and what to do, naming where the address came from (the config file, the environment, the form, the Supervisor). */
    help: (from: BrokerOrigin) => {
      const at = where(from, "mqtt_url in the add-on's options", 'the address the Supervisor gave');
      return {
        not_authorised: [
          'MQTT broker refused the user',
          "the broker refused mqtt.username and mqtt.password. Check them; Home Assistant's Mosquitto add-on takes no anonymous clients: give a Home Assistant user or one of its logins.",
        ],
        refused: [
          'MQTT broker not reachable',
          {
            file: `no broker listens at ${at}. Check that the broker runs and the host and port; inside Docker or the add-on, 127.0.0.1 is the container itself (the Mosquitto add-on is mqtt://core-mosquitto:1883).`,
            env: `no broker listens at ${at}. Check that the broker runs and the host and port; inside Docker, 127.0.0.1 is the container itself: give the broker host's address.`,
            form: `no broker listens at ${at}. Check that the broker runs and the host and port; inside the add-on, 127.0.0.1 is the container itself (the Mosquitto add-on is mqtt://core-mosquitto:1883).`,
            supervisor:
              "the broker the Supervisor named (the Mosquitto broker add-on) does not answer. Check that the add-on runs, or set mqtt_url in this add-on's options.",
          }[from],
        ],
        unknown_host: [
          'MQTT broker not found',
          `the host name in ${at} is not known here. Check its spelling (inside Docker, a name the container can resolve).`,
        ],
        no_answer: ['MQTT broker does not answer', `nothing answered at ${at} in time. Check the address and any firewall between.`],
        topic_refused: [
          'MQTT broker refused a topic',
          "the broker's ACL does not let this user publish or subscribe there. Allow it the base topic and the discovery prefix.",
        ],
        old_version: ['MQTT broker refused the protocol', `the broker speaks neither MQTT 5 nor 3.1.1. Check ${at}.`],
        cert_untrusted: [
          "the MQTT broker's certificate is not trusted",
          `set ${tlsKey(from, 'ca')} to the file of the CA that signed it (a self-signed broker: its own certificate); ${tlsKey(from, 'reject_unauthorized')}: false takes any certificate, for a test broker only.`,
        ],
        cert_host: [
          "the MQTT broker's certificate is for another host",
          `the certificate does not name the host in ${at}: use a host name or address it lists.`,
        ],
        cert_expired: [
          "the MQTT broker's certificate has expired (or is not valid yet)",
          "renew the broker's certificate, and check this machine's clock.",
        ],
        cert_refused: [
          'the MQTT broker refused the client certificate',
          `the broker wants a client certificate it trusts: set ${tlsKey(from, 'cert')} and ${tlsKey(from, 'key')} to one its CA signed.`,
        ],
        other: ['MQTT broker failed', `the broker closed the connection. Check ${at} (mqtt:// or mqtts:// and the port).`],
      } satisfies Record<BrokerFault, readonly [string, string]>;
    },
    /** The last line when every account works but the broker does not. */
    accountsOnly: (children: number, accounts: number) =>
      `All accounts work (${enFamily(children, accounts)}), but the MQTT broker does not (see above).`,
  },
};

/** Every language's words: the English table is the shape, so a word missing in one does not compile. */
export type CheckText = typeof en;

const pl: CheckText = {
  account: (name, className, school, id) => `${name}, klasa ${className}, ${school} (id dziecka: ${id})`,
  kindergartenAccount: (name, school, id) => `${name}, przedszkole, ${school} (id dziecka: ${id})`,
  familyAccount: (children) => `e-mail portalu dla rodzin (Konto LIBRUS) działa; powiązane dzieci: ${children}`,
  linkedChild: (name, state, id, road) => `${name}, powiązanie ${state}, ${road} (id dziecka: ${id})`,
  road: {
    register: 'odczyt z dziennika (własny wpis z loginem); portal dla rodzin zastąpi go, gdy logowanie do dziennika zawiedzie',
    family: 'odczyt przez portal dla rodzin',
    'family-standing-in':
      'odczyt przez portal dla rodzin, dopóki logowanie do dziennika zawodzi (zob. wyżej); logowanie do dziennika jest ponawiane co godzinę',
  },
  linkedChildWrongPassword: (name, id) =>
    `${name}: hasło we własnym wpisie z loginem jest błędne (zob. wyżej), a mostek nie odczyta dziecka także przez portal dla rodzin: błędnego hasła nic nie zastępuje. Popraw hasło (id dziecka: ${id})`,
  schoolUnknown: 'szkoła nieznana',
  registerNumber: (number) => `numer w dzienniku: ${number}`,
  registerNumberUnknown: 'nieznany (lucky_today pozostanie wyłączony)',
  advice: 'zalecenie',
  modules: 'moduły',
  module: {
    messages: 'wiadomości',
    announcements: 'ogłoszenia',
    timetable: 'plan lekcji',
    kindergartenPlan: 'plan zajęć przedszkola',
    point: 'oceny punktowe',
    descriptive: 'ocenianie opisowe',
  },
  yes: 'tak',
  no: 'nie',
  didNotAnswer: 'brak odpowiedzi',
  noMessagesModule: 'nie (szkoła nie ma modułu wiadomości)',
  notUsed: 'szkoła z niego nie korzysta',
  notPublished: 'jeszcze nieopublikowany',
  notInKindergarten: 'nie w przedszkolu',
  refused: (status) => `nie (${status})`,
  stoppedAt: (step) => `logowanie zatrzymało się na kroku: ${step}`,
  step: {
    entry: 'wejście',
    'login page': 'strona logowania',
    password: 'hasło',
    redirects: 'przekierowania',
    'required actions': 'wymagane działania',
    'session check': 'sprawdzenie sesji',
  },
  allWork: (children, accounts) => `Wszystkie konta działają: ${plFamily(children, accounts)}.`,
  someFailed: (failed, total) => `Konta z błędem: ${failed} z ${total}.`,
  unreleasedData: (dir, files) =>
    `FAIL data_dir ${dir} zapisała wersja rozwojowa dziennik2mqtt sprzed pierwszego wydania; ta wersja jej nie odczytuje (${files}). ` +
    'Niczego w nim nie zmieniono i niczego nie sprawdzono. Aby zacząć od nowa, przenieś folder w inne miejsce (albo zmień jego nazwę) i uruchom check ponownie.',
  webOff: 'serwer WWW: wyłączony (http.port wynosi 0)',
  webBare: 'serwer WWW (adresy z tokenem dostępu: dziennik2mqtt check --show-token):',
  webWithToken: 'serwer WWW (tablica z tokenem dostępu, każdy kalendarz z kluczem, który otwiera tylko ten kalendarz; nie udostępniaj ich):',
  tokenUnreadable: (dir, code) => `serwer WWW: nie można odczytać ani zachować tokenu dostępu w ${dir} (${code})`,
  traceWritten: (file) =>
    `przebieg logowania zapisany w ${file} (bez hasła, wartości ciasteczek i danych dziecka: można go dołączyć do zgłoszenia błędu)`,
  traceNotWritten: (file, code) => `nie udało się zapisać przebiegu logowania do ${file} (${code})`,
  help: {
    wrong_credentials: [
      'błędny login lub hasło',
      'portal nie przyjął loginu lub hasła. Pod login: wpisuje się numeryczny login do dziennika konta rodzica (np. 1234567u); adres e-mail portalu dla rodzin (Konto LIBRUS) wpisuje się pod email: (droga przez portal dla rodzin). Sprawdź hasło podanego konta.',
    ],
    login_changed: [
      'logowanie w portalu się zmieniło',
      'portal odpowiedział przy logowaniu w sposób, którego ta wersja nie zna; to nie jest błędne hasło. Zaktualizuj dziennik2mqtt, a jeśli najnowsza wersja też zawiedzie, zgłoś błąd z plikiem z `dziennik2mqtt check --trace PLIK` (nie zawiera hasła, ciasteczek ani danych dziecka).',
    ],
    captcha_required: [
      'portal żąda przepisania kodu z obrazka (captcha)',
      'zaloguj się raz przez przeglądarkę z tej samej sieci, a potem uruchom check ponownie za 30 minut.',
    ],
    link_needs_action: [
      'powiązanie dziecka wymaga działania',
      'zaloguj się do portalu dla rodzin w przeglądarce i dokończ to, o co prosi dla tego dziecka.',
    ],
    service_down: ['portal nieosiągalny', 'portal nie odpowiedział (przerwa techniczna albo sieć). Spróbuj później.'],
    session_expired: ['sesja odrzucona', 'portal zakończył sesję zaraz po zalogowaniu. Spróbuj później.'],
    storage_error: ['data_dir nie nadaje się do użytku', 'sprawdź, czy data_dir istnieje i czy ten użytkownik może w nim zapisywać.'],
    unexpected_response: ['nieoczekiwana odpowiedź', 'portal odpowiedział w nieoczekiwany sposób'],
  },
  familyHelp: {
    wrong_credentials: [
      'błędny e-mail lub hasło',
      'portal dla rodzin nie przyjął adresu e-mail lub hasła z wpisu email:. Wpisz e-mail i hasło, którymi logujesz się do portalu dla rodzin (portal.librus.pl, Konto LIBRUS), a nie numeryczny login do dziennika.',
    ],
    service_down: ['portal dla rodzin nieosiągalny', 'portal dla rodzin nie odpowiedział (przerwa techniczna albo sieć). Spróbuj później.'],
    no_children: [
      'brak powiązanego dziecka',
      'portal dla rodzin nie pokazuje żadnego dziecka dla tego adresu e-mail. Zaloguj się do portalu dla rodzin w przeglądarce i podłącz tam konto dziecka w dzienniku.',
    ],
  },
  linkState: (state) => (state === 'active' ? 'aktywne' : state),
  broker: {
    ok: (published, subscribed) => `broker MQTT przyjmuje użytkownika z konfiguracji: publikacja na ${published}, subskrypcja ${subscribed}`,
    help: (from) => {
      const at = where(from, 'mqtt_url w opcjach dodatku', '„adres od Supervisora”');
      return {
        not_authorised: [
          'broker MQTT odrzucił użytkownika',
          'broker nie przyjął mqtt.username i mqtt.password. Sprawdź je; dodatek Mosquitto w Home Assistant nie wpuszcza anonimowych klientów: podaj użytkownika Home Assistant albo jeden z jego loginów.',
        ],
        refused: [
          'broker MQTT nieosiągalny',
          {
            file: `pod ${at} nie nasłuchuje żaden broker. Sprawdź, czy broker działa, oraz host i port; w Dockerze lub w dodatku 127.0.0.1 to sam kontener (dodatek Mosquitto to mqtt://core-mosquitto:1883).`,
            env: `pod ${at} nie nasłuchuje żaden broker. Sprawdź, czy broker działa, oraz host i port; w Dockerze 127.0.0.1 to sam kontener: podaj adres komputera z brokerem.`,
            form: `pod ${at} nie nasłuchuje żaden broker. Sprawdź, czy broker działa, oraz host i port; w dodatku 127.0.0.1 to sam kontener (dodatek Mosquitto to mqtt://core-mosquitto:1883).`,
            supervisor:
              'broker wskazany przez Supervisora (dodatek Mosquitto broker) nie odpowiada. Sprawdź, czy dodatek działa, albo wpisz mqtt_url w opcjach tego dodatku.',
          }[from],
        ],
        unknown_host: [
          'nie znaleziono brokera MQTT',
          `nazwa hosta w ${at} jest tu nieznana. Sprawdź pisownię (w Dockerze: nazwa, którą kontener zna).`,
        ],
        no_answer: ['broker MQTT nie odpowiada', `pod ${at} nic nie odpowiedziało na czas. Sprawdź adres i zaporę po drodze.`],
        topic_refused: [
          'broker MQTT odrzucił temat',
          'ACL brokera nie pozwala temu użytkownikowi publikować lub subskrybować w tym temacie. Zezwól mu na temat bazowy i prefiks discovery.',
        ],
        old_version: ['broker MQTT odrzucił protokół', `broker nie obsługuje ani MQTT 5, ani 3.1.1. Sprawdź ${at}.`],
        cert_untrusted: [
          'certyfikat brokera MQTT nie jest zaufany',
          `wskaż w ${tlsKey(from, 'ca')} plik CA, które go podpisało (broker z certyfikatem samopodpisanym: jego własny certyfikat); ${tlsKey(from, 'reject_unauthorized')}: false przyjmuje każdy certyfikat, tylko dla brokera testowego.`,
        ],
        cert_host: ['certyfikat brokera MQTT jest dla innego hosta', `certyfikat nie wymienia hosta z ${at}: użyj nazwy lub adresu, które wymienia.`],
        cert_expired: ['certyfikat brokera MQTT wygasł (albo jeszcze nie obowiązuje)', 'odnów certyfikat brokera i sprawdź zegar tego komputera.'],
        cert_refused: [
          'broker MQTT odrzucił certyfikat klienta',
          `broker chce certyfikatu klienta, któremu ufa: wskaż w ${tlsKey(from, 'cert')} i ${tlsKey(from, 'key')} certyfikat podpisany przez jego CA.`,
        ],
        other: ['błąd brokera MQTT', `broker zamknął połączenie. Sprawdź ${at} (mqtt:// lub mqtts:// i port).`],
      };
    },
    accountsOnly: (children, accounts) => `Wszystkie konta działają (${plFamily(children, accounts)}), ale broker MQTT nie (zob. wyżej).`,
  },
};

const uk: CheckText = {
  account: (name, className, school, id) => `${name}, клас ${className}, ${school} (id дитини: ${id})`,
  kindergartenAccount: (name, school, id) => `${name}, дитячий садок, ${school} (id дитини: ${id})`,
  familyAccount: (children) => `e-mail сімейного порталу (Konto LIBRUS) працює; пов'язані діти: ${children}`,
  linkedChild: (name, state, id, road) => `${name}, зв'язок ${state}, ${road} (id дитини: ${id})`,
  road: {
    register: 'читання з журналу (власний запис з логіном); сімейний портал замінить його, коли вхід до журналу не вдасться',
    family: 'читання через сімейний портал',
    'family-standing-in': 'читання через сімейний портал, поки вхід до журналу не вдається (див. вище); вхід до журналу повторюється щогодини',
  },
  linkedChildWrongPassword: (name, id) =>
    `${name}: пароль у власному записі з логіном неправильний (див. вище), і міст не читатиме дитину й через сімейний портал: неправильний пароль нічим не замінити. Виправте пароль (id дитини: ${id})`,
  schoolUnknown: 'школа невідома',
  registerNumber: (number) => `номер у журналі: ${number}`,
  registerNumberUnknown: 'невідомий (lucky_today залишиться вимкненим)',
  advice: 'порада',
  modules: 'модулі',
  module: {
    messages: 'повідомлення',
    announcements: 'оголошення',
    timetable: 'розклад',
    kindergartenPlan: 'план занять садочка',
    point: 'бальні оцінки',
    descriptive: 'описове оцінювання',
  },
  yes: 'так',
  no: 'ні',
  didNotAnswer: 'немає відповіді',
  noMessagesModule: 'ні (у школи немає модуля повідомлень)',
  notUsed: 'школа ним не користується',
  notPublished: 'ще не опубліковано',
  notInKindergarten: 'не в дитячому садку',
  refused: (status) => `ні (${status})`,
  stoppedAt: (step) => `вхід зупинився на кроці: ${step}`,
  step: {
    entry: 'вхід',
    'login page': 'сторінка входу',
    password: 'пароль',
    redirects: 'переспрямування',
    'required actions': 'потрібні дії',
    'session check': 'перевірка сесії',
  },
  allWork: (children, accounts) => `Усі облікові записи працюють: ${ukFamily(children, accounts)}.`,
  someFailed: (failed, total) => `Облікових записів з помилкою: ${failed} з ${total}.`,
  unreleasedData: (dir, files) =>
    `FAIL data_dir ${dir} записала розробницька версія dziennik2mqtt до першого випуску; ця версія її не читає (${files}). ` +
    'У ній нічого не змінено й нічого не перевірено. Щоб почати заново, перемістіть теку (або перейменуйте її) і знову запустіть check.',
  webOff: 'вебсервер: вимкнено (http.port дорівнює 0)',
  webBare: 'вебсервер (адреси з токеном доступу: dziennik2mqtt check --show-token):',
  webWithToken: 'вебсервер (дошка з токеном доступу, кожен календар із ключем, який відкриває лише цей календар; не показуйте їх нікому):',
  tokenUnreadable: (dir, code) => `вебсервер: не вдається прочитати або зберегти токен доступу в ${dir} (${code})`,
  traceWritten: (file) => `протокол входу збережено в ${file} (без пароля, значень cookie і даних дитини: його можна додати до звіту про помилку)`,
  traceNotWritten: (file, code) => `не вдалося записати протокол входу в ${file} (${code})`,
  help: {
    wrong_credentials: [
      'неправильний логін або пароль',
      'портал не прийняв логін або пароль. У login: вказують числовий логін до журналу облікового запису батьків (як 1234567u); e-mail сімейного порталу (Konto LIBRUS) вказують у email: (шлях через сімейний портал). Перевірте пароль указаного облікового запису.',
    ],
    login_changed: [
      'вхід на порталі змінився',
      'портал відповів на вхід так, як ця версія не знає; це не неправильний пароль. Оновіть dziennik2mqtt, а якщо найновіша версія теж не впорається, повідомте про помилку з файлом `dziennik2mqtt check --trace ФАЙЛ` (у ньому немає пароля, cookie чи даних дитини).',
    ],
    captcha_required: [
      'портал вимагає ввести код з картинки (captcha)',
      'увійдіть один раз через браузер з тієї самої мережі, а потім запустіть check знову через 30 хвилин.',
    ],
    link_needs_action: ['зв’язок дитини потребує дій', 'увійдіть до сімейного порталу в браузері й завершіть те, що він просить для цієї дитини.'],
    service_down: ['портал недоступний', 'портал не відповів (технічна перерва або мережа). Спробуйте пізніше.'],
    session_expired: ['сесію відхилено', 'портал завершив сесію одразу після входу. Спробуйте пізніше.'],
    storage_error: ['data_dir непридатний', 'перевірте, що data_dir існує і цей користувач може в нього записувати.'],
    unexpected_response: ['неочікувана відповідь', 'портал відповів неочікувано'],
  },
  familyHelp: {
    wrong_credentials: [
      'неправильний e-mail або пароль',
      'сімейний портал не прийняв e-mail або пароль із запису email:. Вкажіть e-mail і пароль, якими ви входите до сімейного порталу (portal.librus.pl, Konto LIBRUS), а не числовий логін до журналу.',
    ],
    service_down: ['сімейний портал недоступний', 'сімейний портал не відповів (технічна перерва або мережа). Спробуйте пізніше.'],
    no_children: [
      'немає пов’язаної дитини',
      'сімейний портал не показує жодної дитини для цього e-mail. Увійдіть до сімейного порталу в браузері й під’єднайте там обліковий запис дитини в журналі.',
    ],
  },
  linkState: (state) => (state === 'active' ? 'активний' : state),
  broker: {
    ok: (published, subscribed) => `брокер MQTT приймає користувача з конфігурації: публікація в ${published}, підписка на ${subscribed}`,
    help: (from) => {
      const at = where(from, 'mqtt_url у параметрах додатка', '«адреса від Supervisor»');
      return {
        not_authorised: [
          'брокер MQTT відхилив користувача',
          'брокер не прийняв mqtt.username і mqtt.password. Перевірте їх; додаток Mosquitto в Home Assistant не пускає анонімних клієнтів: вкажіть користувача Home Assistant або один з його логінів.',
        ],
        refused: [
          'брокер MQTT недоступний',
          {
            file: `за ${at} не слухає жоден брокер. Перевірте, що брокер працює, а також хост і порт; у Docker або в додатку 127.0.0.1 — це сам контейнер (додаток Mosquitto — mqtt://core-mosquitto:1883).`,
            env: `за ${at} не слухає жоден брокер. Перевірте, що брокер працює, а також хост і порт; у Docker 127.0.0.1 — це сам контейнер: вкажіть адресу комп’ютера з брокером.`,
            form: `за ${at} не слухає жоден брокер. Перевірте, що брокер працює, а також хост і порт; у додатку 127.0.0.1 — це сам контейнер (додаток Mosquitto — mqtt://core-mosquitto:1883).`,
            supervisor:
              'брокер, який вказав Supervisor (додаток Mosquitto broker), не відповідає. Перевірте, що додаток працює, або вкажіть mqtt_url у параметрах цього додатка.',
          }[from],
        ],
        unknown_host: ['брокер MQTT не знайдено', `ім’я хоста в ${at} тут невідоме. Перевірте написання (у Docker — ім’я, яке знає контейнер).`],
        no_answer: ['брокер MQTT не відповідає', `за ${at} ніхто не відповів вчасно. Перевірте адресу та брандмауер між ними.`],
        topic_refused: [
          'брокер MQTT відхилив тему',
          'ACL брокера не дозволяє цьому користувачеві публікувати чи підписуватися там. Дозвольте йому базову тему й префікс discovery.',
        ],
        old_version: ['брокер MQTT відхилив протокол', `брокер не підтримує ні MQTT 5, ні 3.1.1. Перевірте ${at}.`],
        cert_untrusted: [
          'сертифікат брокера MQTT не є довіреним',
          `вкажіть у ${tlsKey(from, 'ca')} файл CA, який його підписав (для брокера із самопідписаним сертифікатом — його власний сертифікат); ${tlsKey(from, 'reject_unauthorized')}: false приймає будь-який сертифікат, лише для тестового брокера.`,
        ],
        cert_host: [
          'сертифікат брокера MQTT виданий для іншого хоста',
          `сертифікат не містить хоста з ${at}: використайте ім’я або адресу, які він містить.`,
        ],
        cert_expired: [
          'термін дії сертифіката брокера MQTT минув (або ще не настав)',
          'оновіть сертифікат брокера й перевірте годинник цього комп’ютера.',
        ],
        cert_refused: [
          'брокер MQTT відхилив сертифікат клієнта',
          `брокер хоче сертифікат клієнта, якому довіряє: вкажіть у ${tlsKey(from, 'cert')} і ${tlsKey(from, 'key')} сертифікат, підписаний його CA.`,
        ],
        other: ['помилка брокера MQTT', `брокер закрив з’єднання. Перевірте ${at} (mqtt:// або mqtts:// і порт).`],
      };
    },
    accountsOnly: (children, accounts) => `Усі облікові записи працюють (${ukFamily(children, accounts)}), але брокер MQTT — ні (див. вище).`,
  },
};

export const CHECK_TEXT: Readonly<Record<Language, CheckText>> = { pl, en, uk };
