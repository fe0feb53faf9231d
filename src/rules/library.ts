// School library lendings: how many books the child has, their titles and due dates,
// and which are overdue.
//
// Free textbooks are lent through the same library for the whole school year and their dueDate is
// not a real return date (spec 2.9), so a past one must not read as overdue. The portal has no flag
// for them; a lending is taken as a free textbook when any of these holds:
// - its type is given and is not 'BOOK' (ordinary books are 'BOOK');
// - its title names a textbook or workbook ('podręcznik', 'ćwiczenia', 'zeszyt ćwiczeń');
// - its dueDate is not after its lendedAt (a placeholder, not a loan period);
// - its loan runs 150 days or more (a library loan is weeks; a school-year loan is ten months).
// A 'BOOK' none of these marks, lent in the first weeks of the school year when the free textbooks are
// handed out (a primer such as "Elementarz Pierwszaka" with a placeholder due date), may be either: its
// past due date cannot tell overdue, so overdue is unknown (null) for it and it is not counted.
import type { Lending } from '../portal/schemas/library.js';
import { collapse, dayOf } from './portal-values.js';
import { fold, textCompare } from './order.js';

const TEXTBOOK_TITLE = /(^|[^a-z])(podrecznik|cwiczeni|zeszyt cwiczen|elementarz|textbook)/;
const LONG_LOAN_DAYS = 150;
/** How long after the school year's start free textbooks are handed out. */
const HANDOUT_DAYS = 30;

const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T12:00:00Z`) - Date.parse(`${from}T12:00:00Z`)) / 86_400_000);

export function isFreeTextbook(lending: Lending): boolean {
  const type = lending.type?.trim().toUpperCase();
  if (type !== undefined && type !== 'BOOK') return true;
  if (TEXTBOOK_TITLE.test(fold(lending.title))) return true;
  const lent = dayOf(lending.lendedAt);
  const due = dayOf(lending.dueDate);
  if (lent === undefined || due === undefined) return false;
  return due <= lent || daysBetween(lent, due) >= LONG_LOAN_DAYS;
}

/** One lent book as a parent reads it. */
export type LentBook = LibraryLendings['books'][number];

/**
 * Lent while free textbooks are handed out: from the school year's start (Classes.BeginSchoolYear,
 * else 1 September of the year it was lent in) to HANDOUT_DAYS after.
 */
function inHandout(lent: string | undefined, yearBegin: string | undefined): boolean {
  if (lent === undefined) return false;
  const begin = yearBegin !== undefined && yearBegin <= lent ? yearBegin : `${lent.slice(0, 4)}-09-01`;
  return lent >= begin && daysBetween(begin, lent) <= HANDOUT_DAYS;
}

/** Whether a lending is past due: never for a free textbook, unknown for one that may be a textbook. */
function overdueOf(lending: Lending, textbook: boolean, due: string | null, today: string, yearBegin: string | undefined): boolean | null {
  if (textbook || due === null || due >= today) return false;
  return inHandout(dayOf(lending.lendedAt), yearBegin) ? null : true;
}

export type LibraryLendings = ReturnType<typeof libraryLendings>;

/** The child's lendings, nearest due first, with overdue flagged. yearBegin: the school year's first day, when known. */
export function libraryLendings(lendings: readonly Lending[], today: string, yearBegin?: string) {
  const begin = dayOf(yearBegin);
  const books = lendings
    .map((l) => {
      const due = dayOf(l.dueDate) ?? null;
      const textbook = isFreeTextbook(l);
      return {
        title: collapse(l.title) ?? null,
        author: collapse(l.author) ?? null,
        lent: dayOf(l.lendedAt) ?? null,
        due,
        freeTextbook: textbook,
        /** A real loan past its due date (a free textbook never is); null when it cannot be known. */
        overdue: overdueOf(l, textbook, due, today, begin),
        extendable: l.isExtendable ?? null,
      };
    })
    .sort((a, b) => Number(a.freeTextbook) - Number(b.freeTextbook) || textCompare(a.due ?? '9999', b.due ?? '9999'));
  return {
    /** Books to return first, nearest due first; free textbooks last. */
    books,
    overdue: books.filter((b) => b.overdue === true).length,
    /** The nearest due date of a real loan not yet past. */
    nextDue: books.find((b) => !b.freeTextbook && b.due !== null && b.due >= today)?.due ?? null,
  };
}
