// A changed base_topic (or discovery prefix): at start, what the bridge left retained under the one it last
// published under (kept in the session, session.ts) is cleared, as a removed child's is: every retained
// topic under the old base, and the old devices' discovery configs (the children's, found by their
// via_device, and the bridge's own), so Home Assistant drops them. Nothing else on the broker is touched,
// nor is anything while a bridge is online under the old base (its bridge/state says so).
import type { MqttClient } from 'mqtt';
import { BRIDGE_DEVICE, Topics } from '../ha/topics.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { errorText } from '../util/text.js';
import { isDeviceConfig, readOwnDeviceConfig, readRetained } from './retained.js';
import type { MqttSession } from './session.js';

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
    const found = await readRetained(client, [...(moved ? [`${old.base}/#`] : []), old.deviceConfigFilter], waitMs, clock, (topic, payload) => {
      if (topic === bridgeConfig || underOld(topic)) return true;
      return isDeviceConfig(old, topic, payload) && readOwnDeviceConfig(old, topic, payload) !== undefined;
    });
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
