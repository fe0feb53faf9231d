// A model of how Home Assistant's frontend acts on a dashboard's cards, learnt from its source
// (home-assistant/frontend, src/panels/lovelace/) and written apart from the product:
// - which keys each card's editor accepts and requires (editor/config-elements/hui-*-card-editor.ts assert the
//   config against a superstruct `object`, which refuses a key it does not name; the rows' and actions' structs in
//   editor/structs/ and hui-entities-card-editor.ts); a refused card opens only in the YAML editor;
// - what a row or a tile does when pressed (special-rows/hui-button-row.ts defaults its tap to more-info unless the
//   entity's domain toggles; entity-rows/hui-button-entity-row.ts presses; common/entity/turn-on-off-entity.ts makes
//   a toggle of a button a press; hui-tile-card.ts's icon toggles a button);
// - when a card is shown (common/validate-condition.ts: a missing entity, or a missing attribute, reads as
//   `unknown`; `visibility` on any card, `conditions` on a conditional card) and when it is an empty box.
type Node = Record<string, unknown>;

/** What is wrong with a value, by its path; none when the struct accepts it. */
type Check = (value: unknown, at: string) => string[];

const is =
  (kind: 'string' | 'boolean' | 'number'): Check =>
  (v, at) =>
    typeof v === kind ? [] : [`${at}: not a ${kind}`];
const str = is('string');
const bool = is('boolean');
const num = is('number');
const anything: Check = () => [];
const oneOf =
  (...values: readonly string[]): Check =>
  (v, at) =>
    values.includes(v as string) ? [] : [`${at}: ${JSON.stringify(v)} is none of ${values.join(', ')}`];
const union =
  (...checks: readonly Check[]): Check =>
  (v, at) =>
    checks.some((c) => c(v, at).length === 0) ? [] : [`${at}: matches none of its forms`];
const list =
  (item: Check = anything): Check =>
  (v, at) =>
    Array.isArray(v) ? v.flatMap((x, i) => item(x, `${at}[${i}]`)) : [`${at}: not a list`];

interface Shape {
  required?: Readonly<Record<string, Check>>;
  optional?: Readonly<Record<string, Check>>;
  /** superstruct's `type`: keys it does not name are let through (an `object` refuses them). */
  loose?: boolean;
}

/** superstruct's `object`/`type`: each named key checked, the required present, any other refused unless loose. */
function record(shape: Shape): Check {
  return (v, at) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return [`${at}: not an object`];
    const value = v as Node;
    const known = { ...shape.optional, ...shape.required };
    const missing = Object.keys(shape.required ?? {}).filter((k) => value[k] === undefined);
    const unknown = shape.loose ? [] : Object.keys(value).filter((k) => !(k in known));
    return [
      ...missing.map((k) => `${at}: ${k} is required`),
      ...unknown.map((k) => `${at}: the editor refuses the key ${k}`),
      ...Object.entries(value).flatMap(([k, x]) => (k in known && x !== undefined ? known[k]!(x, `${at}.${k}`) : [])),
    ];
  };
}

/** editor/structs/action-struct.ts: a form by `action`, any other action a plain one. */
const confirmation = union(bool, record({ optional: { text: str, excemptions: list(record({ required: { user: str } })) } }));
const ids = union(str, list(str));
const ACTIONS: Readonly<Record<string, Check>> = {
  url: record({ required: { action: str, url_path: str }, optional: { confirmation } }),
  navigate: record({ required: { action: str, navigation_path: str }, optional: { navigation_replace: bool, confirmation } }),
  'perform-action': record({
    required: { action: str },
    optional: {
      service: str,
      perform_action: str,
      service_data: record({ loose: true }),
      data: record({ loose: true }),
      target: record({ optional: { entity_id: ids, device_id: ids, area_id: ids, floor_id: ids, label_id: ids } }),
      confirmation,
    },
  }),
  assist: record({ required: { action: str }, optional: { pipeline_id: str, start_listening: bool }, loose: true }),
  'more-info': record({ required: { action: str }, optional: { entity: str }, loose: true }),
};
const plainAction = record({
  required: { action: oneOf('none', 'toggle', 'more-info', 'call-service', 'perform-action', 'url', 'navigate', 'assist') },
  optional: { confirmation },
});
const action: Check = (v, at) => {
  const kind = (v as Node | null)?.action;
  const form = kind === 'call-service' ? ACTIONS['perform-action'] : typeof kind === 'string' ? ACTIONS[kind] : undefined;
  return (form ?? plainAction)(v, at);
};
const actions = { tap_action: action, hold_action: action, double_tap_action: action };

/** editor/structs/entity-name-struct.ts and entities-struct.ts. */
const nameItem = union(
  str,
  record({ required: { type: oneOf('text'), text: str } }),
  record({ required: { type: oneOf('entity', 'device', 'area', 'floor') } }),
);
const entityName = union(nameItem, list(nameItem));
const entityRow = union(
  str,
  record({
    required: { entity: str },
    optional: {
      name: entityName,
      icon: str,
      image: str,
      secondary_info: str,
      format: str,
      state_color: bool,
      ...actions,
      confirmation,
      show_last_changed: bool,
      show_state: bool,
    },
  }),
);

/** hui-entities-card-editor.ts: a row's struct by its `type`; none: an entity's row. */
const ROWS: Readonly<Record<string, Check>> = {
  button: record({
    required: { type: str, tap_action: action },
    optional: { entity: str, name: str, icon: str, action_name: str, hold_action: action, double_tap_action: action },
  }),
  section: record({ required: { type: str }, optional: { label: str } }),
  divider: record({ required: { type: str }, optional: { style: anything } }),
  attribute: record({
    required: { type: str, entity: str, attribute: str },
    optional: { prefix: str, suffix: str, name: str, icon: str, format: str },
  }),
  text: record({ required: { type: str, name: str, text: str }, optional: { icon: str } }),
  weblink: record({ required: { type: str, url: str }, optional: { name: str, icon: str } }),
  conditional: record({ required: { type: str, conditions: list() }, optional: { row: anything } }),
};
const row: Check = (v, at) => {
  const kind = (v as Node | null)?.type;
  if (kind === undefined) return entityRow(v, at);
  return typeof kind === 'string' && ROWS[kind] ? ROWS[kind](v, at) : [`${at}: no row of type ${String(kind)}`];
};

const graphEntity = union(str, record({ required: { entity: str }, optional: { name: entityName, color: str } }));
const statType = oneOf('state', 'sum', 'change', 'min', 'max', 'mean');

/** editor/structs/base-card-struct.ts: what every card's struct accepts. */
const BASE = { type: str, view_layout: anything, layout_options: anything, grid_options: anything, visibility: anything, disabled: bool };
const card = (required: Readonly<Record<string, Check>>, optional: Readonly<Record<string, Check>>): Check =>
  record({ required: { type: str, ...required }, optional: { ...BASE, ...optional } });
const stack = card({ cards: list() }, { title: str });

/** Each card's editor struct (editor/config-elements/hui-<type>-card-editor.ts), by the card's type. */
const CARDS: Readonly<Record<string, Check>> = {
  heading: card({}, { heading_style: oneOf('title', 'subtitle'), heading: str, icon: str, tap_action: action, badges: list() }),
  markdown: card({ content: str }, { text_only: bool, title: str, ...actions }),
  conditional: card({}, { card: anything, conditions: list() }),
  'vertical-stack': stack,
  'horizontal-stack': stack,
  grid: card({ cards: list() }, { title: str, square: bool, columns: num }),
  tile: card(
    {},
    {
      entity: str,
      name: entityName,
      icon: str,
      color: str,
      show_entity_picture: bool,
      hide_state: bool,
      state_content: union(str, list(str)),
      vertical: bool,
      ...actions,
      icon_tap_action: action,
      icon_hold_action: action,
      icon_double_tap_action: action,
      features: list(),
      features_position: oneOf('bottom', 'inline'),
    },
  ),
  entities: card(
    { entities: list(row) },
    { title: union(str, bool), entity: str, theme: str, icon: str, show_header_toggle: bool, state_color: bool, header: anything, footer: anything },
  ),
  'statistics-graph': card(
    { entities: list(graphEntity) },
    {
      title: str,
      days_to_show: num,
      period: oneOf('5minute', 'hour', 'day', 'week', 'month', 'year', 'auto'),
      chart_type: oneOf('line', 'line-stack', 'bar', 'bar-stack'),
      stat_types: union(list(statType), statType),
      unit: str,
      hide_legend: bool,
      expand_legend: bool,
      logarithmic_scale: bool,
      min_y_axis: num,
      max_y_axis: num,
      fit_y_data: bool,
      energy_date_selection: bool,
      collection_key: str,
    },
  ),
};

/** The cards a card holds (a conditional's card, a stack's or a grid's cards). */
export function innerCards(c: Node): Node[] {
  if (c.type === 'conditional') return c.card && typeof c.card === 'object' ? [c.card as Node] : [];
  return Array.isArray(c.cards) ? (c.cards as Node[]) : [];
}

/** What the editor of the card, and of each card it holds, says against it: nothing when each is accepted. */
export function editorRefuses(c: Node, at = String(c.type)): string[] {
  const struct = typeof c.type === 'string' ? CARDS[c.type] : undefined;
  const own = struct ? struct(c, at) : [`${at}: no editor models a card of type ${String(c.type)}`];
  return [...own, ...innerCards(c).flatMap((inner, i) => editorRefuses(inner, `${at}>${i}:${String(inner.type)}`))];
}

// --- what a press does ---

const domainOf = (entity: unknown) => (typeof entity === 'string' ? entity.split('.')[0]! : '');
/** common/const.ts DOMAINS_TOGGLE: the domains whose button row's tap toggles by default. */
const TOGGLES = new Set(['fan', 'input_boolean', 'light', 'switch', 'group', 'automation', 'humidifier', 'valve']);

/** What an action does to an entity: `press` when it presses a button (a toggle of a button presses it). */
export function actionDoes(a: Node | undefined, entity: string): string {
  const kind = a?.action ?? 'none';
  if (kind === 'toggle') return ['button', 'input_button'].includes(domainOf(entity)) ? 'press' : 'toggle';
  if (kind === 'perform-action' || kind === 'call-service') {
    const target = [a?.target, a?.data, a?.service_data].map((t) => (t as Node | undefined)?.entity_id).flat();
    return (a?.perform_action ?? a?.service) === `${domainOf(entity)}.press` && target.includes(entity) ? 'press' : 'perform-action';
  }
  return String(kind);
}

/** What pressing a row of an entities card does: an entity row of a button has a Press button; a button row does its tap. */
export function rowDoes(r: Node): string {
  if (r.type === undefined) return domainOf(r.entity) === 'button' ? 'press' : 'more-info';
  if (r.type !== 'button') return 'none';
  const fallback = { action: TOGGLES.has(domainOf(r.entity)) ? 'toggle' : 'more-info' };
  return actionDoes((r.tap_action as Node | undefined) ?? fallback, String(r.entity));
}

/** What tapping a tile's icon does: a button's toggles (presses) unless told (hui-tile-card.ts). */
export function tileIconDoes(t: Node): string {
  const toggles = TOGGLES.has(domainOf(t.entity)) || ['button', 'input_button', 'scene'].includes(domainOf(t.entity));
  return actionDoes((t.icon_tap_action as Node | undefined) ?? { action: toggles ? 'toggle' : 'none' }, String(t.entity));
}

/** Every place a card offers a button entity to press, with what pressing it does. */
export function buttonsOffered(c: Node): { entity: string; does: string }[] {
  const own =
    c.type === 'entities'
      ? (c.entities as Node[]).filter((r) => domainOf(r.entity) === 'button').map((r) => ({ entity: String(r.entity), does: rowDoes(r) }))
      : c.type === 'tile' && domainOf(c.entity) === 'button'
        ? [{ entity: String(c.entity), does: tileIconDoes(c) }]
        : [];
  return [...own, ...innerCards(c).flatMap(buttonsOffered)];
}

// --- when a card is shown, and when it is an empty box ---

export interface HaState {
  state: string;
  attributes?: Record<string, unknown>;
}
export type HaStates = Readonly<Record<string, HaState>>;

/** A condition as common/validate-condition.ts checks it: a missing entity or attribute reads `unknown`. */
export function conditionHolds(condition: Node, states: HaStates): boolean {
  const kind = condition.condition ?? 'state';
  const inner = condition.conditions as Node[] | undefined;
  // Without a list, and, or and not hold.
  if (['and', 'or', 'not'].includes(String(kind)) && inner === undefined) return true;
  if (kind === 'and') return inner!.every((c) => conditionHolds(c, states));
  if (kind === 'or') return inner!.some((c) => conditionHolds(c, states));
  if (kind === 'not') return !inner!.every((c) => conditionHolds(c, states));
  if (kind !== 'state') throw new Error(`condition ${String(kind)} not modelled`);
  const held = states[condition.entity as string];
  const attribute = condition.attribute as string | undefined;
  const value = attribute === undefined ? held?.state : held?.attributes?.[attribute];
  const state = held === undefined || value === null || value === undefined ? 'unknown' : String(value);
  const named = (v: unknown) => (Array.isArray(v) ? v.map(String) : [String(v)]);
  if (condition.state !== undefined) return named(condition.state).includes(state);
  if (condition.state_not !== undefined) return !named(condition.state_not).includes(state);
  return false;
}

/** Whether a card is shown: its `visibility` holds and, for a conditional card, its conditions. */
export function cardShown(c: Node, states: HaStates): boolean {
  const all = [...((c.visibility ?? []) as Node[]), ...(c.type === 'conditional' ? ((c.conditions ?? []) as Node[]) : [])];
  return all.every((condition) => conditionHolds(condition, states));
}

/** The cards a parent sees, depth first (a hidden card's inner cards none), each with its path. */
export function shownCards(c: Node, states: HaStates, at = String(c.type)): { card: Node; at: string }[] {
  if (!cardShown(c, states)) return [];
  return [{ card: c, at }, ...innerCards(c).flatMap((inner, i) => shownCards(inner, states, `${at}>${i}:${String(inner.type)}`))];
}

/**
 * Whether a shown card is an empty box: a framed markdown card whose content renders to nothing (hui-markdown-card
 * draws its ha-card whatever the text; `show_empty`, which would hide it, is refused by its editor), an entities card
 * without rows. `rendered` is the markdown card's content as Home Assistant renders it.
 */
export function emptyBox(c: Node, rendered: (content: string) => string): boolean {
  if (c.type === 'markdown') return c.text_only !== true && rendered(String(c.content)).trim() === '';
  return c.type === 'entities' && (c.entities as unknown[]).length === 0;
}
