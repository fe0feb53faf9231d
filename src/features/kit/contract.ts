// The contract between a feature and the screens that show its entities (MQTT, the dashboard, the board):
// a feature declares each entity once with the shape of its attributes and the function from its view to its
// state (statesOf makes a pass's states of them), and every screen reads an entity through its declaration,
// never through a key or an attribute name spelled again, so renaming an attribute is a compile error wherever a
// screen reads it.
import type { EntityDef, PublishedAs } from './entities.js';
import type { DeclaredStates, EntityState } from '../../engine/state.js';
import type { Language } from '../../config/language.js';
import type { NewsItem } from '../../rules/news.js';
import type { Tracking } from '../../once/tracked.js';
import type { FloodPayload } from '../../once/flood.js';

export type { Shape, NoAttributes, NothingOf, PublishedAs } from './entities.js';
export { shape } from './entities.js';

/** The attributes an entity declares (NoAttributes when it declares none). */
export type AttributesOf<E> = E extends EntityDef<string, infer A, string> ? A : never;

/** The state an entity has when known: 'ON' | 'OFF' for a binary sensor, any text for a sensor. */
export type StateOf<E> = E extends EntityDef<string, unknown, infer S> ? S : never;

/** The name of an attribute of E, as a screen may name it. */
export type AttributeName<E> = keyof AttributesOf<E> & string;

/** The items of a list attribute of E (`ItemOf<typeof timetableToday, 'lessons'>`: one slot). */
export type ItemOf<E, N extends AttributeName<E>> = AttributesOf<E>[N] extends readonly (infer T)[] ? T : never;

/** What each event of an event entity carries, as its feature declares it (`payload: shape<FreeDayPayload>()`). */
export type PayloadOf<E> = E extends EntityDef<string, unknown, string, infer P> ? P : never;

/**
 * What an automation receives from an event entity beside `event_type`: one item's payload as its
 * feature declares it, or, for a flood on a running bridge (more than 20 of one event type at once,
 * interface 9.2), `count` and the first `entries` (once/flood.ts). A reader tells them apart by `count`.
 */
export type FiredPayload<E> = PayloadOf<E> | FloodPayload<PayloadOf<E>>;

/**
 * A pass's event candidates by event kind, for some event entities: a kind no entity declares, or a
 * payload without its declared fields, fails to compile (`events: {...} satisfies Events<typeof freeDay>`).
 */
export type Events<E extends EntityDef> = { [D in E as D['key']]?: NewsItem<PayloadOf<D>>[] };

/**
 * The payload of a tracked event (interface 8.3), declared as `shape<TrackedPayload<GradePayload, ...>>()`:
 * the record's fields P, and on `<key>_changed` the compared fields F that changed, as they were
 * (`previous`). `<key>_removed` carries the compared fields as last known. For a union of records each
 * keeps its own fields.
 */
export type TrackedPayload<P, F extends KeysOf<P>> = P extends unknown ? P & { previous?: { [K in F & keyof P]?: P[K] } } : never;

/** The keys of any member of a union of records (`keyof` alone gives those all members share). */
export type KeysOf<P> = P extends unknown ? keyof P & string : never;

/** The fields a tracked event compares: the names its payload's `previous` may hold. */
export type ComparedOf<E> = PreviousKeys<PayloadOf<E>>;
type PreviousKeys<P> = P extends { previous?: infer Q } ? keyof NonNullable<Q> & string : never;

/**
 * What a pass says of some tracked event entities' records, by event kind: a field the payload's
 * `previous` does not declare fails to compile (`tracked: {...} satisfies Tracked<typeof gradeEvent>`).
 */
export type Tracked<E extends EntityDef> = { [D in E as D['key']]?: Tracking<ComparedOf<D>> };

/**
 * What an entity's declaration gives as its state: its state (null: unknown) and its declared attributes,
 * or `{}` when nothing is known (which clears them in Home Assistant).
 */
export type Published<E> = PublishedAs<AttributesOf<E>, StateOf<E>>;

/**
 * The states some entities' declarations made, by key: each as its entity declares it, and missing where the
 * declaration left what was published (its view lacked what it is made from).
 */
export type States<E extends EntityDef> = { readonly [D in E as D['key']]?: Published<D> } & DeclaredStates;

/** A feature's view with the family's language, for the entities whose states are words: `state: ({ view, language }: Worded<NoticesView>) => …`. */
export type Worded<V> = { view: V; language: Language };

/**
 * The states of `entities` for one pass: each declaration's `state:` given the feature's view (computed once),
 * by the entity's key. The one way a feature makes the states it publishes (SourceResult.states, a command's):
 * the key is the declaration's, never written again.
 */
export function statesOf<V, E extends EntityDef<string, unknown, string, unknown, V>>(entities: readonly E[], view: V): States<E> {
  const states: Record<string, EntityState> = {};
  for (const entity of entities) {
    const state = entity.state?.(view);
    if (state !== undefined) states[entity.key] = state;
  }
  return states as States<E>;
}

/**
 * What a screen finds for an entity in what the bridge last published: the declared names, each of
 * which may be missing (a state retained by an older version, or one published as unknown). Screens
 * still check each value's type before they show it.
 */
export interface Received<E> {
  state: string | null;
  /** None published (a state without attributes): empty, each attribute missing. */
  attributes: Partial<AttributesOf<E>>;
}

/** A child's last published state of an entity, read by its declaration; undefined when none was. */
export function received<E extends EntityDef>(states: ReadonlyMap<string, EntityState>, entity: E): Received<E> | undefined {
  const published = states.get(entity.key);
  return published && { state: published.state, attributes: (published.attributes ?? {}) as Partial<AttributesOf<E>> };
}
