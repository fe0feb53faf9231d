// What this bridge left retained on the broker in an earlier run: its device configs, so that start() can
// remove children no longer configured and components a child no longer has; and, after a changed
// base_topic (or discovery prefix), what it left under the one it last published under (kept in the
// session, session.ts), cleared as a removed child's is: every retained topic under the old base, and the
// old devices' discovery configs (the children's, found by their via_device, and the bridge's own), so
// Home Assistant drops them. Nothing else on the broker is touched, nor is anything while a bridge is
// online under the old base (its bridge/state says so).
import type { IPublishPacket, MqttClient } from 'mqtt';
import { STATEFUL_PLATFORMS, type Platform } from '../../features/kit/entities.js';
import { BRIDGE_DEVICE, Topics } from './topics.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import { errorText, parsedJson } from '../../util/text.js';
import { MAX_DEVICE_CONFIG_BYTES } from './sizes.js';
import type { MqttSession } from '../../once/session.js';

export interface RetainedComponent {
  platform: Platform;
  /** Retained state and attribute topics of this component (only ever under <base>/<child>/). */
  retainedTopics: string[];
}

export interface RetainedDevice {
  child: string;
  /** Components still live in the config (those reduced to their platform are already removed). */
  components: Map<string, RetainedComponent>;
}

const PLATFORMS: readonly string[] = ['sensor', 'binary_sensor', 'button', 'event', 'notify', 'select', 'text'];

/** Subscribes to every device config for waitMs and returns ours. */
export async function readRetainedDevices(client: MqttClient, topics: Topics, waitMs: number, clock: Clock): Promise<RetainedDevice[]> {
  // A config too large to be ours is not kept: a 30 MB one must not stay in memory for the scan.
  const ours = (topic: string, payload: Buffer): boolean =>
    payload.length <= MAX_DEVICE_CONFIG_BYTES && topics.parseDeviceConfig(topic) !== undefined;
  const found = await readRetained(client, [topics.deviceConfigFilter], waitMs, clock, ours);
  return [...found].flatMap(([topic, payload]) => readOwnDeviceConfig(topics, topic, payload) ?? []);
}

/**
 * The retained messages on some filters that `keep` takes, read for waitMs after subscribing: they arrive
 * right after the subscription, and the wait is how long we give them, as MQTT has no "end of retained" marker.
 */
export async function readRetained(
  client: MqttClient,
  filters: string[],
  waitMs: number,
  clock: Clock,
  keep: (topic: string, payload: Buffer) => boolean,
): Promise<Map<string, Buffer>> {
  const found = new Map<string, Buffer>();
  const collect = (topic: string, payload: Buffer, packet: IPublishPacket): void => {
    if (packet.retain && payload.length > 0 && keep(topic, payload)) found.set(topic, payload);
  };
  client.on('message', collect);
  try {
    await client.subscribeAsync(filters, { qos: 0 });
    await clock.sleep(waitMs);
    await client.unsubscribeAsync(filters);
  } finally {
    client.off('message', collect);
  }
  return found;
}

/**
 * Parses one retained device config; undefined unless it is a child device of this bridge: its topic is
 * `<prefix>/device/<base>_<child>/config` and its device names our bridge as `via_device`. The second
 * check keeps a bridge with base `d` away from the devices of a bridge with base `d_x`.
 */
export function readOwnDeviceConfig(topics: Topics, topic: string, payload: Buffer): RetainedDevice | undefined {
  const child = topics.parseDeviceConfig(topic);
  if (child === undefined || payload.length === 0 || payload.length > MAX_DEVICE_CONFIG_BYTES) return undefined;
  const json = parsedJson(payload.toString('utf8'));
  if (!isObject(json)) return undefined;
  const dev = json.dev ?? json.device;
  if (!isObject(dev) || dev.via_device !== topics.deviceId(BRIDGE_DEVICE)) return undefined;

  const components = new Map<string, RetainedComponent>();
  const cmps = json.cmps ?? json.components;
  if (isObject(cmps)) {
    const own = `${topics.base}/${child}/`;
    for (const [key, value] of Object.entries(cmps)) {
      if (!isObject(value)) continue;
      const platform = value.p ?? value.platform;
      if (typeof platform !== 'string' || !PLATFORMS.includes(platform) || Object.keys(value).length <= 1) continue;
      // Event and command topics are never retained, so only state-like topics are cleared.
      const retainedTopics = STATEFUL_PLATFORMS.includes(platform as Platform)
        ? [value.state_topic, value.json_attributes_topic].filter((t): t is string => typeof t === 'string' && t.startsWith(own))
        : [];
      components.set(key, { platform: platform as Platform, retainedTopics });
    }
  }
  return { child, components };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Clears what the bridge left retained under the base topic and prefix it last published under, when they changed. */
export async function clearMovedBase(
  client: MqttClient,
  session: MqttSession,
  topics: Topics,
  waitMs: number,
  clock: Clock,
  log: Logger,
): Promise<void> {
  const before = session.published;
  if (before?.base === topics.base && before.prefix === topics.discoveryPrefix) return;
  if (before) {
    const old = new Topics(before.base, before.prefix);
    const moved = old.base !== topics.base;
    // Under the old base, not under the new one (a base moved down into the old one keeps what it has).
    const underOld = (topic: string): boolean => moved && topic.startsWith(`${old.base}/`) && !topic.startsWith(`${topics.base}/`);
    const bridgeConfig = old.deviceConfig(BRIDGE_DEVICE);
    const keep = (topic: string, payload: Buffer): boolean =>
      topic === bridgeConfig || underOld(topic) || readOwnDeviceConfig(old, topic, payload) !== undefined;
    const found = await readRetained(client, [...(moved ? [`${old.base}/#`] : []), old.deviceConfigFilter], waitMs, clock, keep);
    if (moved && found.get(old.bridgeState)?.toString() === 'online') {
      log.warn({ base_topic: old.base }, 'a bridge is online under the base topic this one published under before: what it holds stays');
    } else {
      log.info(
        { from: `${old.base} ${old.discoveryPrefix}`, to: `${topics.base} ${topics.discoveryPrefix}`, topics: found.size },
        'base topic or discovery prefix changed: clearing what the old one left retained',
      );
      const clear = (topic: string): Promise<unknown> =>
        client
          .publishAsync(topic, '', { qos: 1, retain: true })
          .catch((err: unknown) => log.warn({ topic, err: errorText(err) }, 'could not clear a topic of the old base topic'));
      // The configs first, so Home Assistant drops the entities before their states are emptied.
      await Promise.all([...found.keys()].sort((a, b) => Number(underOld(a)) - Number(underOld(b))).map(clear));
    }
  }
  await session
    .publishesUnder(topics.base, topics.discoveryPrefix)
    .catch((err: unknown) => log.warn({ err: errorText(err) }, 'cannot write the MQTT session in data_dir'));
}
