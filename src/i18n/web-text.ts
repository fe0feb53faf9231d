// The web server's own pages a parent may meet (plain text), in the config's language: the refusal of
// a request without the access token, of one by a name that is not the bridge's, and of the diagnostics
// opened with the board's cookie. Commands,
// `?token=` and file names stay as they are in every language.
import type { Texts } from '../config/language.js';

/** 401: no token, no cookie, no calendar feed key. */
export const UNAUTHORIZED: Texts = {
  en: 'The access token is missing or wrong. Open the address printed when dziennik2mqtt first started, or run `dziennik2mqtt check --show-token` to see it again.\n',
  pl: 'Brak tokenu dostępu albo jest błędny. Otwórz adres wypisany przy pierwszym uruchomieniu dziennik2mqtt albo uruchom `dziennik2mqtt check --show-token`, aby zobaczyć go ponownie.\n',
  uk: 'Токен доступу відсутній або неправильний. Відкрийте адресу, виведену під час першого запуску dziennik2mqtt, або запустіть `dziennik2mqtt check --show-token`, щоб побачити її знову.\n',
};

/** 403: a Host that is none of the bridge's own names (a page of another site, DNS rebinding). */
export const FOREIGN_HOST: Texts = {
  en: "This address is not one of dziennik2mqtt's own: open it by this machine's IP address, its host name or localhost.\n",
  pl: 'Ten adres nie jest własnym adresem dziennik2mqtt: otwórz go przez adres IP tego komputera, jego nazwę hosta albo localhost.\n',
  uk: 'Ця адреса не є власною адресою dziennik2mqtt: відкрийте її через IP-адресу цього комп’ютера, його ім’я хоста або localhost.\n',
};

/** 401 for /diagnostics with the board's cookie or a calendar feed's key. */
export const DIAGNOSTICS_REFUSED: Texts = {
  en: "The diagnostics open with the access token (?token=) or from the app's panel, not with the board's cookie or a feed's key.\n",
  pl: 'Diagnostyka otwiera się z tokenem dostępu (?token=) albo z panelu aplikacji, a nie z ciasteczkiem tablicy czy kluczem kalendarza.\n',
  uk: 'Діагностика відкривається з токеном доступу (?token=) або з панелі додатка, а не з cookie дошки чи ключем календаря.\n',
};
