import { describe, expect, it } from 'vitest';
import { ebiblioLendingsResponse } from '../../../src/portal/schemas/library.js';
import { noteCategoriesResponse, notesResponse } from '../../../src/portal/schemas/notes.js';
import { isFreeTextbook, libraryLendings } from '../../../src/rules/library.js';
import { newestNote, noteEvents, noteKind } from '../../../src/rules/notes.js';
import { renderNewestNote } from '../../../src/features/notes/notes.js';
import { renderLibraryDue } from '../../../src/features/library/library.js';
import { names } from './fixtures.js';

describe('notes', () => {
  const categories = noteCategoriesResponse.parse({
    Categories: [
      { Id: 1, CategoryName: 'Pochwała' },
      { Id: 2, CategoryName: 'Uwaga' },
    ],
  }).Categories;
  const notes = notesResponse.parse({
    Notes: [
      { Id: 1, Text: 'Pomoc koledze', Category: { Id: 1 }, Teacher: { Id: 10 }, Date: '2026-03-02', Positive: 1 },
      { Id: 2, Text: 'Rozmowy\nna lekcji', Category: { Id: 2 }, Teacher: { Id: 12 }, Date: '2026-03-05', Positive: '0' },
      { Id: 3, Text: 'Dyżur', Category: { Id: 1 }, Teacher: { Id: 11 }, Date: '2026-03-04', Positive: 2 },
    ],
  }).Notes;

  it.each([
    [0, 'negative'],
    [1, 'positive'],
    [2, 'neutral'],
    [undefined, null],
    [7, null],
  ])('Positive %j is %j', (positive, kind) => expect(noteKind(positive)).toBe(kind));

  it('newest_note shows the newest note with CategoryName and its sign', () => {
    expect(renderNewestNote(newestNote({ notes, categories, names }))).toEqual({
      state: 'Rozmowy na lekcji',
      attributes: {
        category: 'Uwaga',
        kind: 'negative',
        teacher: 'Jan Kowalski',
        date: '2026-03-05',
        text: 'Rozmowy na lekcji',
        count: 3,
      },
    });
  });

  it('is unknown without notes and fires one event per note', () => {
    expect(renderNewestNote(newestNote({ notes: [], names })).state).toBeNull();
    expect(noteEvents({ notes, categories, names }).map((e) => e.id)).toEqual(['note:2', 'note:3', 'note:1']);
  });
});

describe('library', () => {
  const lending = (fields: Record<string, unknown>) =>
    ebiblioLendingsResponse.parse({ lendings: [{ identifier: 'u', type: 'BOOK', title: 'Książka', ...fields }] }).lendings[0]!;

  it.each([
    ['an ordinary month-long loan', { lendedAt: '2026-02-01', dueDate: '2026-03-01' }, false],
    ['another type than BOOK', { type: 'TEXTBOOK', lendedAt: '2026-02-01', dueDate: '2026-03-01' }, true],
    ['a textbook by title', { title: 'Matematyka 5. Podręcznik', lendedAt: '2026-02-01', dueDate: '2026-03-01' }, true],
    ['a workbook by title', { title: 'Zeszyt ćwiczeń cz. 2', lendedAt: '2026-02-01', dueDate: '2026-03-01' }, true],
    ['a school-year loan', { lendedAt: '2025-09-03', dueDate: '2026-06-26' }, true],
    ['a due date not after the loan', { lendedAt: '2025-09-03', dueDate: '2025-09-03' }, true],
    ['no dates', {}, false],
  ])('%s', (_name, fields, expected) => {
    expect(isFreeTextbook(lending(fields))).toBe(expected);
  });

  it('a primer is a textbook; a book lent while textbooks are handed out has no overdue that can be known', () => {
    expect(isFreeTextbook(lending({ title: 'Elementarz Pierwszaka', lendedAt: '2026-09-02', dueDate: '2026-11-03' }))).toBe(true);
    const { lendings } = ebiblioLendingsResponse.parse({
      lendings: [
        { identifier: 'a', type: 'BOOK', title: 'Dzieci z Bullerbyn', lendedAt: '2026-09-03', dueDate: '2026-10-03' },
        { identifier: 'b', type: 'BOOK', title: 'Akademia pana Kleksa', lendedAt: '2026-10-12', dueDate: '2026-11-12' },
      ],
    });
    const books = libraryLendings(lendings, '2026-11-23', '2026-09-01');
    expect(books.books.map((b) => [b.title, b.overdue])).toEqual([
      ['Dzieci z Bullerbyn', null],
      ['Akademia pana Kleksa', true],
    ]);
    expect(books.overdue).toBe(1);
    // Without the school year's start, 1 September stands in.
    expect(libraryLendings(lendings, '2026-11-23').books[0]?.overdue).toBeNull();
  });

  it('library_due counts lendings; only real loans past due are overdue', () => {
    const { lendings } = ebiblioLendingsResponse.parse({
      lastSynchronizationTimestamp: 1767225600,
      lendings: [
        { identifier: 'a', type: 'BOOK', title: 'Podręcznik do historii', author: 'X', lendedAt: '2025-09-02', dueDate: '2025-10-02' },
        { identifier: 'b', type: 'BOOK', title: 'W pustyni i w puszczy', author: 'H. Sienkiewicz', lendedAt: '2026-02-01', dueDate: '2026-03-01' },
        { identifier: 'c', type: 'BOOK', title: 'Akademia pana Kleksa', lendedAt: '2026-03-02', dueDate: '2026-04-02', isExtendable: true },
      ],
    });
    const state = renderLibraryDue(libraryLendings(lendings, '2026-03-10'));
    expect(state.state).toBe('3');
    expect(state.attributes).toMatchObject({
      overdue: 1,
      next_due: '2026-04-02',
      titles: ['W pustyni i w puszczy', 'Akademia pana Kleksa', 'Podręcznik do historii'],
    });
    expect((state.attributes!.items as { overdue: boolean; due: string }[]).map((i) => [i.due, i.overdue])).toEqual([
      ['2026-03-01', true],
      ['2026-04-02', false],
      ['2025-10-02', false],
    ]);
  });
});
