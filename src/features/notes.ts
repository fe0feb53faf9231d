// The notes feature, normal tier, hourly: behaviour notes -> newest_note and note events.
import { noteCategoriesResponse, notesResponse } from '../portal/schemas/notes.js';
import { newestNote, noteEvents, type NewestNote, type NoteFacts, type NotePayload, type NotesInput } from '../school/notes.js';
import { BY_THE_HOUR, steady } from '../feature-kit/plan.js';

/** Notes' row of the fetch plan. */
export const NOTES_ROW = { ...steady('Notes', 0), fresh: BY_THE_HOUR };
import { lookupList, names } from '../feature-kit/lookups.js';
import { eventEntity, sensor } from '../feature-kit/entities.js';
import { stateText, withAttributes } from '../feature-kit/render.js';
import { feature } from './feature.js';
import { shape, type Events, type Published } from '../feature-kit/contract.js';
import type { Source, SourceContext, SourceResult } from '../feature-kit/source.js';

/** The attributes of newest_note: the note's fields (none before the first note) and how many notes there are. */
export type NewestNoteFacts = Partial<NoteFacts> & { count: number };

// Named ...Entity: the school rule newestNote picks the note it shows.
export const newestNoteEntity = sensor('newest_note', { en: 'Newest note', pl: 'Najnowsza uwaga', uk: 'Останнє зауваження' }, { icon: 'mdi:note-text', attributes: shape<NewestNoteFacts>() });
export const noteEvent = eventEntity('note', { en: 'Note', pl: 'Uwaga', uk: 'Зауваження' }, 'mdi:note-text', { payload: shape<NotePayload>() });

export const notes = feature({
  name: 'notes',
  tier: 'normal',
  plan: [NOTES_ROW],
  entities: [
    newestNoteEntity,
    noteEvent,
  ],
  create: () => new NotesSource(),
});

class NotesSource implements Source {
  async poll(ctx: SourceContext): Promise<SourceResult> {
    const notes = (await ctx.cache.get({ endpoint: 'Notes', schema: notesResponse, row: NOTES_ROW }))?.Notes;
    if (notes === undefined) return { states: { newest_note: { state: null, attributes: {} } } };
    const categories = await lookupList(ctx, 'Notes/Categories', noteCategoriesResponse, (r) => r.Categories, notes.map((n) => n.Category));
    const input: NotesInput = { notes, categories, names: await names(ctx, { users: notes.map((n) => n.Teacher) }) };
    return { states: { newest_note: renderNewestNote(newestNote(input)) }, events: { note: noteEvents(input) } satisfies Events<typeof noteEvent> };
  }
}

/** newest_note: the newest note's text cut to a state (the whole text is an attribute). */
export function renderNewestNote({ note, count }: NewestNote): Published<typeof newestNoteEntity> {
  if (note === null) return { state: null, attributes: { count: 0 } };
  // A note without text still happened; its category is the next best thing to show.
  return withAttributes(stateText(note.text) ?? note.category, { ...note, count });
}
