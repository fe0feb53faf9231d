import { describe, expect, it } from 'vitest';
import { assignSlugs, slugify } from '../../../src/rules/subject-slugs.js';

describe('slugify', () => {
  it.each([
    ['Język polski', 'jezyk_polski'],
    ['Wychowanie fizyczne (chłopcy)', 'wychowanie_fizyczne_chlopcy'],
    ['ŁĄCZNOŚĆ Źródła żółw', 'lacznosc_zrodla_zolw'],
    ['  Koło matematyczne  ', 'kolo_matematyczne'],
    ['J. angielski - gr. 2', 'j_angielski_gr_2'],
    ['—', ''],
  ])('%j -> %j', (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });
});

describe('assignSlugs', () => {
  it('names a subject without a name by its id', () => {
    expect(
      assignSlugs([
        { id: '5030', name: null },
        { id: '5031', name: '???' },
      ]),
    ).toEqual(
      new Map([
        ['5030', 'subject_5030'],
        ['5031', 'subject_5031'],
      ]),
    );
  });

  it('gives two subjects that slug alike the plain key by the lower id and _2 to the other, whatever their order', () => {
    const expected = new Map([
      ['9', 'jezyk_polski'],
      ['10', 'jezyk_polski_2'],
      ['11', 'matematyka'],
    ]);
    expect(
      assignSlugs([
        { id: '10', name: 'Język Polski' },
        { id: '11', name: 'Matematyka' },
        { id: '9', name: 'Język polski' },
      ]),
    ).toEqual(expected);
    expect(
      assignSlugs([
        { id: '9', name: 'Język polski' },
        { id: '11', name: 'Matematyka' },
        { id: '10', name: 'Język Polski' },
      ]),
    ).toEqual(expected);
  });

  it("keeps a remembered key, for a renamed subject too, and never gives an absent subject's key to another", () => {
    const slugs = assignSlugs(
      [
        { id: '20', name: 'Matematyka rozszerzona' },
        { id: '21', name: 'Matematyka' },
      ],
      { '20': 'matematyka', '7': 'matematyka_2' },
    );
    expect(slugs).toEqual(
      new Map([
        ['20', 'matematyka'],
        ['21', 'matematyka_3'],
      ]),
    );
  });

  it('never makes a key that clashes with a name ending in _2', () => {
    const slugs = assignSlugs([
      { id: '1', name: 'Fizyka 2' },
      { id: '2', name: 'Fizyka' },
      { id: '3', name: 'Fizyka' },
    ]);
    expect(new Set(slugs.values()).size).toBe(3);
    expect(slugs.get('1')).toBe('fizyka_2');
    expect(slugs.get('2')).toBe('fizyka');
    expect(slugs.get('3')).toBe('fizyka_3');
  });
});
