// The labels before the web server's addresses, and the stand-in for the host's address inside a
// container, in each language: a parent reads these lines in `check`, on the first start and after
// `token --rotate`. The addresses themselves stay as they are.
import type { Language } from '../config/language.js';

/** The English words: their type is every language's shape. `thisMachine` stands where the bridge cannot know the host's address (a container). */
const EN = { board: 'board', health: 'health', metrics: 'metrics', thisMachine: '<this-machine>' };

export const ADDRESS_WORDS: Readonly<Record<Language, typeof EN>> = {
  en: EN,
  pl: { board: 'tablica', health: 'stan', metrics: 'metryki', thisMachine: '<adres-tego-komputera>' },
  uk: { board: 'дошка', health: 'стан', metrics: 'метрики', thisMachine: '<адреса-цього-комп’ютера>' },
};
