// The languages a family can choose for what Home Assistant shows (config `language`). Ids, topics and
// attribute keys never depend on it: only the words people read.

export const LANGUAGES = ['pl', 'en', 'uk'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The config's default: the bridge is made for Polish families. */
export const DEFAULT_LANGUAGE: Language = 'pl';

/**
 * What a part built without a language speaks (tests, tools): English, the language of the code. The
 * running bridge always passes the config's `language` down, so a user never sees this fallback.
 */
export const FALLBACK_LANGUAGE: Language = 'en';

/** A text in every language. */
export type Texts = Readonly<Record<Language, string>>;

const CLASS_WORD: Texts = { pl: 'Klasa', en: 'Class', uk: 'Клас' };

/** The device's model line in Home Assistant, e.g. `Klasa 4b`. */
export function classModel(className: string, language: Language): string {
  return `${CLASS_WORD[language]} ${className}`;
}

/** A kindergarten child's model line: it has a group, not a class (the portal answers no Classes for it). */
export const KINDERGARTEN_MODEL: Texts = { pl: 'Przedszkole', en: 'Kindergarten', uk: 'Дитячий садок' };
