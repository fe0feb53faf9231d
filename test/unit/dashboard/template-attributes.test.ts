// Every attribute a dashboard card's template or a blueprint reads by string is one a feature's typed declaration
// declares (test/helpers/declared-attributes.ts, found by the compiler): a field renamed in its declaration and in the
// code that fills it keeps the typecheck clean, and without this the card that still reads the old name would print
// "–" in silence (the grades card's forecast column once could).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { dashboard, type DashboardChild } from '../../../src/outputs/homeassistant/dashboard.js';
import { LANGUAGES } from '../../../src/config/language.js';
import { ENTITIES, sendButton } from '../../../src/features/index.js';
import { bindings, declaredAttributes, namesRead, readsByLocal, type Declared } from '../../helpers/declared-attributes.js';

const BLUEPRINTS = join(import.meta.dirname, '..', '..', '..', 'blueprints');
const ania: DashboardChild = { id: 'ania', name: 'Ania', entities: [...ENTITIES, sendButton('sick', 'Zgłoś nieobecność')] };
const zosia: DashboardChild = { id: 'zosia', name: 'Zosia', entities: ENTITIES, kind: 'kindergarten' };

/** Every markdown card's content in a value. */
function contents(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(contents);
  if (value === null || typeof value !== 'object') return [];
  const card = value as Record<string, unknown>;
  return [...(card.type === 'markdown' ? [String(card.content)] : []), ...Object.values(card).flatMap(contents)];
}

let declared: Map<string, Declared>;
beforeAll(() => {
  declared = declaredAttributes();
}, 120_000);

/** Every name an entity declares, at any depth. */
const everyName = (key: string): string[] => [...(declared.get(key) ?? new Map<string, Set<string>>())].flatMap(([a, names]) => [a, ...names]);

/**
 * What a card's template reads that its entities do not declare. Its head names them (`{%- set average =
 * "sensor.ania_average" -%}`); a list the dashboard writes into the head declares its records' keys. A local whose
 * values come from an attribute (`for s in state_attr(average, 'subjects')`) may read only what that attribute's
 * items declare; any other read, what one of the card's entities or lists declares.
 */
function undeclaredReads(content: string): string[] {
  const entities = new Map<string, string>();
  const card = new Set<string>();
  for (const [, variable, value] of content.matchAll(/^\{%- set (\w+) = (.*) -%\}$/gm)) {
    const entity = /^"\w+\.(?:ania|zosia)_(\w+)"$/.exec(value!)?.[1];
    if (entity !== undefined) {
      entities.set(variable!, entity);
      for (const name of everyName(entity)) card.add(name);
    } else if (value!.startsWith('[')) for (const item of JSON.parse(value!) as object[]) for (const key of Object.keys(item)) card.add(key);
  }
  const body = content.replace(/^\{%- set \w+ = .* -%\}$/gm, '');
  const bound = bindings(body);
  return readsByLocal(body).flatMap(({ local, name }) => {
    const roots = (bound.get(local) ?? []).filter((r) => entities.has(r.variable));
    const allowed = roots.length === 0 ? card : new Set(roots.flatMap((r) => [...(declared.get(entities.get(r.variable)!)?.get(r.attribute) ?? [])]));
    return allowed.has(name) ? [] : [`${local ? `${local}.` : ''}${name}${roots.map((r) => ` (${r.variable}.${r.attribute})`).join('')}`];
  });
}

describe('the attributes the templates read', () => {
  it("are each declared by the entity's typed attributes, in every dashboard card", () => {
    for (const lang of LANGUAGES) {
      const cards = contents(dashboard([ania, zosia], lang));
      expect(cards.length).toBeGreaterThan(20);
      expect(cards.map(undeclaredReads).flat(), lang).toEqual([]);
      // Hundreds of reads, each checked.
      expect(
        cards.map((c) => namesRead(c).size).reduce((a, b) => a + b),
        lang,
      ).toBeGreaterThan(300);
    }
  });

  it('are each declared by a feature, in every blueprint', () => {
    // Home Assistant's own attributes of a state or an event, whose child every event names (engine/state.ts), and
    // what a flood of events carries (once/flood.ts); the weekly summary's request names the children (mqtt/requests.ts).
    const own = ['friendly_name', 'event_type', 'unit_of_measurement', 'device_class', 'icon', 'child', 'child_name', 'count', 'entries', 'children'];
    const every = new Set([...own, ...[...declared.keys()].flatMap(everyName)]);
    const files = readdirSync(BLUEPRINTS, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThan(20);
    const undeclared = files.flatMap((file) => {
      const text = readFileSync(join(BLUEPRINTS, file), 'utf8');
      // A key the blueprint writes itself (`{'way': ...}`, `words: {en: ...}`) is its own to read.
      const written = new Set([...text.matchAll(/['"]?(\w+)['"]?\s*:/g)].map((m) => m[1]!));
      return [...namesRead(text)].filter((name) => !every.has(name) && !written.has(name)).map((name) => `${file}: ${name}`);
    });
    expect(undeclared).toEqual([]);
  });
});
