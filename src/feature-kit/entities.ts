// How an entity is declared (each feature declares its own, see src/features/) and the small helpers
// that name it in Home Assistant.
import type { Language, Texts } from '../config/language.js';

export type Platform = 'sensor' | 'binary_sensor' | 'button' | 'event';

export interface EntityDef {
  /** The <entity> part of topics and unique ids. */
  key: string;
  platform: Platform;
  /** What Home Assistant shows, in the configured language (the entity id stays English). */
  name: Texts;
  icon?: string;
  deviceClass?: string;
  stateClass?: 'measurement' | 'total';
  unit?: string;
  entityCategory?: 'diagnostic' | 'config';
  /** Available whenever the bridge is, even while the child is offline (diagnostics). */
  bridgeAvailabilityOnly?: boolean;
  /** Sensors whose state carries an attributes topic. */
  attributes?: boolean;
  /** For buttons: the command topic key (<base>/<c>/<command>/set) and the payload it sends. */
  command?: { key: string; payload: string };
  /** For events: the event types it can fire. */
  eventTypes?: string[];
}

/** A sensor; it has an attributes topic unless it says otherwise. */
export const sensor = (key: string, name: Texts, extra: Partial<EntityDef> = {}): EntityDef => ({
  key,
  platform: 'sensor',
  name,
  attributes: true,
  ...extra,
});

export const binary = (key: string, name: Texts, extra: Partial<EntityDef> = {}): EntityDef => ({
  key,
  platform: 'binary_sensor',
  name,
  ...extra,
});

/** An event entity that fires one event type, named as its key. */
export const eventEntity = (key: string, name: Texts, icon: string): EntityDef => ({
  key,
  platform: 'event',
  name,
  icon,
  eventTypes: [key],
});

/** The name Home Assistant shows for an entity in a language. */
export function entityName(entity: Pick<EntityDef, 'name'>, language: Language): string {
  return entity.name[language];
}

/** The entity id Home Assistant gives: discovery sets default_entity_id to <platform>.<child>_<key>. */
export function entityId(childId: string, entity: Pick<EntityDef, 'platform' | 'key'>): string {
  return `${entity.platform}.${childId}_${entity.key}`;
}
