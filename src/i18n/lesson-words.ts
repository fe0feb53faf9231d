// A lesson in words, one wording per language, shared by the board, the dashboard and the calendar
// feeds: where a lesson moved to ("przeniesiona na czw. 26.11, lekcja 7").
import type { Language } from './language.js';

const WEEKDAYS_SHORT: Record<Language, readonly string[]> = {
  pl: ['pon.', 'wt.', 'śr.', 'czw.', 'pt.', 'sob.', 'niedz.'],
  en: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'],
};

/** "czw. 26.11" / "Thu 26.11" for a YYYY-MM-DD date (the date itself when it is not one). */
export function shortDay(date: string, language: Language): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  if (!match) return date;
  const [, y, m, d] = match;
  const weekday = (new Date(Date.UTC(Number(y), Number(m) - 1, Number(d))).getUTCDay() + 6) % 7;
  return `${WEEKDAYS_SHORT[language][weekday]} ${d}.${m}`;
}

/**
 * Where a lesson moved to: `day` as shortDay prints it and the lesson number, both as text (the
 * dashboard passes template expressions that print them); no number, no "lesson" part.
 */
export function movedTo(language: Language, day: string, lessonNo: string | null): string {
  const lesson = lessonNo === null || lessonNo === '' ? '' : language === 'pl' ? `, lekcja ${lessonNo}` : `, lesson ${lessonNo}`;
  return language === 'pl' ? `przeniesiona na ${day}${lesson}` : `moved to ${day}${lesson}`;
}
