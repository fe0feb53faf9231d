// The words of the sidebar panel while the app's options are refused (interface 13.2): what is wrong and
// where to fix it. The list of problems itself comes from the config's checks.
import type { Language } from '../config/language.js';

/** The English words: their type is every language's shape. */
const EN = {
  title: 'dziennik2mqtt: correct the app’s options',
  lead: 'The app’s options were refused, so no child is read yet. To correct:',
  steps:
    'Open Settings > Apps > dziennik2mqtt > Configuration, correct each option named above and click Save. The app starts again with the new options.',
  /** To a caller not coming through Home Assistant: the problems stay inside Home Assistant. */
  elsewhere: 'The app’s options were refused. The app’s panel in Home Assistant shows what to correct.',
};

export const REFUSED_PANEL_TEXT: Record<Language, typeof EN> = {
  en: EN,
  pl: {
    title: 'dziennik2mqtt: popraw ustawienia aplikacji',
    lead: 'Ustawienia aplikacji zostały odrzucone, więc żadne dziecko nie jest jeszcze odczytywane. Do poprawienia:',
    steps:
      'Otwórz Ustawienia > Aplikacje > dziennik2mqtt > Konfiguracja, popraw każde wymienione ustawienie i kliknij Zapisz. Aplikacja uruchomi się ponownie z nowymi ustawieniami.',
    elsewhere: 'Ustawienia aplikacji zostały odrzucone. Co poprawić, pokazuje panel aplikacji w Home Assistant.',
  },
  uk: {
    title: 'dziennik2mqtt: виправте налаштування застосунку',
    lead: 'Налаштування застосунку відхилено, тож жодну дитину ще не читають. Що виправити:',
    steps:
      'Відкрийте Налаштування > Застосунки > dziennik2mqtt > Конфігурація, виправте кожне назване налаштування й натисніть Зберегти. Застосунок запуститься знову з новими налаштуваннями.',
    elsewhere: 'Налаштування застосунку відхилено. Що виправити, показує панель застосунку в Home Assistant.',
  },
};
