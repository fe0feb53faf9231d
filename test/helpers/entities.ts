// The bridge's entities by key, for tests that announce a handful of them (the bridge takes
// whatever a child declares; the features' catalogue is src/features/index.ts).
import { ENTITIES } from '../../src/features/index.js';
import type { EntityDef } from '../../src/features/kit/entities.js';

/** The catalogue entry of a key; an unknown key fails the test. */
export function entityByKey(key: string): EntityDef {
  const found = ENTITIES.find((e) => e.key === key);
  if (!found) throw new Error(`no entity ${key}`);
  return found;
}

/**
 * A feature's entities as a table a test compares with the interface's: key, platform and whether Home
 * Assistant is told of an attributes topic.
 */
export function entityTable(entities: readonly EntityDef[]): [key: string, platform: string, attributes: boolean][] {
  return entities.map((e) => [e.key, e.platform, Boolean(e.attributes)]);
}
