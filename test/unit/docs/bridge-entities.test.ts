// docs/entities.md lists the bridge device's entities as discovery announces them: every one with its
// entity id, and those Home Assistant creates disabled said to be off by default.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bridgeDiscovery } from '../../../src/outputs/mqtt/discovery.js';

const doc = readFileSync(new URL('../../../docs/entities.md', import.meta.url), 'utf8');

describe("docs/entities.md's bridge device", () => {
  it('names every bridge entity by its id, and which are off by default', () => {
    const { payload } = bridgeDiscovery({ baseTopic: 'dziennik2mqtt', discoveryPrefix: 'homeassistant', version: '0.0.0' });
    const components = Object.values((payload as { cmps: Record<string, { default_entity_id: string; enabled_by_default?: boolean }> }).cmps);
    expect(components.length).toBeGreaterThanOrEqual(5);
    for (const c of components) {
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${c.default_entity_id}\` |`));
      expect(row, c.default_entity_id).toBeDefined();
      expect(
        row!
          .trim()
          .split('|')
          .at(-2)!
          .trim()
          .startsWith(c.enabled_by_default === false ? 'no' : 'yes'),
        c.default_entity_id,
      ).toBe(true);
    }
  });
});
