// The labels before the web server's addresses, and the stand-in for the host's address inside a
// container, in each language: a parent reads these lines in `check`, on the first start and after
// `token --rotate`. The addresses themselves stay as they are.
import type { Language } from '../config/language.js';

export interface AddressWords {
  board: string;
  health: string;
  metrics: string;
  /** Where the bridge cannot know the host's address (a container): the parent types it in. */
  thisMachine: string;
}

export const ADDRESS_WORDS: Readonly<Record<Language, AddressWords>> = {
  en: { board: 'board', health: 'health', metrics: 'metrics', thisMachine: '<this-machine>' },
  pl: { board: 'tablica', health: 'stan', metrics: 'metryki', thisMachine: '<adres-tego-komputera>' },
  uk: { board: 'дошка', health: 'стан', metrics: 'метрики', thisMachine: '<адреса-цього-комп’ютера>' },
};
