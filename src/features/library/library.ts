// The library feature, a few times a day (not in a start's first pass): library lendings -> library_due. Lendings change when a book is
// taken or returned, which a parent learns about the same day at the latest.
import { libraryLendings, type LibraryLendings } from '../../rules/library.js';
import { want } from '../../engine/resource.js';
import { LIBRARY } from './resources.js';
import { sensor } from '../kit/entities.js';
import { withAttributes } from '../kit/render.js';
import { feature } from '../feature.js';
import { ifKnown, markdown } from '../screens/cards.js';
import { reads } from '../screens/templates.js';
import { shape, statesOf, type PublishedAs } from '../kit/contract.js';
import type { SourceContext, SourceResult } from '../../engine/source.js';

/** One lending as published (`overdue` and `extendable` null when they cannot be known: it may be a free textbook). */
const lendingFacts = (b: LibraryLendings['books'][number]) => ({
  title: b.title,
  author: b.author,
  lent: b.lent,
  due: b.due,
  free_textbook: b.freeTextbook,
  overdue: b.overdue,
  extendable: b.extendable,
});
export type LendingFacts = ReturnType<typeof lendingFacts>;

/** The attributes of library_due: how many are overdue, the nearest due date, the titles and each lending. */
export type LibraryDueFacts = { overdue: number; next_due: string | null; titles: (string | null)[]; items: LendingFacts[] };

export const libraryDue = sensor(
  'library_due',
  { en: 'Library lendings', pl: 'Wypożyczenia z biblioteki', uk: 'Книги з бібліотеки' },
  {
    icon: 'mdi:book-open-variant',
    stateClass: 'measurement',
    attributes: shape<LibraryDueFacts>(),
    module: [LIBRARY],
    // Nothing known of the lendings (refused, or never read: null): unknown.
    state: (lendings: LibraryLendings | null) => (lendings === null ? { state: null, attributes: {} } : renderLibraryDue(lendings)),
  },
);

export const library = feature({
  name: 'library',
  // A lending lasts weeks: a start publishes what the last run kept and reads it at its second pass.
  reads: () => [want(LIBRARY)],
  entities: [libraryDue],
  dashboard: {
    child: [
      {
        section: 'notesAbsences',
        block: (e, t) => ifKnown(e, libraryDue, () => markdown(e, t, 'features/library/library', { library: reads(libraryDue, 'items') })),
      },
    ],
  },
  create: () => ({ compute, unknown }),
});

/** Nothing known of the lendings: what a start's first pass publishes on a first run. */
const unknown = () => statesOf([libraryDue], null);

function compute(ctx: SourceContext): Promise<SourceResult> {
  const answer = ctx.cache.get(LIBRARY);
  return Promise.resolve({
    states: statesOf([libraryDue], answer ? libraryLendings(answer.lendings, ctx.today, ctx.identity.schoolYearBegin) : null),
  });
}

/** library_due: the number of lendings; the books, nearest due first, as attributes. */
export function renderLibraryDue(lendings: LibraryLendings): PublishedAs<LibraryDueFacts> {
  const items = lendings.books.map(lendingFacts);
  return withAttributes(items.length, { overdue: lendings.overdue, next_due: lendings.nextDue, titles: items.map((i) => i.title), items });
}
