// Behaviour notes: the newest one and one event per note. Positive is
// 0 negative, 1 positive, 2 neutral (spec 2.9).
import type { Note, NoteCategory } from '../portal/schemas/notes.js';
import { byId, collapse, dayOf, timeKey } from './portal-values.js';
import { idCompare, textCompare } from './order.js';
import type { NewsItem } from './news.js';
import type { Names } from './names.js';

/** The kinds by the portal's Positive: 0, 1, 2. */
const NOTE_KINDS = ['negative', 'positive', 'neutral'] as const;
export type NoteKind = (typeof NOTE_KINDS)[number];

export function noteKind(positive: number | undefined): NoteKind | null {
  return positive === undefined ? null : (NOTE_KINDS[positive] ?? null);
}

export interface NotesInput {
  notes: readonly Note[];
  categories?: readonly NoteCategory[];
  names: Names;
}

function newestFirst(a: Note, b: Note): number {
  const day = (n: Note): string => timeKey(n.Date ?? n.AddDate);
  return textCompare(day(b), day(a)) || textCompare(timeKey(b.AddDate), timeKey(a.AddDate)) || idCompare(b.Id, a.Id);
}

/** A note as a parent reads it (also the fields of its event), its text on one line. */
export type NoteFacts = ReturnType<typeof describe>;

function describe(note: Note, input: NotesInput, categories: Map<string, NoteCategory>) {
  const category = note.Category === undefined ? undefined : categories.get(note.Category);
  return {
    category: (category?.CategoryName ?? category?.Name)?.trim() ?? null,
    kind: noteKind(note.Positive),
    teacher: input.names.teacher(note.Teacher ?? note.AddedBy),
    date: dayOf(note.Date) ?? dayOf(note.AddDate) ?? null,
    text: collapse(note.Text) ?? null,
  };
}

/** The newest note (by its date, then when it was added) and how many there are. */
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
