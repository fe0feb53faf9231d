// Numbers as a person reads them in the family's language (interface 18.1): Polish and Ukrainian write a decimal
// comma ("3,33"), English a point ("3.33"). A text a person reads takes its numbers through here; a state or an
// attribute stays a number for automations to compare.
import type { Language } from '../config/language.js';

/** Whether the language writes a decimal comma. */
const COMMA: Readonly<Record<Language, boolean>> = { pl: true, uk: true, en: false };

/** A number, or a number's text as a state holds it ("3.33"), in the family's language; any other text as given. */
export function spokenNumber(value: number | string, language: Language): string {
  const text = String(value);
  return COMMA[language] && /^-?\d+\.\d+$/.test(text) ? text.replace('.', ',') : text;
}
