// What the `problem` entity's `message` says for each reason, in each language. Both languages give the
// same facts and the same steps (a test holds their numbers and key names equal).
import type { ProblemReason } from '../portal/errors.js';
import type { Language, Texts } from './language.js';

const ADVICE: Record<ProblemReason, Texts> = {
  wrong_credentials: {
    en: 'The portal did not accept the login or password. Parents log in with the numeric register login (like 1234567u), not with the e-mail of the family portal account. Fix the config; the bridge will not try again for an hour unless the config changes.',
    pl: 'Portal nie przyjął loginu lub hasła. Rodzic loguje się numerycznym loginem do dziennika (np. 1234567u), a nie adresem e-mail konta w portalu dla rodzin. Popraw konfigurację; mostek nie spróbuje ponownie przez godzinę, chyba że konfiguracja się zmieni.',
  },
  captcha_required: {
    en: 'The portal asked for a captcha. Log in once in a web browser from the same network (this clears it); the bridge waits 30 minutes before trying again.',
    pl: 'Portal zażądał przepisania kodu z obrazka (captcha). Zaloguj się raz przez przeglądarkę z tej samej sieci (to usuwa żądanie kodu); mostek odczeka 30 minut przed kolejną próbą.',
  },
  service_down: {
    en: 'The portal is not answering (daily maintenance or a network problem). The last good data is kept; the bridge tries again at the next poll.',
    pl: 'Portal nie odpowiada (codzienna przerwa techniczna albo problem z siecią). Ostatnie poprawne dane zostają; mostek spróbuje ponownie przy następnym odczycie.',
  },
  session_expired: {
    en: 'The portal ended the session and did not accept a fresh one. The bridge tries again at the next poll.',
    pl: 'Portal zakończył sesję i nie przyjął nowej. Mostek spróbuje ponownie przy następnym odczycie.',
  },
  unexpected_response: {
    en: 'A part of the portal answered in a way the bridge does not understand. The other data is still updated.',
    pl: 'Część portalu odpowiedziała w sposób, którego mostek nie rozumie. Pozostałe dane są nadal aktualizowane.',
  },
  messages_unavailable: {
    en: 'The messages module of this school does not answer.',
    pl: 'Moduł wiadomości tej szkoły nie odpowiada.',
  },
  storage_error: {
    en: 'The bridge cannot write its files in data_dir (the disk is full or read-only). It keeps polling; new events wait until it can write again.',
    pl: 'Mostek nie może zapisać swoich plików w data_dir (dysk jest pełny albo tylko do odczytu). Dalej odczytuje dane; nowe zdarzenia poczekają, aż zapis znów będzie możliwy.',
  },
};

/** The advice for a reason, in words a parent can act on. */
export function problemAdvice(reason: ProblemReason, language: Language): string {
  return ADVICE[reason][language];
}

/** Every reason with its advice in each language (for the docs and the tests). */
export function allProblemAdvice(): ReadonlyArray<[ProblemReason, Texts]> {
  return Object.entries(ADVICE) as Array<[ProblemReason, Texts]>;
}
