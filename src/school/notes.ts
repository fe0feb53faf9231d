// Behaviour notes: the newest one (`newest_note`) and one `note` event per note. Positive is
// 0 negative, 1 positive, 2 neutral (spec 2.9).
import type { EntityState } from '../ha/state.js';
import type { Note, NoteCategory } from '../portal/schemas/notes.js';
import { capAttributes } from '../ha/attributes.js';
import { byId, collapse, dayOf, idCompare, stateText, timeKey, type ItemEvent } from './common.js';
import type { Names } from './names.js';

export type NoteKind = 'negative' | 'positive' | 'neutral';

export function noteKind(positive: number | undefined): NoteKind | null {
  if (positive === 0) return 'negative';
  if (positive === 1) return 'positive';
  if (positive === 2) return 'neutral';
  return null;
}

export interface NotesInput {
  notes: readonly Note[];
  categories?: readonly NoteCategory[];
  names: Names;
}

function newestFirst(a: Note, b: Note): number {
  const ka = timeKey(a.Date ?? a.AddDate);
  const kb = timeKey(b.Date ?? b.AddDate);
  if (ka !== kb) return ka < kb ? 1 : -1;
  return timeKey(b.AddDate).localeCompare(timeKey(a.AddDate)) || idCompare(b.Id, a.Id);
}

function describe(note: Note, input: NotesInput, categories: Map<string, NoteCategory>): Record<string, unknown> {
  const category = note.Category === undefined ? undefined : categories.get(note.Category);
  return {
    category: (category?.CategoryName ?? category?.Name)?.trim() ?? null,
    kind: noteKind(note.Positive),
    teacher: input.names.teacher(note.Teacher ?? note.AddedBy),
    date: dayOf(note.Date) ?? dayOf(note.AddDate) ?? null,
    text: collapse(note.Text) ?? null,
  };
}

/** newest_note: the newest note's text (cut to a state's 255 characters; the whole text is an attribute). */
export function newestNote(input: NotesInput): EntityState {
  const categories = byId(input.categories);
  const newest = [...input.notes].sort(newestFirst)[0];
  if (newest === undefined) return { state: null, attributes: { count: 0 } };
  const attributes = describe(newest, input, categories);
  // A note without text still happened; its category is the next best thing to show.
  const state = stateText(newest.Text) ?? (attributes.category as string | null);
  return { state, attributes: capAttributes({ ...attributes, count: input.notes.length }) };
}

export function noteEvents(input: NotesInput): ItemEvent[] {
  const categories = byId(input.categories);
  return [...input.notes].sort(newestFirst).map((n) => ({
    id: `note:${n.Id}`,
    payload: { event_type: 'note', id: n.Id, ...describe(n, input, categories) },
  }));
}
