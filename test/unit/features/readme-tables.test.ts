// The entity tables against the features: docs/entities.md's generated table and hassio-addon/DOCS.md's
// must be what the features declare, and docs/entities.md's hand-written table of states must describe
// exactly their keys.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ADDON_PAGE,
  addonTableProblems,
  documentedKeys,
  ENTITIES_PAGE,
  readmeProblems,
  withAddonTable,
  withEntityTable,
  WRITE_COMMAND,
} from '../../../src/features/readme-tables.js';
import { FEATURES } from '../../../src/features/index.js';
import { feature } from '../../../src/features/feature.js';
import { sensor } from '../../../src/features/kit/entities.js';

const PAGE = readFileSync(new URL(`../../../${ENTITIES_PAGE}`, import.meta.url), 'utf8');
const ADDON = readFileSync(new URL(`../../../${ADDON_PAGE}`, import.meta.url), 'utf8');

/** The features with one more entity, as a newcomer would add it to the lucky feature. */
const withNewEntity = FEATURES.map((f) =>
  f.name === 'lucky'
    ? feature({
        ...f,
        entities: [
          ...f.entities,
          sensor('lucky_streak', { en: 'Lucky streak', pl: 'Seria szczęścia', uk: 'Серія удачі' }, { stateClass: 'measurement' }),
        ],
      })
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
    expect(
      readmeProblems(
        PAGE,
        FEATURES.filter((f) => f.name !== 'library'),
      ),
    ).toEqual([
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

describe("the entity table of the app's page (hassio-addon/DOCS.md)", () => {
  it('lists every entity the features declare, by the entity id a parent finds in Home Assistant', () => {
    expect(addonTableProblems(ADDON)).toEqual([]);
    expect(ADDON).toContain('| `sensor.<child>_lucky_number` | Szczęśliwy numerek / Lucky number / Щасливий номер |');
    expect(ADDON).toContain("| `button.<child>_send_<message id>` | the message's `name` |");
  });

  it('fails for an entity added or removed without rewriting it, naming the command', () => {
    const stale = [`hassio-addon/DOCS.md's entity table is not what the features declare; run: ${WRITE_COMMAND}`];
    expect(addonTableProblems(ADDON, withNewEntity)).toEqual(stale);
    expect(
      addonTableProblems(
        ADDON,
        FEATURES.filter((f) => f.name !== 'library'),
      ),
    ).toEqual(stale);
  });

  it('rewrites only the table: the new row appears, the rest of the page stays as written', () => {
    const written = withAddonTable(ADDON, withNewEntity);
    expect(written).toContain('| `sensor.<child>_lucky_streak` | Seria szczęścia / Lucky streak / Серія удачі |');
    expect(addonTableProblems(written, withNewEntity)).toEqual([]);
    const outside = (text: string): string => text.replace(/<!-- addon-entities:start -->[\s\S]*<!-- addon-entities:end -->/, '');
    expect(outside(written)).toBe(outside(ADDON));
  });

  it('says where the markers must go when the page has lost them', () => {
    expect(addonTableProblems(ADDON.replace('<!-- addon-entities:end -->', ''))).toEqual([
      `hassio-addon/DOCS.md has no <!-- addon-entities:start --> ... <!-- addon-entities:end --> pair; add it where the table goes, then run: ${WRITE_COMMAND}`,
    ]);
  });
});
