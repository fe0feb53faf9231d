// The sort orders that replace ICU collation must order what a parent reads as Intl.Collator does.
import { describe, expect, it } from 'vitest';
import { idCompare, plCompare, textCompare } from '../../../src/rules/order.js';

const SUBJECTS = [
  'Język polski',
  'język angielski',
  'Język niemiecki',
  'Matematyka',
  'Muzyka',
  'Plastyka',
  'Przyroda',
  'Religia',
  'Etyka',
  'Edukacja dla bezpieczeństwa',
  'Edukacja wczesnoszkolna',
  'Wychowanie fizyczne',
  'Wychowanie do życia w rodzinie',
  'Zajęcia z wychowawcą',
  'Żeglarstwo',
  'Źródła historyczne',
  'Zoologia',
  'Łacina',
  'Lekcja biblioteczna',
  'Ćwiczenia',
  'Chemia',
  'Śpiew',
  'Sztuka',
  'Ósma godzina',
  'Obywatelstwo',
  'Ąkla',
  'Azyl',
  'Ęta',
  'Ewa',
  'Ńaaa',
  'Nauka',
  'Informatyka 2',
  'Informatyka 10',
  'Informatyka',
  'Café',
  'Cafe',
  'cafe',
  'Historia i teraźniejszość',
  'Historia',
  'Koło matematyczne (rozszerzenie)',
  'Koło-teatr',
  'geografia',
  'Geografia',
  'Biologia',
  'Fizyka',
  'Technika',
  'WF',
  'Wf',
];

describe('plCompare', () => {
  it('orders subject names as the Polish collation does: ą after a, ł after l, ż last, case second', () => {
    const collator = new Intl.Collator('pl');
    expect([...SUBJECTS].sort(plCompare)).toEqual([...SUBJECTS].sort((a, b) => collator.compare(a, b)));
  });

  it('puts the Polish letters after their base letters, not at the end of the alphabet', () => {
    expect(['Źródła', 'Łacina', 'Lekcja', 'Zoologia', 'Ósma', 'Przyroda'].sort(plCompare)).toEqual([
      'Lekcja',
      'Łacina',
      'Ósma',
      'Przyroda',
      'Zoologia',
      'Źródła',
    ]);
  });
});

describe('idCompare', () => {
  it('orders ids as the numeric collation does: digit runs by value', () => {
    const ids = [
      'grade:10',
      'grade:9',
      'grade:100',
      'point:2',
      'descriptive:p5',
      'descriptive:12',
      'text:007',
      'text:7',
      '42',
      '5',
      'behaviour:p1',
      'behaviour:10',
    ];
    const collator = new Intl.Collator('en', { numeric: true });
    expect([...ids].sort(idCompare)).toEqual([...ids].sort((a, b) => collator.compare(a, b)));
  });
});

describe('textCompare', () => {
  it('orders ISO dates and times as strings', () => {
    expect(['2026-11-20 08:00', '2026-01-05', '2026-11-20 07:55', '2025-12-31'].sort(textCompare)).toEqual([
      '2025-12-31',
      '2026-01-05',
      '2026-11-20 07:55',
      '2026-11-20 08:00',
    ]);
    expect(textCompare('a', 'a')).toBe(0);
  });
});
