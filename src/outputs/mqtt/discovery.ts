// Home Assistant device-based discovery payloads, as a pure function of the entity catalogue, the child
// and the topic settings: one retained config per child and one for the bridge itself.
import { oneLine } from '../../util/text.js';
import { entityId, type ChildDevice, type EntityDef } from '../../features/kit/entities.js';
import { FALLBACK_LANGUAGE, type Language } from '../../config/language.js';
import { BRIDGE_DEVICE, Topics } from './topics.js';
import { LOG_LEVELS } from '../../util/log.js';

const ORIGIN_NAME = 'dziennik2mqtt';

export interface DiscoveryContext {
  baseTopic: string;
  discoveryPrefix: string;
  version: string;
  /** Shown by Home Assistant as the origin's support link when set. */
  supportUrl?: string;
  /** The language of entity names (config `language`); English when not given. Ids never follow it. */
  language?: Language;
  /**
   * Whether the bridge's device has its update entity (interface 18.3); false in the app, whose update is the
   * Supervisor's: the component is then withdrawn (one left from a Docker install on the same broker goes).
   */
  update?: boolean;
}

export interface DiscoveryMessage {
  topic: string;
  payload: Record<string, unknown>;
}

/**
 * The child's device config. `removed` entities are kept as components reduced to their platform, which
 * is how Home Assistant is told to remove one component of a device (omitting it removes nothing).
 */
export function childDiscovery(child: ChildDevice, ctx: DiscoveryContext, removed: readonly EntityDef[] = []): DiscoveryMessage {
  const topics = new Topics(ctx.baseTopic, ctx.discoveryPrefix);
  const cmps: Record<string, Record<string, unknown>> = {};
  for (const entity of removed) cmps[entity.key] = { p: entity.platform };
  const language = ctx.language ?? FALLBACK_LANGUAGE;
  for (const entity of child.entities) cmps[entity.key] = component(entity, child.id, topics, language);
  return {
    topic: topics.deviceConfig(child.id),
    payload: {
      dev: omitUndefined({
        identifiers: [topics.deviceId(child.id)],
        // Names from the portal (or a file in data_dir) are one line on the way out too.
        name: oneLine(child.name),
        manufacturer: child.school === undefined ? ORIGIN_NAME : oneLine(child.school),
        model: child.model === undefined ? undefined : oneLine(child.model),
        sw_version: ctx.version,
        via_device: topics.deviceId(BRIDGE_DEVICE),
      }),
      o: origin(ctx),
      cmps,
    },
  };
}

/** Names of the bridge device (its model) and of its entities, in each language. */
const BRIDGE_NAMES = {
  model: { en: 'Bridge', pl: 'Mostek', uk: 'Міст' },
  connection_state: { en: 'Connection', pl: 'Połączenie', uk: "З'єднання" },
  version: { en: 'Version', pl: 'Wersja', uk: 'Версія' },
  log_level: { en: 'Log level', pl: 'Poziom logowania', uk: 'Рівень журналювання' },
  uptime: { en: 'Uptime', pl: 'Czas działania', uk: 'Час роботи' },
  memory: { en: 'Memory', pl: 'Pamięć', uk: "Пам'ять" },
  problem: { en: 'Problem', pl: 'Problem', uk: 'Проблема' },
  update: { en: 'Update', pl: 'Aktualizacja', uk: 'Оновлення' },
  summary_now: { en: 'Weekly summary now', pl: 'Podsumowanie tygodnia teraz', uk: 'Підсумок тижня зараз' },
  summary_requested: { en: 'Weekly summary asked for', pl: 'Prośba o podsumowanie tygodnia', uk: 'Запит на підсумок тижня' },
} as const;

/**
 * The bridge's own device: its connection to the broker (`connection_state`, the last will's
 * online/offline), its log level (a select that sends the `options` bridge request), its version
 * (with bridge/info as attributes), and from bridge/health its uptime (the start, a timestamp: one
 * state per start) and its memory (RSS; a new state every pass, so off until a user turns it on); its
 * `problem` (interface 12.3) for what no child's device can carry (app/bridge-problem.ts); its `update` (18.3), the
 * running version and the newest release as bridge/update says them (app/release-check.ts).
 */
export function bridgeDiscovery(ctx: DiscoveryContext): DiscoveryMessage {
  const parts = bridgeEntities(ctx);
  const { topics, deviceId, language, ids, entity, healthSensor } = parts;
  return {
    topic: topics.deviceConfig(BRIDGE_DEVICE),
    payload: {
      dev: {
        identifiers: [deviceId],
        name: 'dziennik2mqtt',
        manufacturer: ORIGIN_NAME,
        model: BRIDGE_NAMES.model[language],
        sw_version: ctx.version,
      },
      o: origin(ctx),
      cmps: {
        // No availability: when the bridge is offline this must read "disconnected", not "unavailable".
        connection_state: entity('connection_state', 'binary_sensor', ids.connection, {
          device_class: 'connectivity',
          entity_category: 'diagnostic',
          state_topic: topics.bridgeState,
          payload_on: 'online',
          payload_off: 'offline',
        }),
        // The state is the level bridge/info reports, so it shows what the bridge uses, not what was asked.
        log_level: entity('log_level', 'select', ids.logLevel, {
          icon: 'mdi:text-box-search-outline',
          entity_category: 'config',
          state_topic: topics.bridgeInfo,
          value_template: '{{ value_json.log_level }}',
          command_topic: topics.bridgeRequest('options'),
          command_template: '{"log_level": "{{ value }}"}',
          options: [...LOG_LEVELS],
        }),
        version: entity('version', 'sensor', ids.version, {
          icon: 'mdi:information-outline',
          entity_category: 'diagnostic',
          state_topic: topics.bridgeInfo,
          value_template: '{{ value_json.version }}',
          json_attributes_topic: topics.bridgeInfo,
        }),
        // As a child's problem: readable while the bridge is online, its reason and advice as attributes.
        problem: entity('problem', 'binary_sensor', ids.problem, {
          device_class: 'problem',
          entity_category: 'diagnostic',
          state_topic: topics.bridgeProblem,
          json_attributes_topic: `${topics.bridgeProblem}/attributes`,
          payload_on: 'ON',
          payload_off: 'OFF',
        }),
        ...summaryComponents(parts),
        uptime: healthSensor('uptime', 'started_at', { device_class: 'timestamp' }),
        memory: healthSensor('memory', 'memory_mb', {
          icon: 'mdi:memory',
          device_class: 'data_size',
          unit_of_measurement: 'MB',
          state_class: 'measurement',
          suggested_display_precision: 1,
          enabled_by_default: false,
        }),
        update: updateComponent(ctx, parts),
      },
    },
  };
}

/** The weekly summary on demand (interface 18.2): the button asks the bridge, which fires the event the AI summary blueprint answers. */
function summaryComponents({ topics, ids, entity }: ReturnType<typeof bridgeEntities>): Record<string, unknown> {
  return {
    summary_now: entity('summary_now', 'button', ids.summaryNow, {
      icon: 'mdi:text-box-check-outline',
      command_topic: topics.bridgeRequest('summary'),
      payload_press: '{}',
    }),
    summary_requested: entity('summary_requested', 'event', ids.summaryRequested, {
      icon: 'mdi:text-box-check-outline',
      state_topic: topics.bridgeEvent('summary_requested'),
      event_types: ['summary_requested'],
    }),
  };
}

/** Home Assistant compares the two versions, offers the newer one and links its release notes; none in the app (the Supervisor's is the one). */
function updateComponent(ctx: DiscoveryContext, { topics, ids, entity }: ReturnType<typeof bridgeEntities>): Record<string, unknown> {
  return ctx.update === false
    ? { p: 'update' }
    : entity('update', 'update', ids.update, {
        title: ORIGIN_NAME,
        entity_category: 'config',
        state_topic: topics.bridgeUpdate,
      });
}

/** How each of the bridge's entities is declared: its platform, ids and name, then what it reads. */
function bridgeEntities(ctx: DiscoveryContext) {
  const topics = new Topics(ctx.baseTopic, ctx.discoveryPrefix);
  const deviceId = topics.deviceId(BRIDGE_DEVICE);
  const language = ctx.language ?? FALLBACK_LANGUAGE;
  const ids = bridgeEntityIds(ctx.baseTopic);
  // Each readable while the bridge is online, but the connection state and the version, which read while it is offline too.
  const entity = (key: Exclude<keyof typeof BRIDGE_NAMES, 'model'>, p: string, id: string, rest: Record<string, unknown>) => ({
    p,
    unique_id: `${deviceId}_${key}`,
    default_entity_id: id,
    name: BRIDGE_NAMES[key][language],
    ...(key === 'connection_state' || key === 'version' ? {} : { availability: [{ topic: topics.bridgeState }] }),
    ...rest,
  });
  // A diagnostic sensor of the bridge that reads one field of bridge/health.
  const healthSensor = (key: 'uptime' | 'memory', field: string, kind: Record<string, unknown>): Record<string, unknown> =>
    entity(key, 'sensor', ids[key], {
      ...kind,
      entity_category: 'diagnostic',
      state_topic: topics.bridgeHealth,
      value_template: `{{ value_json.${field} }}`,
    });
  return { topics, deviceId, language, ids, entity, healthSensor };
}

/** The entity ids of the bridge device's entities (its discovery sets them; the dashboard's Bridge view shows them). */
export function bridgeEntityIds(
  baseTopic: string,
): Record<'connection' | 'logLevel' | 'version' | 'uptime' | 'memory' | 'problem' | 'update' | 'summaryNow' | 'summaryRequested', string> {
  // Entity ids allow only [a-z0-9_]; the base topic may also hold capitals and '-'.
  const prefix = `${slug(baseTopic)}_${BRIDGE_DEVICE}`;
  return {
    // One per bridge, named for the family's base topic: button.dziennik2mqtt_summary_now (interface 18.2).
    summaryNow: `button.${slug(baseTopic)}_summary_now`,
    summaryRequested: `event.${slug(baseTopic)}_summary_requested`,
    connection: `binary_sensor.${prefix}_connection_state`,
    logLevel: `select.${prefix}_log_level`,
    version: `sensor.${prefix}_version`,
    uptime: `sensor.${prefix}_uptime`,
    memory: `sensor.${prefix}_memory`,
    problem: `binary_sensor.${prefix}_problem`,
    // The bridge's own software, named as the bridge is: update.dziennik2mqtt.
    update: `update.${slug(baseTopic)}`,
  };
}

function component(entity: EntityDef, child: string, topics: Topics, language: Language): Record<string, unknown> {
  const common = omitUndefined({
    p: entity.platform,
    unique_id: `${topics.deviceId(child)}_${entity.key}`,
    // The id comes from the key, so it stays English and stable when the language changes.
    default_entity_id: entityId(child, entity),
    name: entity.name[language],
    icon: entity.icon,
    device_class: entity.deviceClass,
    entity_category: entity.entityCategory,
    enabled_by_default: entity.enabledByDefault,
    // The problem and last-update entities stay available while the child is offline, so that the
    // reason (a wrong password, a captcha) can be seen exactly when it matters.
    availability: entity.bridgeAvailabilityOnly
      ? [{ topic: topics.bridgeState }]
      : [{ topic: topics.bridgeState }, { topic: topics.availability(child) }],
    availability_mode: 'all',
  });
  switch (entity.platform) {
    case 'sensor':
    case 'binary_sensor':
      // "None" on the state topic already means unknown to Home Assistant's MQTT sensor, so no template.
      return omitUndefined({
        ...common,
        state_topic: topics.state(child, entity.key),
        json_attributes_topic: entity.attributes ? topics.attributes(child, entity.key) : undefined,
        ...(entity.platform === 'sensor'
          ? { state_class: entity.stateClass, unit_of_measurement: entity.unit }
          : { payload_on: 'ON', payload_off: 'OFF' }),
      });
    case 'button':
      if (!entity.command) throw new Error(`button ${entity.key} has no command`);
      return {
        ...common,
        command_topic: topics.commandSet(child, entity.command.key),
        payload_press: entity.command.payload,
      };
    case 'notify':
      if (!entity.input) throw new Error(`notify ${entity.key} has no input`);
      // Home Assistant renders command_template with the notify call's message as `value`.
      return omitUndefined({ ...common, command_topic: topics.commandSet(child, entity.input.key), command_template: entity.input.template });
    case 'select':
      if (!entity.input || !entity.options) throw new Error(`select ${entity.key} has no input or options`);
      return {
        ...common,
        state_topic: topics.state(child, entity.key),
        command_topic: topics.commandSet(child, entity.input.key),
        options: [...entity.options],
      };
    case 'text':
      if (!entity.input) throw new Error(`text ${entity.key} has no input`);
      return omitUndefined({
        ...common,
        state_topic: topics.state(child, entity.key),
        command_topic: topics.commandSet(child, entity.input.key),
        max: entity.maxLength,
        mode: 'text',
      });
    case 'event':
      // QoS 1 so the broker keeps it at least once on the way to Home Assistant as well.
      return {
        ...common,
        state_topic: topics.event(child, entity.key),
        event_types: entity.eventTypes ?? [entity.key],
        qos: 1,
      };
  }
}

function origin(ctx: DiscoveryContext): Record<string, unknown> {
  return omitUndefined({ name: ORIGIN_NAME, sw_version: ctx.version, support_url: ctx.supportUrl });
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9_]+/g, '_');
}

function omitUndefined(obj: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined));
}
