// The notes feature: newest_note, rendered from the school rule's newest note.
import { describe, expect, it } from 'vitest';
import { notes, renderNewestNote } from '../../../../src/features/notes/notes.js';
import { entityTable } from '../../../helpers/entities.js';

describe('notes feature', () => {
  it('declares newest_note and the note event', () => {
    expect(entityTable(notes.entities)).toEqual([
      ['newest_note', 'sensor', true],
      ['note', 'event', false],
    ]);
  });

  it.each([
    // the note's text and category -> the state
    ['Brak stroju na WF', 'Uwaga negatywna', 'Brak stroju na WF'],
    [null, 'Pochwała', 'Pochwała'],
  ] as const)('a note %j of category %j reads %j, its fields beside', (text, category, state) => {
    const rendered = renderNewestNote({ note: { category, kind: 'negative', teacher: 'Jan Kowalski', date: '2026-11-20', text }, count: 3 });
    expect(rendered.state).toBe(state);
    expect(rendered.attributes).toEqual({ category, kind: 'negative', teacher: 'Jan Kowalski', date: '2026-11-20', text, count: 3 });
  });

  it('is unknown without a note, counting none', () => {
    expect(renderNewestNote({ note: null, count: 0 })).toEqual({ state: null, attributes: { count: 0 } });
  });
});
