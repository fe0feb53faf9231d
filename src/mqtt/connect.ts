// Opening the bridge's connection to the broker: the client with its retained last will and its
// reconnect policy, the watch that logs an outage and reconnects, and once connected the topics the
// bridge listens on (a subscription the broker refused is reported as such).
import type { IPublishPacket, ISubscriptionMap, MqttClient } from 'mqtt';
import type { Topics } from '../ha/topics.js';
import { createClient, DEFAULT_RECONNECT, redactUrl, watchConnection, type ReconnectPolicy } from './client.js';
import type { BridgeOptions } from './bridge-options.js';
import type { MqttSession } from './session.js';

/** What the bridge hears of its client. */
export interface ClientEvents {
  stopped(): boolean;
  /**
   * Connected again after an outage or a broker's restart (not the first connect, which start() awaits);
   * `sessionKept`: the broker kept the session, so mqtt.js subscribes to nothing again.
   */
  reconnected(sessionKept: boolean): void;
  /** The connection closed: whoever waits for the broker's answers hears it at once. */
  closed(): void;
  message(topic: string, payload: Buffer, packet: IPublishPacket): void;
}

/** The bridge's client, connecting (or retrying) from now on; `url` is the broker's without its password. */
export function openClient(
  options: BridgeOptions & { session?: MqttSession | undefined },
  topics: Topics,
  on: ClientEvents,
): { client: MqttClient; url: string } {
  const url = redactUrl(options.mqtt.url);
  const policy: ReconnectPolicy = {
    firstMs: options.reconnectPeriodMs ?? DEFAULT_RECONNECT.firstMs,
    maxMs: options.reconnectMaxMs ?? DEFAULT_RECONNECT.maxMs,
  };
  const client = createClient({
    mqtt: options.mqtt,
    will: { topic: topics.bridgeState, payload: 'offline' },
    reconnectPeriodMs: policy.firstMs,
    protocolVersion: options.protocolVersion,
    session: options.session,
  });
  options.session?.attach(client);
  watchConnection(client, {
    url,
    from: options.brokerFrom,
    policy,
    log: options.log,
    stopped: () => on.stopped(),
    onConnect: (sessionKept) => on.reconnected(sessionKept),
  });
  // mqtt.js keeps the messages handed to it while the broker is away.
  client.on('close', () => on.closed());
  client.on('message', (topic, payload, packet) => on.message(topic, payload, packet));
  return { client, url };
}

/**
 * Subscribes to Home Assistant's status, the children's commands and the bridge's requests. Retain as
 * published (MQTT 5; mqtt.js leaves it out under 3.1.1): a command published retained keeps its flag
 * when delivered live, so the inbox can refuse it. Not for Home Assistant's status, whose birth counts
 * when it is live, whether or not Home Assistant retains it.
 */
export async function subscribeBridge(
  client: MqttClient,
  topics: Topics,
  refused: (topic: string, code: number) => void,
  again = false,
): Promise<void> {
  const filters: ISubscriptionMap = {
    [topics.haStatus]: { qos: 0 },
    [topics.commandSetFilter]: { qos: 0, rap: true },
    [topics.bridgeRequestFilter]: { qos: 0, rap: true },
  };
  // Again (a kept session's subscriptions stand): mqtt.js sends a SUBSCRIBE only when told it is meant.
  if (again) filters.resubscribe = true;
  const granted = await client.subscribeAsync(filters);
  // A grant of 128 or more is the broker's refusal (its ACL): the buttons of that topic would do nothing.
  for (const grant of granted) if (grant.qos >= 0x80) refused(grant.topic, grant.qos);
}
