// The library feature: library_due, rendered from the school rule's lendings.
import { describe, expect, it } from 'vitest';
import { library, renderLibraryDue } from '../../../../src/features/library/library.js';
import type { LentBook } from '../../../../src/rules/library.js';
import { entityTable } from '../../../helpers/entities.js';

const book = (title: string, due: string | null, extra: Partial<LentBook> = {}): LentBook => ({
  title,
  author: 'A. Autor',
  lent: '2026-10-01',
  due,
  freeTextbook: false,
  overdue: false,
  extendable: true,
  ...extra,
});

describe('library feature', () => {
  it('declares library_due', () => {
    expect(entityTable(library.entities)).toEqual([['library_due', 'sensor', true]]);
  });

  it('counts the lendings and lists them with their published names', () => {
    const state = renderLibraryDue({
      books: [book('Pan Tadeusz', '2026-11-20', { overdue: true }), book('Matematyka 4', null, { freeTextbook: true, extendable: null })],
      overdue: 1,
      nextDue: null,
    });
    expect(state.state).toBe('2');
    expect(state.attributes).toEqual({
      overdue: 1,
      next_due: null,
      titles: ['Pan Tadeusz', 'Matematyka 4'],
      items: [
        { title: 'Pan Tadeusz', author: 'A. Autor', lent: '2026-10-01', due: '2026-11-20', free_textbook: false, overdue: true, extendable: true },
        { title: 'Matematyka 4', author: 'A. Autor', lent: '2026-10-01', due: null, free_textbook: true, overdue: false, extendable: null },
      ],
    });
  });
});
