// docs/entities.md's entity tables against the features: the generated table must be what the features
// declare, and the hand-written table of states must describe exactly their keys.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documentedKeys, ENTITIES_PAGE, readmeProblems, withEntityTable, WRITE_COMMAND } from '../../../src/features/readme-tables.js';
import { FEATURES } from '../../../src/features/index.js';
import { feature } from '../../../src/features/feature.js';
import { sensor } from '../../../src/feature-kit/entities.js';

const PAGE = readFileSync(new URL(`../../../${ENTITIES_PAGE}`, import.meta.url), 'utf8');

/** The features with one more entity, as a newcomer would add it to the lucky feature. */
const withNewEntity = FEATURES.map((f) =>
  f.name === 'lucky'
    ? feature({ ...f, entities: [...f.entities, sensor('lucky_streak', { en: 'Lucky streak', pl: 'Seria szczęścia', uk: 'Серія удачі' }, { stateClass: 'measurement' })] })
    : f,
);

describe('the entity tables of docs/entities.md', () => {
  it('list every entity the features declare, as they declare it', () => {
    expect(readmeProblems(PAGE)).toEqual([]);
  });

  it('fail for an entity added without its rows, naming the command that rewrites the table', () => {
    const problems = readmeProblems(PAGE, withNewEntity);
    expect(problems).toEqual([
      `docs/entities.md's entity table is not what the features declare; run: ${WRITE_COMMAND}`,
      "docs/entities.md's table of states does not describe `lucky_streak`: add a row (by hand) between the <!-- entity-states:start --> markers",
    ]);
  });

  it('fail for a description of an entity no feature declares any more', () => {
    expect(readmeProblems(PAGE, FEATURES.filter((f) => f.name !== 'library'))).toEqual([
      `docs/entities.md's entity table is not what the features declare; run: ${WRITE_COMMAND}`,
      "docs/entities.md's table of states describes `library_due`, which no feature declares",
    ]);
  });

  it('rewrites only the generated table: the new row appears, the prose stays as written', () => {
    const written = withEntityTable(PAGE, withNewEntity);
    expect(written).toContain('| `lucky_streak` | Seria szczęścia / Lucky streak / Серія удачі | sensor |  | `measurement` |  | lucky |');
    expect(readmeProblems(written, withNewEntity)).toEqual([
      "docs/entities.md's table of states does not describe `lucky_streak`: add a row (by hand) between the <!-- entity-states:start --> markers",
    ]);
    const outside = (text: string): string => text.replace(/<!-- entities:start -->[\s\S]*<!-- entities:end -->/, '');
    expect(outside(written)).toBe(outside(PAGE));
  });

  it('lists a configured entity once, by the pattern of its key', () => {
    expect(documentedKeys().filter((k) => k.startsWith('send_'))).toEqual(['send_<message id>']);
    expect(documentedKeys()).toEqual(expect.arrayContaining(['lucky_number', 'problem', 'refresh', 'grade']));
  });
});
