// How an entity is declared (each feature declares its own, see src/features/) and the small helpers
// that name it in Home Assistant. A declaration that has a state carries the function from its feature's
// view to that state (as Home Assistant's EntityDescription carries its value_fn): the one place a state is
// made, so its key is written once (contract.ts statesOf).
import type { Texts } from '../../config/language.js';
import type { Resource } from '../../engine/resource.js';
import type { EntityState } from '../../engine/state.js';

export type Platform = 'sensor' | 'binary_sensor' | 'button' | 'event' | 'notify' | 'select' | 'text';

/** Platforms whose state is published on <base>/<c>/<key> (retained): cleared when the entity goes. */
export const STATEFUL_PLATFORMS: readonly Platform[] = ['sensor', 'binary_sensor', 'select', 'text'];

/**
 * The attributes an entity publishes, as a type: `attributes: shape<TimetableDay>()`. At run time it is
 * `true` (the sensor has an attributes topic); the type rides along so that the feature's render and
 * every screen that reads the entity agree on the names (see src/features/contract.ts).
 */
export type Shape<A> = true & { readonly __attributes?: A };

/** Declares the attributes of a sensor or binary sensor (a type alias, so that it fits a state's record). */
export const shape = <A extends object>(): Shape<A> => true as Shape<A>;

/**
 * One entity: K its key, A its attributes (none unless declared with shape()), S its state when known, P an
 * event's payload, V the view of its feature its state is made from.
 */
export interface EntityDef<K extends string = string, A = unknown, S extends string = string, P = unknown, V = never> {
  /** The <entity> part of topics and unique ids. */
  key: K;
  platform: Platform;
  /** What Home Assistant shows, in the configured language (the entity id stays English). */
  name: Texts;
  /** Where room is short (a count under a child's name on the board): a shorter name. */
  short?: Texts;
  icon?: string;
  deviceClass?: string;
  stateClass?: 'measurement' | 'total';
  unit?: string;
  entityCategory?: 'diagnostic' | 'config';
  /** Available whenever the bridge is, even while the child is offline (diagnostics). */
  bridgeAvailabilityOnly?: boolean;
  /** false: added switched off, for a user to turn on (Home Assistant records every state change of an enabled one). */
  enabledByDefault?: false;
  /** The lists it is made from, its module: refused them all for a day, it leaves the child's device (modules.ts). */
  module?: readonly Resource[];
  /** Sensors whose state carries an attributes topic; a Shape also says what they hold. */
  attributes?: boolean | Shape<A>;
  /** For buttons: the command topic key (<base>/<c>/<command>/set) and the payload it sends. */
  command?: { key: string; payload: string };
  eventTypes?: string[];
  /**
   * For notify, select and text: the command topic key (<base>/<c>/<command>/set); a notify's
   * command_template wraps Home Assistant's `value` (the message) into the command's payload.
   */
  input?: { key: string; template?: string };
  options?: readonly string[];
  maxLength?: number;
  /** For an event: what a new school year does to its items (RolloverRole). */
  rollover?: RolloverRole;
  /**
   * Its state and attributes from its feature's view of one pass (the declaration's `state:`, typed there by
   * `PublishedAs`); undefined leaves what was published, the view lacking what it is made from. Called only by
   * statesOf (contract.ts); a declaration without it publishes no state (events, buttons).
   */
  readonly state?: (view: V) => EntityState | undefined;
  /** Type only, never set: the state a feature publishes for it (see src/features/contract.ts). */
  readonly published?: { state: S };
  /** Type only, never set: for an event, the payload each of its events carries. */
  readonly fired?: { payload: P };
}

/**
 * What a new school year does to an event's items (once/rollover.ts, counted into the school year's event): `left`,
 * the ended year's records leave its list, counted under this name and never told; `arrived`, the new year's come
 * in bulk in its first days, counted under this name and not told one by one; `summary`, this event is the one
 * that tells the new year, carrying the counts.
 */
export type RolloverRole = { left: string } | { arrived: string } | { summary: true };

/** What a declaration may say beside its key, platform and name; `attributes` may carry a Shape. */
export type EntityOptions<A> = Partial<Omit<EntityDef, 'key' | 'platform' | 'name' | 'attributes' | 'state' | 'published' | 'fired' | 'rollover'>> & {
  attributes?: boolean | Shape<A>;
};

/** The attributes an entity without a shape() publishes: none. */
export type NoAttributes = Record<string, never>;

/** Attributes with none of A's names: `{}`, published when nothing is known. */
export type NothingOf<A> = { [K in keyof A]?: undefined };

/**
 * What an entity publishes, by its declaration: its state (null: unknown) and its declared attributes, or `{}`
 * when nothing is known (which clears them in Home Assistant). Of an entity declared with no types (a list of
 * any entities), any state.
 */
export type PublishedAs<A, S extends string = string> = unknown extends A
  ? EntityState
  : { state: S | null } & ([A] extends [NoAttributes] ? { attributes?: NoAttributes } : { attributes: A | NothingOf<A> });

/** A declaration's `state:`, from the view V to what the entity publishes (its attributes as `attributes:` declares them). */
export type Stated<A, S extends string, V> = { state?: (view: V) => PublishedAs<NoInfer<A>, S> | undefined };

/** The declaration as every reader takes it: its state function checked where it is written, then kept as the engine sees it. */
const declared = <K extends string, A, S extends string, P, V>(entity: Omit<EntityDef<K, A, S, P, V>, 'state'> & Stated<A, S, V>) =>
  entity as EntityDef<K, A, S, P, V>;

/** A sensor; it has an attributes topic unless it says otherwise. */
export const sensor = <K extends string, A extends object = NoAttributes, V = unknown>(
  key: K,
  name: Texts,
  extra: EntityOptions<A> & Stated<A, string, V> = {},
): EntityDef<K, A, string, unknown, V> => declared({ key, platform: 'sensor', name, attributes: true, ...extra });

/** A binary sensor: ON or OFF (or unknown); no attributes topic unless it declares a shape. */
export const binary = <K extends string, A extends object = NoAttributes, V = unknown>(
  key: K,
  name: Texts,
  extra: EntityOptions<A> & Stated<A, 'ON' | 'OFF', V> = {},
): EntityDef<K, A, 'ON' | 'OFF', unknown, V> => declared({ key, platform: 'binary_sensor', name, ...extra });

/** An entity declared by its options, R those it must give; a select or a text may have a state. */
const withOptions =
  <R extends Partial<EntityDef>>(platform: Platform) =>
  <K extends string, V = unknown>(
    key: K,
    name: Texts,
    options: R & EntityOptions<unknown> & Stated<NoAttributes, string, V>,
  ): EntityDef<K, unknown, string, unknown, V> =>
    declared({ key, platform, name, ...options });

/** A button: pressing it sends `command.payload` to the command topic `<base>/<child>/<command.key>/set`. */
export const button = withOptions<Required<Pick<EntityDef, 'icon' | 'command'>>>('button');
/**
 * A notify entity: Home Assistant's notify.send_message renders `input.template` with its message as
 * `value` and publishes the result to `<base>/<child>/<input.key>/set` (the title is dropped).
 */
export const notify = withOptions<{ icon: string; input: { key: string; template: string } }>('notify');
/** A select: its state is one of `options`; choosing one sends it to `<base>/<child>/<input.key>/set`. */
export const select = withOptions<Required<Pick<EntityDef, 'icon' | 'input' | 'options'>>>('select');
/** A text entity of at most `maxLength` characters; a new value goes to `<base>/<child>/<input.key>/set`. */
export const text = withOptions<Required<Pick<EntityDef, 'icon' | 'input' | 'maxLength'>>>('text');

/**
 * An event entity whose event type is its key; a tracked one (interface 8.3) also fires `<key>_changed`
 * for an edit of a known record and `<key>_removed` for one gone. It declares what each event carries
 * (`payload: shape<FreeDayPayload>()`), so that the pass that makes the events and every reader agree, and
 * what a new school year does to its items (`rollover: { left: 'grades' }`), which the event gate is handed.
 */
export const eventEntity = <K extends string, P extends object>(
  key: K,
  name: Texts,
  icon: string,
  options: { tracked?: boolean; payload: Shape<P>; module?: readonly Resource[]; rollover?: RolloverRole },
): EntityDef<K, unknown, string, P, unknown> => ({
  key,
  platform: 'event',
  name,
  icon,
  eventTypes: options.tracked ? [key, `${key}_changed`, `${key}_removed`] : [key],
  ...(options.module === undefined ? {} : { module: options.module }),
  ...(options.rollover === undefined ? {} : { rollover: options.rollover }),
});

/** The entity id Home Assistant gives: discovery sets default_entity_id to <platform>.<child>_<key>. */
export function entityId(childId: string, entity: Pick<EntityDef, 'platform' | 'key'>): string {
  return `${entity.platform}.${childId}_${entity.key}`;
}

/** A child as Home Assistant shows it: a device with the entities its account has. */
export interface ChildDevice {
  /** The account id: the <c> of every topic. */
  id: string;
  /** The child's name, shown as the device name in Home Assistant. */
  name: string;
  /** For example `Klasa 4b`. */
  model?: string;
  school?: string;
  entities: readonly EntityDef[];
}
