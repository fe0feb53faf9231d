// Reads the device configs this bridge left retained on the broker in an earlier run, so that start()
// can remove children no longer configured and components a child no longer has.
import type { IPublishPacket, MqttClient } from 'mqtt';
import { STATEFUL_PLATFORMS, type Platform } from '../feature-kit/entities.js';
import { BRIDGE_DEVICE, type Topics } from '../ha/topics.js';
import type { Clock } from '../util/clock.js';
import { MAX_DEVICE_CONFIG_BYTES } from './sizes.js';

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
  const found = await readRetained(client, [topics.deviceConfigFilter], waitMs, clock, (topic, payload) => isDeviceConfig(topics, topic, payload));
  return [...found].flatMap(([topic, payload]) => readOwnDeviceConfig(topics, topic, payload) ?? []);
}

/** A retained message at one of our device config topics, of a size ours can have. */
export function isDeviceConfig(topics: Topics, topic: string, payload: Buffer): boolean {
  return payload.length <= MAX_DEVICE_CONFIG_BYTES && topics.parseDeviceConfig(topic) !== undefined;
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
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    return undefined;
  }
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
