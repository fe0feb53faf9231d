// Words of the school's own records that a state shows beside the portal's text, once per language:
// a behaviour grade that is only proposed, a points school's points, what a mark that is no grade means.
import type { Language } from '../config/language.js';

export const BEHAVIOUR_WORDS: Readonly<Record<Language, { proposal: string; points: string }>> = {
  pl: { proposal: 'propozycja', points: 'pkt' },
  en: { proposal: 'proposal', points: 'points' },
  uk: { proposal: 'пропозиція', points: 'бали' },
};

/** The marks of spec 2.5 and the descriptive scale (school/grades.ts markOf), by their code in lower case. */
export type MarkCode = '0' | '+' | '-' | 'bz' | 'np' | 'nk' | 'zw' | 'nb' | 'uc' | 'nu' | 'nz' | 'zl' | 'uł';

/**
 * What a mark that is no grade means, shown beside it ("0 (nie jest oceną)", "np (nieprzygotowany)").
 * The statuses by the names the descriptive scale gives them (DescriptiveGrades/Types); the scale names a 0
 * only "zero", which tells a parent nothing, so the words for it are ours. A mark not listed (nł, whose
 * name no source gives) stands alone: it is letters, which no parent takes for a grade.
 */
export const MARK_WORDS: Readonly<Record<Language, Readonly<Record<MarkCode, string>>>> = {
  pl: {
    '0': 'nie jest oceną',
    '+': 'plus',
    '-': 'minus',
    bz: 'brak zadania',
    np: 'nieprzygotowany',
    nk: 'nieklasyfikowany',
    zw: 'zwolniony',
    nb: 'nieobecny',
    uc: 'uczęszczał',
    nu: 'nie uczęszczał',
    nz: 'nie zaliczył',
    zl: 'zaliczył',
    uł: 'usprawiedliwiony',
  },
  en: {
    '0': 'not a grade',
    '+': 'plus',
    '-': 'minus',
    bz: 'work not done',
    np: 'unprepared',
    nk: 'not classified',
    zw: 'exempt',
    nb: 'absent',
    uc: 'attended',
    nu: 'did not attend',
    nz: 'not passed',
    zl: 'passed',
    uł: 'excused',
  },
  uk: {
    '0': 'не оцінка',
    '+': 'плюс',
    '-': 'мінус',
    bz: 'завдання не виконано',
    np: 'не підготувався',
    nk: 'не атестований',
    zw: 'звільнений',
    nb: 'відсутній',
    uc: 'відвідував',
    nu: 'не відвідував',
    nz: 'не зараховано',
    zl: 'зараховано',
    uł: 'з поважної причини',
  },
};

/** The words for a mark in a language, or null for a code no source names. */
export function markName(code: string, language: Language): string | null {
  const words: Readonly<Record<string, string>> = MARK_WORDS[language];
  return Object.hasOwn(words, code) ? (words[code] ?? null) : null;
}
