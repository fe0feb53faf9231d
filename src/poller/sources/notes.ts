// Normal tier, hourly: behaviour notes -> newest_note and note events.
import { noteCategoriesResponse, notesResponse } from '../../portal/schemas/notes.js';
import { newestNote, noteEvents, type NotesInput } from '../../school/notes.js';
import { CADENCE } from '../resources.js';
import { lookupList, names } from './lookups.js';
import type { Source, SourceContext, SourceResult } from '../source.js';

export class NotesSource implements Source {
  readonly name = 'notes';
  readonly tier = 'normal';
  readonly entities = ['newest_note', 'note'];

  async poll(ctx: SourceContext): Promise<SourceResult> {
    const notes = (await ctx.cache.get({ endpoint: 'Notes', schema: notesResponse, maxAgeMs: CADENCE.hourly }))?.Notes;
    if (notes === undefined) return { states: { newest_note: { state: null, attributes: {} } } };
    const categories = await lookupList(ctx, 'Notes/Categories', noteCategoriesResponse, (r) => r.Categories, notes.map((n) => n.Category));
    const input: NotesInput = { notes, categories, names: await names(ctx, { users: notes.map((n) => n.Teacher) }) };
    return { states: { newest_note: newestNote(input) }, events: { note: noteEvents(input) } };
  }
}
