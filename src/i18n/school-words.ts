// Words of the school's own records that a state shows beside the portal's text, once per language:
// a behaviour grade that is only proposed, a points school's points, what a mark that is no grade means,
// the mailboxes' names and a justification's status.
import type { Language } from '../config/language.js';
import type { JustificationStatus } from '../rules/attendance.js';

export const BEHAVIOUR_WORDS: Readonly<Record<Language, { proposal: string; points: string }>> = {
  pl: { proposal: 'propozycja', points: 'pkt' },
  en: { proposal: 'proposal', points: 'points' },
  uk: { proposal: 'пропозиція', points: 'бали' },
};

/** The marks of spec 2.5 and the descriptive scale (rules/grades.ts markOf), by their code in lower case. */
export type MarkCode = '0' | '+' | '-' | 'bz' | 'np' | 'nk' | 'zw' | 'nb' | 'uc' | 'nu' | 'nz' | 'zl' | 'uł';

/**
 * What a mark that is no grade means, shown beside it ("0 (nie jest oceną)", "np (nieprzygotowany)").
 * The statuses by the names the descriptive scale gives them (DescriptiveGrades/Types); the scale names a 0
 * only "zero", which tells a parent nothing, so the words for it are ours, and they name a mark no source
 * names (nł, a school's own) too: what a parent must know of it is that it is no grade.
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

/** The words for a mark in a language; a mark no source names is said to be no grade. */
export function markName(code: string, language: Language): string {
  const words: Readonly<Record<string, string>> = MARK_WORDS[language];
  return (Object.hasOwn(words, code) ? words[code] : undefined) ?? MARK_WORDS[language]['0'];
}

/** The messages module's mailboxes by the portal's key (spec 4.8), and the word an archive's name starts with. */
const MAILBOXES = ['inbox', 'notes', 'alerts', 'substitutions', 'absences', 'justifications', 'trash', 'archive'];
/** Their names as the register gives them, in the order of MAILBOXES. */
const MAILBOX_WORDS: Readonly<Record<Language, readonly string[]>> = {
  pl: ['Odebrane', 'Notatki', 'Alerty', 'Zastępstwa', 'Nieobecności', 'Usprawiedliwienia', 'Kosz', 'Archiwum'],
  en: ['Inbox', 'Notes', 'Alerts', 'Substitutions', 'Absences', 'Justifications', 'Trash', 'Archive'],
  uk: ['Вхідні', 'Нотатки', 'Сповіщення', 'Заміни', 'Відсутності', 'Пояснення відсутностей', 'Кошик', 'Архів'],
};

/** A mailbox's name in a language (`archiveInbox`: "Archiwum – Odebrane"); a key the portal adds and no source names stays as it is. */
export function mailboxName(key: string, language: Language): string {
  const word = (name: string): string => MAILBOX_WORDS[language][MAILBOXES.indexOf(name)] ?? name;
  const archived = /^archive([A-Z]\w*)$/.exec(key)?.[1];
  return archived === undefined ? word(key) : `${word('archive')} – ${word(archived.charAt(0).toLowerCase() + archived.slice(1))}`;
}

/** A message's or an announcement's state when it has no topic. */
export const UNTITLED: Readonly<Record<Language, string>> = { pl: '(bez tematu)', en: '(no topic)', uk: '(без теми)' };

/** The school's decision on an excuse the parent sent (justifications' `status`), in words. */
export const JUSTIFICATION_WORDS: Readonly<Record<Language, Readonly<Record<JustificationStatus, string>>>> = {
  pl: { accepted: 'przyjęte', rejected: 'odrzucone', pending: 'czeka na decyzję' },
  en: { accepted: 'accepted', rejected: 'rejected', pending: 'awaiting a decision' },
  uk: { accepted: 'прийнято', rejected: 'відхилено', pending: 'очікує рішення' },
};
