// When the demo ran against someone's own broker: empties every retained topic it left there (the
// discovery configs and the states), so no demo child stays behind in a real Home Assistant.
import { randomBytes } from 'node:crypto';
import { connectAsync } from 'mqtt';
import { systemClock } from '../../util/clock.js';

export interface ClearOptions {
  url: string;
  /** The demo's own base topic: everything retained under it is the demo's. */
  base: string;
  discoveryPrefix: string;
}

/** How long to wait for the broker's retained messages before clearing what has come. */
const RETAINED_WAIT_MS = 5_000;

/** Clears the demo's retained topics, discovery configs first (Home Assistant then drops the devices). */
export async function clearDemoRetained(options: ClearOptions): Promise<number> {
  const client = await connectAsync(options.url, { clientId: `dziennik2mqtt-demo-clear-${randomBytes(4).toString('hex')}`, reconnectPeriod: 0 });
  try {
    const configPrefix = `${options.discoveryPrefix}/device/${options.base}_`;
    const marker = `${options.base}/demo-marker/${randomBytes(4).toString('hex')}`;
    const configs = new Set<string>();
    const states = new Set<string>();
    let markerSeen: () => void = () => undefined;
    const caughtUp = new Promise<void>((resolve) => (markerSeen = resolve));
    client.on('message', (topic, payload, packet) => {
      if (topic === marker) markerSeen();
      else if (!packet.retain || payload.length === 0) return;
      else if (topic.startsWith(configPrefix) && topic.endsWith('/config')) configs.add(topic);
      else if (topic.startsWith(`${options.base}/`)) states.add(topic);
    });
    await client.subscribeAsync([`${options.base}/#`, `${options.discoveryPrefix}/device/+/config`], { qos: 1 });
    // The broker sends the retained messages of a subscription before anything published after it,
    // so once our own marker comes back, every retained message has arrived.
    await client.publishAsync(marker, 'done', { qos: 1 });
    await Promise.race([caughtUp, systemClock.sleep(RETAINED_WAIT_MS)]);
    await client.unsubscribeAsync([`${options.base}/#`, `${options.discoveryPrefix}/device/+/config`]);
    for (const topic of [...configs, ...states]) await client.publishAsync(topic, '', { qos: 1, retain: true });
    return configs.size + states.size;
  } finally {
    await client.endAsync().catch(() => undefined);
  }
}
