// The notes feature, hourly: behaviour notes -> newest_note and note events.
import { newestNote, noteEvents, noteKind, type NewestNote, type NoteFacts, type NotePayload, type NotesInput } from '../../rules/notes.js';
import { want } from '../../engine/resource.js';
import { NOTE_CATEGORIES, NOTES } from './resources.js';
import { lookup, nameLookups, namesOf } from '../../engine/resources/lookups.js';
import { eventEntity, sensor } from '../kit/entities.js';
import { stateText, withAttributes } from '../kit/render.js';
import { feature } from '../feature.js';
import { shape, statesOf, type Events, type PublishedAs } from '../kit/contract.js';
import type { SourceContext, SourceResult } from '../../engine/source.js';
import type { Note } from '../../portal/schemas/notes.js';
import { dayOf } from '../../rules/portal-values.js';
import { notesAsk, type NotesAsk } from './ask.js';

/** The attributes of newest_note: the note's fields (none before the first note) and how many notes there are. */
export type NewestNoteFacts = Partial<NoteFacts> & { count: number };

// Named ...Entity: the school rule newestNote picks the note it shows.
export const newestNoteEntity = sensor(
  'newest_note',
  { en: 'Newest note', pl: 'Najnowsza uwaga', uk: 'Останнє зауваження' },
  {
    icon: 'mdi:note-text',
    attributes: shape<NewestNoteFacts>(),
    module: [NOTES],
    // Refused, or never read (null): unknown.
    state: (newest: NewestNote | null) => (newest === null ? { state: null, attributes: {} } : renderNewestNote(newest)),
  },
);
export const noteEvent = eventEntity('note', { en: 'Note', pl: 'Uwaga', uk: 'Зауваження' }, 'mdi:note-text', {
  payload: shape<NotePayload>(),
  module: [NOTES],
  rollover: { left: 'notes' },
});

/** What features naming notes as an input read: the day of each negative note (spec 2.9), oldest first. */
export interface NotesOutput {
  negative: string[];
  /** The days of the positive notes, oldest first (the streaks' praise). */
  positive: string[];
}

declare module '../../engine/source.js' {
  interface FeatureOutputs {
    notes: NotesOutput;
  }
}

export const notes = feature({
  name: 'notes',
  reads: ({ copies }) => {
    const notes = copies.peek(NOTES)?.Notes ?? [];
    return [
      want(NOTES),
      lookup(
        copies,
        NOTE_CATEGORIES,
        notes.map((n) => n.Category),
      ),
      ...nameLookups(copies, { users: notes.map((n) => n.Teacher) }),
    ];
  },
  entities: [newestNoteEntity, noteEvent],
  ask: notesAsk,
  create: () => ({ compute }),
});

function compute(ctx: SourceContext): Promise<SourceResult> {
  const notes = ctx.cache.get(NOTES)?.Notes;
  if (notes === undefined) {
    // The portal refuses the child's account the notes (a kindergarten): Assist leaves them out, not unknown.
    const ask: NotesAsk = { notes: null, absent: ctx.cache.refused(NOTES) };
    return Promise.resolve({ states: statesOf([newestNoteEntity], null), ask });
  }
  const input: NotesInput = { notes, categories: ctx.cache.get(NOTE_CATEGORIES)?.Categories, names: namesOf(ctx.cache) };
  const events = noteEvents(input);
  return Promise.resolve({
    states: statesOf([newestNoteEntity], newestNote(input)),
    events: { note: events } satisfies Events<typeof noteEvent>,
    // Every note, newest first: the events' own payloads.
    ask: { notes: events.map((e) => e.payload), absent: false } satisfies NotesAsk,
    output: { negative: noteDays(notes, 'negative'), positive: noteDays(notes, 'positive') } satisfies NotesOutput,
  });
}

function noteDays(notes: readonly Note[], kind: 'negative' | 'positive'): string[] {
  const days = notes.filter((n) => noteKind(n.Positive) === kind).map((n) => dayOf(n.Date) ?? dayOf(n.AddDate));
  return days.filter((d) => d !== undefined).sort();
}

/** newest_note: the newest note's text cut to a state (the whole text is an attribute). */
export function renderNewestNote({ note, count }: NewestNote): PublishedAs<NewestNoteFacts> {
  if (note === null) return { state: null, attributes: { count: 0 } };
  // A note without text still happened; its category is the next best thing to show.
  return withAttributes(stateText(note.text) ?? note.category, { ...note, count });
}
