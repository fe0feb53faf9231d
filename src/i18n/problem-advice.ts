// What a parent reads for each problem reason: the `problem` entity's `message` in each language (both
// give the same facts and steps; a test holds their numbers and key names equal), and the password advice
// that `check` prints too (check's own words, those of a failed login among them, are in check-text.ts).
import type { ProblemReason } from '../portal/errors.js';
import type { Language, Texts } from '../config/language.js';

const ADVICE: Record<ProblemReason, Texts> = {
  wrong_credentials: {
    en: 'The portal did not accept the login or password. A login: entry takes the numeric register login of the parent account (like 1234567u) with its password; the family portal’s e-mail goes in an email: entry with that account’s password. Fix the config; the bridge will not try again for an hour unless the config changes. If the password is right (the portal refused it by mistake), run `dziennik2mqtt check`: once it logs the account in, the next start reads at once.',
    pl: 'Portal nie przyjął loginu lub hasła. Wpis login: to numeryczny login do dziennika konta rodzica (np. 1234567u) z jego hasłem; adres e-mail portalu dla rodzin wpisz jako email: z hasłem tego konta. Popraw konfigurację; mostek nie spróbuje ponownie przez godzinę, chyba że konfiguracja się zmieni. Jeśli hasło jest dobre (portal odrzucił je omyłkowo), uruchom `dziennik2mqtt check`: gdy zaloguje konto, następny start od razu odczyta dane.',
    uk: 'Портал не прийняв логін або пароль. Запис login: — це числовий логін до журналу облікового запису батьків (як 1234567u) з його паролем; e-mail сімейного порталу вкажіть як email: з паролем цього облікового запису. Виправте конфігурацію; міст не пробуватиме знову протягом години, якщо конфігурація не зміниться. Якщо пароль правильний (портал відхилив його помилково), запустіть `dziennik2mqtt check`: щойно він увійде в обліковий запис, наступний запуск одразу прочитає дані.',
  },
  login_changed: {
    en: 'The portal’s login has changed: it answered in a way this version of the bridge does not know. This is not a wrong password. The last good data stays on show. Update dziennik2mqtt; if the newest version does this too, report it with the transcript of `dziennik2mqtt check --trace FILE` (it holds no password). The bridge tries to log in again at most once an hour.',
    pl: 'Logowanie w portalu się zmieniło: portal odpowiedział w sposób, którego ta wersja mostka nie zna. To nie jest błędne hasło. Ostatnie poprawne dane zostają widoczne. Zaktualizuj dziennik2mqtt; jeśli najnowsza wersja też tak robi, zgłoś błąd z zapisem z `dziennik2mqtt check --trace PLIK` (nie zawiera hasła). Mostek próbuje zalogować się ponownie najwyżej raz na godzinę.',
    uk: 'Вхід на порталі змінився: портал відповів так, як ця версія моста не знає. Це не неправильний пароль. Останні правильні дані залишаються на екрані. Оновіть dziennik2mqtt; якщо найновіша версія теж так робить, повідомте про помилку із записом `dziennik2mqtt check --trace ФАЙЛ` (у ньому немає пароля). Міст пробує увійти знову не частіше ніж раз на годину.',
  },
  captcha_required: {
    en: 'The portal asked for a captcha. Log in once in a web browser from the same network (this clears it); the bridge waits 30 minutes before trying again.',
    pl: 'Portal zażądał przepisania kodu z obrazka (captcha). Zaloguj się raz przez przeglądarkę z tej samej sieci (to usuwa żądanie kodu); mostek odczeka 30 minut przed kolejną próbą.',
    uk: 'Портал вимагає ввести код з картинки (captcha). Увійдіть один раз через браузер з тієї самої мережі (це знімає вимогу); міст зачекає 30 хвилин перед наступною спробою.',
  },
  link_needs_action: {
    en: 'The family portal lists this child, but its link needs your action there (portal_message says the portal’s state). Sign in to the family portal in a web browser and finish what it asks; the bridge reads the child again at the next pass.',
    pl: 'Portal dla rodzin pokazuje to dziecko, ale jego powiązanie wymaga tam Twojego działania (portal_message podaje stan w portalu). Zaloguj się do portalu dla rodzin w przeglądarce i dokończ to, o co prosi; mostek odczyta dziecko ponownie przy następnym odczycie.',
    uk: 'Сімейний портал показує цю дитину, але її зв’язок потребує там ваших дій (portal_message називає стан у порталі). Увійдіть до сімейного порталу в браузері й завершіть те, що він просить; міст прочитає дитину знову під час наступного читання.',
  },
  service_down: {
    en: 'The portal is not answering (daily maintenance or a network problem). The last good data is kept; the bridge tries again at the next pass.',
    pl: 'Portal nie odpowiada (codzienna przerwa techniczna albo problem z siecią). Ostatnie poprawne dane zostają; mostek spróbuje ponownie przy następnym odczycie.',
    uk: 'Портал не відповідає (щоденна технічна перерва або проблема з мережею). Останні правильні дані зберігаються; міст спробує знову під час наступного читання.',
  },
  session_expired: {
    en: 'The portal ended the session and did not accept a fresh one. The bridge tries again at the next pass.',
    pl: 'Portal zakończył sesję i nie przyjął nowej. Mostek spróbuje ponownie przy następnym odczycie.',
    uk: 'Портал завершив сесію і не прийняв нову. Міст спробує знову під час наступного читання.',
  },
  unexpected_response: {
    en: 'A part of the portal answered in a way the bridge does not understand. The other data is still updated.',
    pl: 'Część portalu odpowiedziała w sposób, którego mostek nie rozumie. Pozostałe dane są nadal aktualizowane.',
    uk: 'Частина порталу відповіла так, що міст її не розуміє. Інші дані й далі оновлюються.',
  },
  storage_error: {
    en: 'The bridge cannot write its files in data_dir (the disk is full or read-only). It keeps reading; new events wait until it can write again.',
    pl: 'Mostek nie może zapisać swoich plików w data_dir (dysk jest pełny albo tylko do odczytu). Dalej odczytuje dane; nowe zdarzenia poczekają, aż zapis znów będzie możliwy.',
    uk: 'Міст не може записати свої файли в data_dir (диск заповнений або лише для читання). Він і далі читає дані; нові події чекатимуть, доки запис знову стане можливим.',
  },
};

/**
 * What only the bridge's own `problem` says (interface 12.3, 13.2): an e-mail entry whose family portal
 * links no child, the broker refusing a topic the bridge needs, and the app's options refused.
 */
export const BRIDGE_ONLY_REASONS = [
  'no_children',
  'broker_refused',
  'broker_topic_invalid',
  'broker_packet_too_large',
  'config_invalid',
  'base_topic_in_use',
  'client_id_in_use',
] as const;
export type BridgeProblemReason = ProblemReason | (typeof BRIDGE_ONLY_REASONS)[number];

/** Every reason a `problem` can carry, a child's and the bridge's own (the docs' tables list each). */
export function problemReasons(): BridgeProblemReason[] {
  return [...(Object.keys(ADVICE) as ProblemReason[]), ...BRIDGE_ONLY_REASONS];
}

/**
 * The bridge's own `problem`'s words: the family road's where they differ from a register login's (the
 * e-mail entry's own password, never the register's numeric login; the family portal, not the register,
 * not answering; no child linked), and those of the reasons only the bridge has.
 */
const BRIDGE_ADVICE: Partial<Record<BridgeProblemReason, Texts>> = {
  wrong_credentials: {
    en: 'The family portal did not accept the e-mail or password of this email: entry. Put the e-mail and password you sign in with at the family portal (portal.librus.pl, Konto LIBRUS) in the entry, not the register’s numeric login. Fix the config; the bridge will not try again for an hour unless the config changes.',
    pl: 'Portal dla rodzin nie przyjął adresu e-mail lub hasła z wpisu email:. Wpisz e-mail i hasło, którymi logujesz się do portalu dla rodzin (portal.librus.pl, Konto LIBRUS), a nie numeryczny login do dziennika. Popraw konfigurację; mostek nie spróbuje ponownie przez godzinę, chyba że konfiguracja się zmieni.',
    uk: 'Сімейний портал не прийняв e-mail або пароль із запису email:. Вкажіть e-mail і пароль, якими ви входите до сімейного порталу (portal.librus.pl, Konto LIBRUS), а не числовий логін до журналу. Виправте конфігурацію; міст не пробуватиме знову протягом години, якщо конфігурація не зміниться.',
  },
  service_down: {
    en: 'The family portal is not answering (daily maintenance or a network problem), so the bridge cannot learn this e-mail entry’s children yet. It asks again after 1, 2, 4 ... minutes and reads the children as soon as they are listed.',
    pl: 'Portal dla rodzin nie odpowiada (codzienna przerwa techniczna albo problem z siecią), więc mostek nie zna jeszcze dzieci z tego wpisu email:. Zapyta ponownie po 1, 2, 4 ... minutach i zacznie je odczytywać, gdy tylko portal je poda.',
    uk: 'Сімейний портал не відповідає (щоденна технічна перерва або проблема з мережею), тож міст ще не знає дітей цього запису email:. Він запитає знову через 1, 2, 4 ... хвилини й почне їх читати, щойно портал їх назве.',
  },
  no_children: {
    en: 'The family portal lists no child for this e-mail. Sign in to the family portal in a web browser and link your child’s register account there; the bridge asks again at each pass and reads the child once it is linked.',
    pl: 'Portal dla rodzin nie pokazuje żadnego dziecka dla tego adresu e-mail. Zaloguj się do portalu dla rodzin w przeglądarce i podłącz tam konto dziecka w dzienniku; mostek pyta ponownie co interwał odczytu i zacznie odczytywać dziecko, gdy tylko zostanie podłączone.',
    uk: 'Сімейний портал не показує жодної дитини для цього e-mail. Увійдіть до сімейного порталу в браузері й під’єднайте там обліковий запис дитини в журналі; міст запитує знову кожен інтервал читання й почне читати дитину, щойно її буде під’єднано.',
  },
  broker_refused: {
    en: 'The MQTT broker refused a topic the bridge publishes or listens to (entry names it). Allow the MQTT user of the config to publish and subscribe under the base topic and the discovery prefix (the broker’s ACL), then restart the bridge.',
    pl: 'Broker MQTT odrzucił temat, na który mostek publikuje lub którego słucha (podaje go entry). Pozwól użytkownikowi MQTT z konfiguracji publikować i subskrybować w temacie bazowym i prefiksie discovery (ACL brokera), a potem uruchom mostek ponownie.',
    uk: 'Брокер MQTT відхилив тему, в яку міст публікує або яку слухає (її називає entry). Дозвольте користувачеві MQTT з конфігурації публікувати й підписуватися в базовій темі та префіксі discovery (ACL брокера), а потім перезапустіть міст.',
  },
  /** The broker named the topic invalid (MQTT 5 reason 0x90, or 0x8F for a subscription). */
  broker_topic_invalid: {
    en: 'The MQTT broker refused a topic the bridge publishes or listens to as an invalid topic name (entry names it). Give mqtt.base_topic and the discovery prefix only letters, digits, _ and -, within the broker’s own limits on topics, then restart the bridge.',
    pl: 'Broker MQTT odrzucił temat, na który mostek publikuje lub którego słucha, jako nieprawidłową nazwę tematu (podaje go entry). Użyj w mqtt.base_topic i prefiksie discovery tylko liter, cyfr, _ i -, w granicach, które broker stawia tematom, a potem uruchom mostek ponownie.',
    uk: 'Брокер MQTT відхилив тему, в яку міст публікує або яку слухає, як неправильну назву теми (її називає entry). Використовуйте в mqtt.base_topic і префіксі discovery лише літери, цифри, _ і -, у межах, які брокер ставить темам, а потім перезапустіть міст.',
  },
  /** The broker refused a message as larger than it takes (MQTT 5 reason 0x95). */
  broker_packet_too_large: {
    en: 'The MQTT broker refused a message of the bridge as too large (entry names its topic). Let the broker take larger messages (in Mosquitto, message_size_limit and max_packet_size: left out, it takes any), then restart the bridge.',
    pl: 'Broker MQTT odrzucił wiadomość mostka jako zbyt dużą (entry podaje jej temat). Pozwól brokerowi przyjmować większe wiadomości (w Mosquitto message_size_limit i max_packet_size: pominięte, przyjmuje każdą), a potem uruchom mostek ponownie.',
    uk: 'Брокер MQTT відхилив повідомлення моста як завелике (entry називає його тему). Дозвольте брокеру приймати більші повідомлення (у Mosquitto message_size_limit і max_packet_size: якщо їх не вказано, він приймає будь-які), а потім перезапустіть міст.',
  },
  /** The app's options refused (interface 13.2): what follows the advice lists each problem by its key. */
  config_invalid: {
    en: 'The app’s options were refused, so no child is read yet. Open the app’s Configuration tab in Home Assistant, correct each option named here and save: the app starts again with them.',
    pl: 'Ustawienia aplikacji zostały odrzucone, więc żadne dziecko nie jest jeszcze odczytywane. Otwórz w Home Assistant kartę Konfiguracja aplikacji, popraw każde wymienione tu ustawienie i zapisz: aplikacja uruchomi się ponownie z nowymi ustawieniami.',
    uk: 'Налаштування застосунку відхилено, тож жодну дитину ще не читають. Відкрийте в Home Assistant вкладку Конфігурація застосунку, виправте кожне назване тут налаштування й збережіть: застосунок запуститься знову з ними.',
  },
  /** Two bridges on one base topic (interface 14.4, 15.3): one reads and answers, the other waits or claims in vain; `entry` names the other. */
  base_topic_in_use: {
    en: 'Another dziennik2mqtt uses the same MQTT base topic (entry names it: its installation, host and pid). Only the bridge that holds the base topic reads the register and answers buttons; another waits and takes over when it stops. Stop one, or give each its own mqtt.base_topic.',
    pl: 'Inny mostek dziennik2mqtt używa tego samego tematu bazowego MQTT (entry podaje go: jego instalację, host i pid). Tylko mostek, który trzyma temat bazowy, odczytuje dziennik i obsługuje przyciski; inny czeka i przejmie pracę, gdy tamten się zatrzyma. Zatrzymaj jeden albo daj każdemu własny mqtt.base_topic.',
    uk: 'Інший міст dziennik2mqtt використовує ту саму базову тему MQTT (entry називає його: його інсталяцію, хост і pid). Лише міст, що тримає базову тему, читає журнал і відповідає на кнопки; інший чекає й перейме роботу, коли той зупиниться. Зупиніть один або дайте кожному власний mqtt.base_topic.',
  },
  /** Another connection took the bridge's MQTT client id (interface 15.3): the bridge stopped; `entry` names the other, or the id. */
  client_id_in_use: {
    en: 'Another MQTT connection took this bridge’s client id (entry names it), usually a copy of its data folder running on another machine, so this bridge stopped reading and publishing instead of fighting for it. Stop the other one or give it a data folder of its own, then restart this bridge.',
    pl: 'Inne połączenie MQTT przejęło identyfikator klienta tego mostka (podaje je entry), zwykle kopia jego folderu danych działająca na innym komputerze, więc mostek przestał odczytywać i publikować zamiast o niego walczyć. Zatrzymaj tamten albo daj mu własny folder danych, a potem uruchom ten mostek ponownie.',
    uk: 'Інше з’єднання MQTT перейняло ідентифікатор клієнта цього мосту (його називає entry), зазвичай копія його теки даних на іншому комп’ютері, тож міст перестав читати й публікувати замість боротися за нього. Зупиніть інший або дайте йому власну теку даних, а потім перезапустіть цей міст.',
  },
};

/** The advice of the bridge's own `problem`: an e-mail entry's (the family road's words), the broker's, the data folder's, the form's. */
export function bridgeProblemAdvice(reason: BridgeProblemReason, language: Language): string {
  return BRIDGE_ADVICE[reason]?.[language] ?? ADVICE[reason as ProblemReason][language];
}

/** The advice for a reason, in words a parent can act on. */
export function problemAdvice(reason: ProblemReason, language: Language): string {
  return ADVICE[reason][language];
}

const PORTAL_SAYS: Record<Language, (words: string) => string> = {
  pl: (words) => `Portal odpowiedział: „${words}”`,
  en: (words) => `The portal said: "${words}"`,
  uk: (words) => `Портал відповів: «${words}»`,
};

/** The portal advises changing the password (it found it in a data leak); the bridge skipped it. */
const PASSWORD_CHANGE_ADVISED: Texts = {
  en: 'The portal advises changing this account’s password (it may have appeared in a data leak). The bridge skipped the advice, as “remind me later” does, and keeps working. Change the password in a web browser, then in the config.',
  pl: 'Portal zaleca zmianę hasła tego konta (mogło się znaleźć w wycieku danych). Mostek pominął zalecenie, jak „przypomnij mi później”, i działa dalej. Zmień hasło w przeglądarce, a potem w konfiguracji.',
  uk: 'Портал радить змінити пароль цього облікового запису (він міг потрапити у витік даних). Міст пропустив пораду, як «нагадати пізніше», і працює далі. Змініть пароль у браузері, а потім у конфігурації.',
};

/** The words for `advice: password_change_advised`, in the configured language. */
export function passwordChangeAdvice(language: Language): string {
  return PASSWORD_CHANGE_ADVISED[language];
}

/** The portal's own words on a refused login, as the problem's text ends with them. */
export function portalSays(words: string, language: Language): string {
  return PORTAL_SAYS[language](words);
}
