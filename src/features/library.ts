// The library feature, normal tier, a few times a day: library lendings -> library_due. Lendings change when a book is
// taken or returned, which a parent learns about the same day at the latest.
import { ebiblioLendingsResponse } from '../portal/schemas/library.js';
import { libraryDue } from '../school/library.js';
import { HOUR } from '../poller/resources.js';
import { sensor } from '../ha/entities.js';
import { feature } from './feature.js';
import type { Source, SourceContext, SourceResult } from '../poller/source.js';

const LIBRARY_MAX_AGE = 6 * HOUR;

export const library = feature({
  name: 'library',
  tier: 'normal',
  entities: [
    sensor('library_due', { en: 'Library lendings', pl: 'Wypożyczenia z biblioteki' }, { icon: 'mdi:book-open-variant', stateClass: 'measurement' }),
  ],
  create: () => new LibrarySource(),
});

export class LibrarySource implements Source {
  async poll(ctx: SourceContext): Promise<SourceResult> {
    const answer = await ctx.cache.get({ endpoint: 'EbiblioLendings', schema: ebiblioLendingsResponse, maxAgeMs: LIBRARY_MAX_AGE });
    return { states: { library_due: answer ? libraryDue(answer.lendings, ctx.today) : { state: null, attributes: {} } } };
  }
}
