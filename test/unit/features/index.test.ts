// The list of features: what is derived from it (catalogue, command owners) and the order passes run in.
import { describe, expect, it } from 'vitest';
import { accountEntities, commandOwners, ENTITIES, FEATURES, runOrder } from '../../../src/features/index.js';
import { feature, type Feature } from '../../../src/features/feature.js';
import type { AccountConfig } from '../../../src/config/schema.js';

const named = (name: string, inputs?: string[]): Feature => feature({ name, inputs, entities: [], create: () => ({}) });

describe('features', () => {
  it('runs a feature after the features it names as inputs, whatever the list order', () => {
    const byName = (list: readonly Feature[]): string[] => runOrder(list).map((f) => f.name);
    expect(byName([named('agenda', ['timetable']), named('lucky'), named('timetable')])).toEqual(['timetable', 'agenda', 'lucky']);
    const order = byName(FEATURES);
    expect(order.indexOf('agenda')).toBeGreaterThan(order.indexOf('timetable'));
  });

  it('refuses inputs that are missing or depend on each other', () => {
    expect(() => runOrder([named('agenda', ['timetable'])])).toThrow(/needs timetable/);
    expect(() => runOrder([named('a', ['b']), named('b', ['a'])])).toThrow(/depend on each other/);
  });

  it('gives every entity key to one feature, and every button command a handler', () => {
    const keys = ENTITIES.map((e) => e.key);
    expect(new Set(keys).size).toBe(keys.length);
    const owners = commandOwners();
    for (const e of ENTITIES.filter((e) => e.command)) expect(owners.has(e.command!.key), e.key).toBe(true);
    expect(owners.get('mark_notices_read')?.name).toBe('notices');
    expect(owners.get('refresh')?.name).toBe('status');
    expect(owners.get('send_message')?.name).toBe('fixed-messages');
  });

  it("announces a child's catalogue entities, then a button per fixed message", () => {
    const account = { login: 'x', messages: [{ id: 'sick', name: 'Chory' }] } as unknown as AccountConfig;
    const entities = accountEntities(account);
    expect(entities.slice(0, -1)).toEqual([...ENTITIES]);
    expect(entities.at(-1)).toMatchObject({ key: 'send_sick', command: { key: 'send_message', payload: 'sick' } });
  });
});
