// What a feature says on the screens beyond its entities' names (their names are its labels), in each
// language, grouped by feature: a translator finds all of a feature's words of one language in one place.
import type { Language } from '../config/language.js';

/** The English words: their type is every language's shape, so a word missing in one does not compile. */
const EN = {
  lucky: {
    /** Under the child's own number on the board. */
    yours: "It's you!",
    /** Beside a number that is not today's, with its day in words ("na jutro"). */
    forDay: (day: string) => `for ${day}`,
    /** The dashboard's banner over the child's column while today's number is the child's. */
    yoursNamed: (name: string) => `Lucky number: it's you, ${name}!`,
  },
};

export const FEATURE_TEXT: Record<Language, typeof EN> = {
  en: EN,
  pl: { lucky: { yours: 'To Ty!', forDay: (day) => `na ${day}`, yoursNamed: (name) => `Szczęśliwy numerek: to Ty, ${name}!` } },
  uk: { lucky: { yours: 'Це ти!', forDay: (day) => `на ${day}`, yoursNamed: (name) => `Щасливий номер: це ти, ${name}!` } },
};
