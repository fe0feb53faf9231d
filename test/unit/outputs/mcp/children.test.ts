// Which child a call names (interface 17.1): the id, the first name, the full name, a diminutive a Polish family uses
// (the table's: Zosia, Antek, Staś, Jaś, Kasia, Ola, Kuba...) or a unique beginning; none named: every child; a name
// two children answer to is refused with both, never guessed.
import { describe, expect, it } from 'vitest';
import { childrenNamed } from '../../../../src/outputs/mcp/children.js';
import { namesOf } from '../../../../src/outputs/mcp/diminutives.js';
import { AskRefusal } from '../../../../src/features/screens/ask.js';
import { MCP_TEXT } from '../../../../src/i18n/mcp-text.js';
import type { ChildView } from '../../../../src/outputs/web/types.js';

const child = (id: string, name: string): ChildView => ({ id, name, model: null, online: true, states: new Map(), changedAt: 0 });
const FAMILY = [
  child('zofia', 'Zofia Kowalska'),
  child('antoni', 'Antoni Kowalski'),
  child('stas', 'Stanisław Kowalski'),
  child('ania', 'Ania Kowalska'),
  child('kasia-n', 'Katarzyna Nowak'),
  child('jan', 'Jan Kowalski'),
];
const named = (given: string | undefined) => childrenNamed(given, FAMILY, MCP_TEXT.pl).map((c) => c.id);

describe('the child a call names', () => {
  it('is found by id, first name, full name, a diminutive or a unique beginning, case and diacritics aside', () => {
    expect(named('zofia')).toEqual(['zofia']);
    expect(named('Zofia Kowalska')).toEqual(['zofia']);
    expect(named('Zosia')).toEqual(['zofia']);
    expect(named('zośka')).toEqual(['zofia']);
    expect(named('Antek')).toEqual(['antoni']);
    expect(named('Staś')).toEqual(['stas']);
    expect(named('stasiek')).toEqual(['stas']);
    expect(named('Kasia')).toEqual(['kasia-n']);
    expect(named('Jaś')).toEqual(['jan']);
    expect(named('Janek')).toEqual(['jan']);
    // The register's own first name may be a diminutive: "Ania" answers to Anna and Anusia too.
    expect(named('Anna')).toEqual(['ania']);
    expect(named('Anusia')).toEqual(['ania']);
    // A unique beginning of any name: "Zo", "Stan", "Kat".
    expect(named('Zo')).toEqual(['zofia']);
    expect(named('Stan')).toEqual(['stas']);
    expect(named('kat')).toEqual(['kasia-n']);
  });

  it('left out, is every child', () => {
    expect(named(undefined)).toEqual(FAMILY.map((c) => c.id));
    expect(named('  ')).toEqual(FAMILY.map((c) => c.id));
  });

  it('two children answer to: refused with both names; none: refused with every name, the given quoted short', () => {
    expect(() => named('A')).toThrow(AskRefusal);
    expect(() => named('A')).toThrow(/"A" pasuje do więcej niż jednego dziecka: Antoni \(antoni\), Ania \(ania\)/);
    expect(() => named('An')).toThrow(/więcej niż jednego dziecka: Antoni \(antoni\), Ania \(ania\)/);
    expect(() => named('Kuba')).toThrow(/Nie ma tu dziecka "Kuba"\. Mostek czyta: Zofia \(zofia\), Antoni \(antoni\)/);
    expect(() => named('x'.repeat(5000))).toThrow(/^Nie ma tu dziecka "x{40}"\./);
  });
});

describe('the diminutives', () => {
  it('give the common forms of a first name, loosely', () => {
    expect(namesOf('Zofia')).toEqual(expect.arrayContaining(['zofia', 'zosia']));
    expect(namesOf('Antoni')).toContain('antek');
    expect(namesOf('Stanisław')).toContain('stas');
    expect(namesOf('Jan')).toEqual(expect.arrayContaining(['jas', 'janek']));
    expect(namesOf('Katarzyna')).toContain('kasia');
    expect(namesOf('Aleksandra')).toContain('ola');
    expect(namesOf('Jakub')).toContain('kuba');
    expect(namesOf('Małgorzata')).toEqual(expect.arrayContaining(['gosia', 'malgosia']));
    // A name with no diminutive in the table is itself only.
    expect(namesOf('Ksawery')).toEqual(['ksawery']);
  });
});
