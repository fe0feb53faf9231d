// The dashboard's kit: the built-in Lovelace cards a feature's blocks are made of. A block reads a child's
// entities and returns a card, or nothing when the child lacks what it needs. Every text is in the dashboard's
// language, every date carries its weekday, and no state Home Assistant calls unknown reaches a parent. A
// markdown card's template is a file beside its feature (`features/<name>/<card>.jinja`, features/screens/templates.ts).
import type { EntityDef } from '../kit/entities.js';
import type { ChildEntities } from './child-entities.js';
import { filled, type TemplateName, type TemplateValue } from './templates.js';
import type { DashboardText } from '../../i18n/dashboard-text.js';
import type { Card } from './parts.js';

export type { Card } from './parts.js';

/** A markdown card of a template file (after prelude.jinja's macros and the parts it needs). */
export function markdown(
  e: ChildEntities,
  t: DashboardText,
  name: TemplateName,
  variables: Readonly<Record<string, TemplateValue>>,
  extra: Card = {},
  parts: readonly TemplateName[] = ['outputs/homeassistant/templates/prelude'],
): Card {
  return { type: 'markdown', content: filled(e, t, name, variables, parts), ...extra };
}

/**
 * A card shown only while one of the entities has a state: never read, refused (a kindergarten's grades)
 * or gone from Home Assistant (a module left the device; a dashboard condition reads a missing entity as
 * unknown), a box would say something untrue ("no grades yet") or nothing.
 */
export function whileKnown(entities: readonly string[], card: Card): Card {
  const known = (entity: string) => ['unknown', 'unavailable'].map((state) => ({ condition: 'state', entity, state_not: state }));
  const conditions =
    entities.length === 1
      ? known(entities[0]!)
      : [{ condition: 'or', conditions: entities.map((entity) => ({ condition: 'and', conditions: known(entity) })) }];
  return { type: 'conditional', conditions, card };
}

/** One entity's card, or several entities' (built only for a child that has one of them), shown while one of them has a state. */
export function ifKnown(e: ChildEntities, entities: EntityDef | readonly EntityDef[], card: () => Card): Card | undefined {
  const ids = [entities]
    .flat()
    .filter((entity) => e.has(entity))
    .map((entity) => e.id(entity));
  return ids.length === 0 ? undefined : whileKnown(ids, card());
}

/** The templates' `kindergarten`: set for a kindergarten child (the day's words), none for a school child. */
export const kindergartenVariable = (e: ChildEntities): TemplateValue => ({ text: e.preschool ? 'yes' : undefined });

export const heading = (title: string, icon?: string): Card => ({ type: 'heading', heading: title, ...(icon ? { icon } : {}) });

/** A card shown while a binary sensor is ON. */
export const ifOn = (entity: string, card: Card): Card => ({ type: 'conditional', conditions: [{ condition: 'state', entity, state: 'on' }], card });

/**
 * A card shown only while its entity has a state: one switched off in Home Assistant (off by default) is missing
 * from its states, which a condition reads as unknown, as it reads one not announced (the app has no update entity).
 */
export const whileOn = (entity: string, card: Card): Card => whileKnown([entity], card);

/**
 * A button row that presses its button when tapped, after a yes when it asks one (every button that writes to the
 * portal asks, naming what it sends). Home Assistant's button row opens the entity's dialog unless told: a toggle of
 * a button entity is its press.
 */
export function buttonRow(id: string, name: string, action: string, confirm?: string): Card {
  const confirmation = confirm === undefined ? {} : { confirmation: { text: confirm } };
  return { type: 'button', entity: id, name, action_name: action, tap_action: { action: 'toggle', ...confirmation } };
}
