// Behaviour notes: the newest one and one event per note. Positive is
// 0 negative, 1 positive, 2 neutral (spec 2.9).
import type { Note, NoteCategory } from '../portal/schemas/notes.js';
import { byId, collapse, dayOf, timeKey } from './portal-values.js';
import { idCompare, textCompare } from './order.js';
import type { NewsItem } from '../store/seen.js';
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
  return textCompare(timeKey(b.AddDate), timeKey(a.AddDate)) || idCompare(b.Id, a.Id);
}

/** A note as a parent reads it (also the fields of its event). */
export type NoteFacts = {
  category: string | null;
  kind: NoteKind | null;
  teacher: string | null;
  date: string | null;
  /** The text on one line. */
  text: string | null;
};

function describe(note: Note, input: NotesInput, categories: Map<string, NoteCategory>): NoteFacts {
  const category = note.Category === undefined ? undefined : categories.get(note.Category);
  return {
    category: (category?.CategoryName ?? category?.Name)?.trim() ?? null,
    kind: noteKind(note.Positive),
    teacher: input.names.teacher(note.Teacher ?? note.AddedBy),
    date: dayOf(note.Date) ?? dayOf(note.AddDate) ?? null,
    text: collapse(note.Text) ?? null,
  };
}

/** The newest note (by its date, then when it was added). */
/** The newest note and how many there are. */
export type NewestNote = ReturnType<typeof newestNote>;

export function newestNote(input: NotesInput) {
  const newest = [...input.notes].sort(newestFirst)[0];
  return { note: newest === undefined ? null : describe(newest, input, byId(input.categories)), count: input.notes.length };
}

/** What a `note` event carries: the note's id and its fields. */
export type NotePayload = { id: Note['Id'] } & NoteFacts;

/** One `note` event candidate per note; the seen memory decides which ones fire. */
export function noteEvents(input: NotesInput): NewsItem<NotePayload>[] {
  const categories = byId(input.categories);
  return [...input.notes].sort(newestFirst).map((n) => ({
    id: `note:${n.Id}`,
    payload: { id: n.Id, ...describe(n, input, categories) },
  }));
}
