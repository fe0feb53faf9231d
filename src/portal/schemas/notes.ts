// Behaviour notes (spec 2.9, reference only): Positive is 0 negative, 1 positive, 2 neutral; the
// categories use CategoryName, not Name.
import * as z from 'zod';
import { numericId, lenientList } from './common.js';
import { text, num, refId } from './fields.js';

const note = z.looseObject({
  Id: numericId,
  Text: text,
  Category: refId,
  Teacher: refId,
  AddedBy: refId,
  Date: text,
  AddDate: text,
  Positive: num,
});
export const notesResponse = z.looseObject({ Notes: lenientList(note) });

const noteCategory = z.looseObject({ Id: numericId, CategoryName: text, Name: text });
export const noteCategoriesResponse = z.looseObject({ Categories: lenientList(noteCategory) });

export type Note = z.output<typeof note>;
export type NoteCategory = z.output<typeof noteCategory>;
