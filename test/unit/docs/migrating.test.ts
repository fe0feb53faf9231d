// docs/migrating.md tells a family moving from another integration what MQTT shows in place of each of its
// entities, events, services and blueprints: every row's "ours" names an entity the features declare (by its
// full id, `sensor.<c>_key`), never one they do not; an attribute named as an entity's (`sensor.<c>_x`'s `a`)
// and each field an event's row lists are ones docs/entities.md's states table describes for that entity.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documentedKeys } from '../../../src/features/readme-tables.js';

const page = readFileSync(new URL('../../../docs/migrating.md', import.meta.url), 'utf8');
const entities = readFileSync(new URL('../../../docs/entities.md', import.meta.url), 'utf8');
const KEYS = new Set(documentedKeys());
const ENTITY = /^(sensor|binary_sensor|event|button|select|text|notify)\.<c>_(.+)$/;

/** The "ours" cell of every row of every table whose header is `| theirs ... | ours |`. */
function rows(): { theirs: string; ours: string }[] {
  const out: { theirs: string; ours: string }[] = [];
  let inTable = false;
  for (const line of page.split('\n')) {
    if (/^\| theirs.*\| ours \|$/.test(line)) inTable = true;
    else if (!line.startsWith('|')) inTable = false;
    else if (inTable && !line.startsWith('|---')) {
      // Split on the cell bars, not on a `|` escaped inside a cell.
      const cells = line.split(/(?<!\\)\|/).map((c) => c.trim());
      out.push({ theirs: cells[1]!, ours: cells.at(-2)! });
    }
  }
  return out;
}

const backticked = (text: string): string[] => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
const keyOf = (token: string): string | undefined => ENTITY.exec(token)?.[2];

/** The row of docs/entities.md's states table that describes a key (a row may describe several). */
function statesRow(key: string): string {
  const table = entities.slice(entities.indexOf('<!-- entity-states:start -->'), entities.indexOf('<!-- entity-states:end -->'));
  const row = table.split('\n').find((line) => line.startsWith('|') && backticked(line.split('|')[1] ?? '').includes(key));
  expect(row, `docs/entities.md describes ${key}`).toBeDefined();
  return row!;
}
const describes = (row: string, name: string): boolean => new RegExp(`\`${name}[\`:]|\\b${name}\\b`).test(row.split('|').slice(2).join('|'));

describe('docs/migrating.md', () => {
  const all = rows();

  it('has its tables', () => {
    expect(all.length).toBeGreaterThan(60);
  });

  it.each(all.map((r) => [r.theirs, r.ours]))('%s: names what MQTT shows, each entity one the features declare', (_theirs, ours) => {
    const named = backticked(ours).flatMap((token) => token.split(/,\s*/).map(keyOf));
    const keys = named.filter((k): k is string => k !== undefined);
    expect(keys.length, 'an entity of the child named by its id').toBeGreaterThan(0);
    expect(keys.filter((k) => !KEYS.has(k))).toEqual([]);
  });

  it("names as an entity's attribute only what docs/entities.md describes for it", () => {
    const claims = all.flatMap((r) => [...r.ours.matchAll(/`([^`]+)`'s `([a-z_]+)`/g)].map((m) => [keyOf(m[1]!), m[2]!] as const));
    expect(claims.length).toBeGreaterThan(5);
    for (const [key, attribute] of claims) {
      expect(key, attribute).toBeDefined();
      expect(describes(statesRow(key!), attribute), `${key}'s ${attribute}`).toBe(true);
    }
  });

  it("lists as an event's fields only what docs/entities.md describes for that event (no `read` the message event lacks)", () => {
    const events = all.filter((r) => /^`event\.<c>_\w+`: /.test(r.ours));
    expect(events.length).toBeGreaterThan(8);
    for (const { ours } of events) {
      const key = keyOf(backticked(ours)[0]!)!;
      const row = statesRow(key);
      // Their names stand in parentheses ("their *value*"): only our own fields are checked.
      const fields = backticked(ours.replace(/\([^()]*\)/g, ''))
        .map((token) => token.split(':')[0]!)
        .filter((name) => /^[a-z_]+$/.test(name) && keyOf(name) === undefined);
      const undescribed = fields.filter((f) => f !== `${key}_changed` && f !== `${key}_removed` && !describes(row, f));
      expect(undescribed, key).toEqual([]);
    }
  });
});
