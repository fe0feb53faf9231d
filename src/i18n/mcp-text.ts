// The MCP server's own words (interfaces 16.4, 17.1): the headings of its answers, which child a call names, what a
// refusal says and what send_message's two steps say, which a language model reads out to the family in the config's
// language. The tools' names and descriptions stay English (src/outputs/mcp/tools.ts); what each feature tells is in
// ask-text.ts.
import type { Language } from '../config/language.js';

const list = (names: readonly string[]): string => names.join(', ');

/** The English words: their type is every language's shape, so a word missing in one does not compile. */
const EN = {
  whichChild: (names: readonly string[]) => `Which child? Give "child": ${list(names)}.`,
  noSuchChild: (given: string, names: readonly string[]) => `No child "${given}" here. The bridge reads: ${list(names)}.`,
  ambiguousChild: (given: string, names: readonly string[]) => `"${given}" names more than one child: ${list(names)}. Give one of them.`,
  noChildren: 'The bridge has not read the register yet: no child is known. Try again in a minute.',
  /** The headings of the read tools' answers (get_day's is the date, get_upcoming's the span). */
  titles: { grades: 'Grades', topics: 'Lesson topics', attendance: 'Attendance', behaviour: 'Behaviour', school: 'School', messages: 'Messages' },
  badDate: (given: string) => `"${given}" is not a day: give today, tomorrow, a weekday or a date as YYYY-MM-DD.`,
  badNumber: (key: string) => `"${key}" must be a whole number.`,
  badText: (key: string) => `"${key}" must be text.`,
  required: (key: string) => `"${key}" is required.`,
  /** A child whose account has none of what was asked (a kindergarten's grades). */
  nothingKept: 'The register keeps none of this for this child.',
  unknown: 'not known yet',
  none: 'none',
  cut: 'The answer is cut here: ask for fewer days, one child or one subject for the rest.',
  failed: 'The answer could not be made; the bridge logged why.',
  /** Asking the school for what the bridge did not hold (interface 18.2). */
  readNow: 'Read from the school just now.',
  reachSpent: (perHour: number, at: string) =>
    `Not asked of the school: for a child's questions the bridge asks it at most ${perHour} times an hour, and can again from ${at}. What the bridge holds:`,
  reachFailed: 'The school could not be asked just now; what the bridge holds:',
  reachLeft: (weeks: number) => `${weeks} more not read: ask for fewer days.`,
  writeOff: (name: string) => `Writing messages is off for ${name}: the config's write_messages is not true.`,
  sendMissing: 'To write, give "to", "subject" and "text"; to send, give "confirm" with the code of a preview.',
  recipientsNotRead: (name: string) =>
    `The bridge has not read yet whom ${name}'s account may write to: nothing was prepared. Try again in a few minutes.`,
  unknownRecipient: (to: string, options: readonly string[]) =>
    `"${to}" is not among those ${options.length === 0 ? 'the account may write to' : `the account may write to: ${list(options)}`}. Nothing was prepared; ask the parent whom they mean.`,
  ambiguousRecipient: (to: string, options: readonly string[]) =>
    `"${to}" matches more than one person the account may write to: ${list(options)}. Nothing was prepared; ask the parent which one.`,
  preview: (name: string, person: string, subject: string, code: string) =>
    `Not sent yet. Preview of a message from ${name}'s account to ${person}, subject "${subject}". Show it to the parent; only after they say yes in this conversation, call send_message with confirm "${code}" (valid 5 minutes, once). The text:`,
  badConfirm: 'This confirmation code is unknown, already used or older than 5 minutes: nothing was sent. Make a new preview.',
  sent: (to: string, subject: string) => `Sent to ${to}: "${subject}".`,
  notSent: (why: string) => `Not sent: ${why}`,
  /** Why a message was not sent, by the send guard's code (features/messaging/errors.ts); any other says the bridge logged it. */
  notSentWhy: {
    daily_limit: "the day's limit of messages for this child is reached (messages_per_day); it can go tomorrow.",
    too_soon: 'a message went to the register moments ago; try again in a minute.',
    duplicate: 'the same message was sent moments ago.',
    unknown_outcome: 'the register did not answer whether it took the message: check the sent messages before sending it again.',
    session: 'the register cannot be reached right now; try again later.',
    other: 'the register refused it; the bridge logged why.',
  },
  notOpened: (id: string) =>
    `The message "${id}" was not opened: it is not among the messages the bridge listed. get_messages lists them with their ids.`,
};

export type McpText = typeof EN;

export const MCP_TEXT: Record<Language, McpText> = {
  en: EN,
  pl: {
    whichChild: (names) => `Które dziecko? Podaj "child": ${list(names)}.`,
    noSuchChild: (given, names) => `Nie ma tu dziecka "${given}". Mostek czyta: ${list(names)}.`,
    ambiguousChild: (given, names) => `"${given}" pasuje do więcej niż jednego dziecka: ${list(names)}. Podaj jedno z nich.`,
    noChildren: 'Mostek jeszcze nie odczytał dziennika: nie zna żadnego dziecka. Spróbuj za minutę.',
    titles: { grades: 'Oceny', topics: 'Tematy lekcji', attendance: 'Frekwencja', behaviour: 'Zachowanie', school: 'Szkoła', messages: 'Wiadomości' },
    badDate: (given) => `"${given}" to nie dzień: podaj today, tomorrow, dzień tygodnia albo datę RRRR-MM-DD.`,
    badNumber: (key) => `"${key}" musi być liczbą całkowitą.`,
    badText: (key) => `"${key}" musi być tekstem.`,
    required: (key) => `Brakuje "${key}".`,
    nothingKept: 'Dziennik nie prowadzi tego dla tego dziecka.',
    unknown: 'jeszcze nie wiadomo',
    none: 'brak',
    cut: 'Tu odpowiedź jest ucięta: o resztę zapytaj o mniej dni, jedno dziecko albo jeden przedmiot.',
    failed: 'Nie udało się przygotować odpowiedzi; mostek zapisał przyczynę w logu.',
    readNow: 'Odczytane ze szkoły przed chwilą.',
    reachSpent: (perHour, at) =>
      `Nie zapytano szkoły: o pytania dotyczące dziecka mostek pyta ją najwyżej ${perHour} razy na godzinę, znów może od ${at}. Co mostek ma:`,
    reachFailed: 'Nie udało się teraz zapytać szkoły; co mostek ma:',
    reachLeft: (weeks) => `Nie odczytano jeszcze ${weeks}: zapytaj o mniej dni.`,
    writeOff: (name) => `Pisanie wiadomości jest wyłączone dla: ${name} (write_messages w konfiguracji nie jest true).`,
    sendMissing: 'Aby napisać, podaj "to", "subject" i "text"; aby wysłać, podaj "confirm" z kodem podglądu.',
    recipientsNotRead: (name) =>
      `Mostek jeszcze nie odczytał, do kogo może pisać konto dziecka ${name}: niczego nie przygotowano. Spróbuj za kilka minut.`,
    unknownRecipient: (to, options) =>
      `"${to}" nie jest wśród osób, do których może pisać to konto${options.length === 0 ? '' : `: ${list(options)}`}. Niczego nie przygotowano; zapytaj rodzica, o kogo chodzi.`,
    ambiguousRecipient: (to, options) =>
      `"${to}" pasuje do więcej niż jednej osoby, do której może pisać to konto: ${list(options)}. Niczego nie przygotowano; zapytaj rodzica, o kogo chodzi.`,
    preview: (name, person, subject, code) =>
      `Jeszcze nie wysłano. Podgląd wiadomości z konta dziecka ${name} do: ${person}, temat "${subject}". Pokaż go rodzicowi; dopiero gdy zgodzi się w tej rozmowie, wywołaj send_message z confirm "${code}" (ważny 5 minut, jeden raz). Treść:`,
    badConfirm: 'Ten kod potwierdzenia jest nieznany, już użyty albo starszy niż 5 minut: nic nie wysłano. Zrób nowy podgląd.',
    sent: (to, subject) => `Wysłano do: ${to}: "${subject}".`,
    notSent: (why) => `Nie wysłano: ${why}`,
    notSentWhy: {
      daily_limit: 'wyczerpany dzienny limit wiadomości tego dziecka (messages_per_day); można wysłać jutro.',
      too_soon: 'przed chwilą poszła inna wiadomość; spróbuj za minutę.',
      duplicate: 'ta sama wiadomość poszła przed chwilą.',
      unknown_outcome: 'dziennik nie odpowiedział, czy przyjął wiadomość: sprawdź wysłane, zanim wyślesz ją znowu.',
      session: 'dziennik jest teraz nieosiągalny; spróbuj później.',
      other: 'dziennik jej nie przyjął; mostek zapisał przyczynę w logu.',
    },
    notOpened: (id) =>
      `Nie otwarto wiadomości "${id}": nie ma jej wśród wiadomości, które mostek wylistował. get_messages podaje je z identyfikatorami.`,
  },
  uk: {
    whichChild: (names) => `Яка дитина? Вкажіть "child": ${list(names)}.`,
    noSuchChild: (given, names) => `Дитини "${given}" тут немає. Міст читає: ${list(names)}.`,
    ambiguousChild: (given, names) => `"${given}" підходить до кількох дітей: ${list(names)}. Вкажіть одну дитину.`,
    noChildren: 'Міст ще не прочитав журнал: жодна дитина не відома. Спробуйте за хвилину.',
    titles: {
      grades: 'Оцінки',
      topics: 'Теми уроків',
      attendance: 'Відвідуваність',
      behaviour: 'Поведінка',
      school: 'Школа',
      messages: 'Повідомлення',
    },
    badDate: (given) => `"${given}" — не день: вкажіть today, tomorrow, день тижня або дату РРРР-ММ-ДД.`,
    badNumber: (key) => `"${key}" має бути цілим числом.`,
    badText: (key) => `"${key}" має бути текстом.`,
    required: (key) => `Бракує "${key}".`,
    nothingKept: 'Журнал не веде цього для цієї дитини.',
    unknown: 'ще невідомо',
    none: 'немає',
    cut: 'Тут відповідь обрізано: про решту запитайте про менше днів, одну дитину або один предмет.',
    failed: 'Не вдалося підготувати відповідь; міст записав причину в журнал.',
    readNow: 'Щойно прочитано зі школи.',
    reachSpent: (perHour, at) =>
      `Школу не запитано: щодо питань про дитину міст запитує її щонайбільше ${perHour} разів на годину, знову зможе з ${at}. Що міст має:`,
    reachFailed: 'Зараз не вдалося запитати школу; що міст має:',
    reachLeft: (weeks) => `Ще ${weeks} не прочитано: запитайте про менше днів.`,
    writeOff: (name) => `Написання повідомлень вимкнено для: ${name} (write_messages у конфігурації не true).`,
    sendMissing: 'Щоб написати, вкажіть "to", "subject" і "text"; щоб надіслати, вкажіть "confirm" з кодом попереднього перегляду.',
    recipientsNotRead: (name) =>
      `Міст ще не прочитав, кому може писати обліковий запис дитини ${name}: нічого не підготовлено. Спробуйте за кілька хвилин.`,
    unknownRecipient: (to, options) =>
      `"${to}" немає серед тих, кому може писати цей обліковий запис${options.length === 0 ? '' : `: ${list(options)}`}. Нічого не підготовлено; запитайте батьків, кого вони мають на увазі.`,
    ambiguousRecipient: (to, options) =>
      `"${to}" підходить до кількох людей, яким може писати цей обліковий запис: ${list(options)}. Нічого не підготовлено; запитайте батьків, кого саме.`,
    preview: (name, person, subject, code) =>
      `Ще не надіслано. Попередній перегляд повідомлення з облікового запису дитини ${name} до: ${person}, тема "${subject}". Покажіть його батькам; лише коли вони погодяться в цій розмові, викличте send_message з confirm "${code}" (дійсний 5 хвилин, один раз). Текст:`,
    badConfirm: 'Цей код підтвердження невідомий, уже використаний або старший за 5 хвилин: нічого не надіслано. Зробіть новий перегляд.',
    sent: (to, subject) => `Надіслано до: ${to}: "${subject}".`,
    notSent: (why) => `Не надіслано: ${why}`,
    notSentWhy: {
      daily_limit: 'вичерпано денний ліміт повідомлень цієї дитини (messages_per_day); можна надіслати завтра.',
      too_soon: 'щойно пішло інше повідомлення; спробуйте за хвилину.',
      duplicate: 'те саме повідомлення пішло щойно.',
      unknown_outcome: 'журнал не відповів, чи прийняв повідомлення: перевірте надіслані, перш ніж надсилати знову.',
      session: 'журнал зараз недоступний; спробуйте пізніше.',
      other: 'журнал його не прийняв; міст записав причину в журнал.',
    },
    notOpened: (id) =>
      `Повідомлення "${id}" не відкрито: його немає серед повідомлень, які міст отримав у списку. get_messages показує їх з ідентифікаторами.`,
  },
};
