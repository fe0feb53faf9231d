// A lesson and its day in words, written once per language: what a changed lesson is called and the
// names of the weekdays. The board, the dashboard and the calendar feeds all say them from here, so
// that a moved lesson is "przeniesiona" on every screen.
import type { ChangeKind } from '../school/plan-changes.js';
import type { Language } from '../config/language.js';

/** A changed lesson's change, as a word after its subject ("Matematyka (przeniesiona)"). */
export const CHANGE_WORDS: Readonly<Record<Language, Readonly<Record<ChangeKind, string>>>> = {
  pl: { cancelled: 'odwołana', substitution: 'zastępstwo', room_change: 'zmiana sali', shifted: 'przeniesiona' },
  en: { cancelled: 'cancelled', substitution: 'substitution', room_change: 'room change', shifted: 'moved' },
};

/** The weekdays, Monday first (as Python's weekday() and our dayOfWeek() - 1 count). */
export const WEEKDAYS: Readonly<Record<Language, { long: readonly string[]; short: readonly string[] }>> = {
  pl: {
    long: ['poniedziałek', 'wtorek', 'środa', 'czwartek', 'piątek', 'sobota', 'niedziela'],
    short: ['pon.', 'wt.', 'śr.', 'czw.', 'pt.', 'sob.', 'niedz.'],
  },
  en: {
    long: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
    short: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'],
  },
};
