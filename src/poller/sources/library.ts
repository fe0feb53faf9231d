// Normal tier, a few times a day: library lendings -> library_due. Lendings change when a book is
// taken or returned, which a parent learns about the same day at the latest.
import { ebiblioLendingsResponse } from '../../portal/schemas/library.js';
import { libraryDue } from '../../school/library.js';
import { HOUR } from '../resources.js';
import type { Source, SourceContext, SourceResult } from '../source.js';

const LIBRARY_MAX_AGE = 6 * HOUR;

export class LibrarySource implements Source {
  readonly name = 'library';
  readonly tier = 'normal';
  readonly entities = ['library_due'];

  async poll(ctx: SourceContext): Promise<SourceResult> {
    const answer = await ctx.cache.get({ endpoint: 'EbiblioLendings', schema: ebiblioLendingsResponse, maxAgeMs: LIBRARY_MAX_AGE });
    return { states: { library_due: answer ? libraryDue(answer.lendings, ctx.today) : { state: null, attributes: {} } } };
  }
}
