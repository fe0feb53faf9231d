// `check`'s broker step (interface 12.3): connects with the config's credentials as the bridge will,
// publishes to `<base>/bridge/check` (not retained, no last will: a running bridge's state is left
// alone) and subscribes to the command and request topics the bridge listens to. A refusal anywhere is
// a failure, named by the broker's address (without credentials) and the advice in the config's language.
import { connect, type MqttClient } from 'mqtt';
import { brokerOptions, connectFault, redactUrl } from '../../outputs/mqtt/client.js';
import { systemClock, withDeadline } from '../../util/clock.js';
import { Topics } from '../../outputs/mqtt/topics.js';
import { CHECK_TEXT, type BrokerFault } from '../../i18n/check-text.js';
import type { Config } from '../../config/schema.js';

/** How long the broker has to accept the connection and answer (a host that drops packets never refuses). */
const BROKER_TIMEOUT_MS = 10_000;

class BrokerFailure extends Error {
  constructor(
    readonly fault: BrokerFault,
    /** The topic refused, or the TLS library's words on a certificate. */
    readonly detail?: string,
  ) {
    super(fault);
  }
}

/** Whether the broker takes the config's user where the bridge publishes and subscribes; its line written to `out`. */
export async function checkBroker(config: Config, out: { write(text: string): unknown }, timeoutMs = BROKER_TIMEOUT_MS): Promise<boolean> {
  const say = CHECK_TEXT[config.language].broker;
  const url = redactUrl(config.mqtt.url);
  const topics = new Topics(config.mqtt.base_topic, config.mqtt.discovery_prefix);
  try {
    const client = await connected(config, 5, timeoutMs).catch((error: unknown) => {
      if (error instanceof BrokerFailure && error.fault === 'old_version') return connected(config, 4, timeoutMs);
      throw error;
    });
    try {
      const late = (): BrokerFailure => new BrokerFailure('no_answer');
      await withDeadline(systemClock, timeoutMs, late, () => proveTopics(client, topics));
    } finally {
      client.end(true);
    }
    out.write(`OK   ${url}: ${say.ok(topics.bridgeCheck, [topics.commandSetFilter, topics.bridgeRequestFilter].join(', '))}\n`);
    return true;
  } catch (error) {
    const failure = error instanceof BrokerFailure ? error : new BrokerFailure('other');
    const [what, advice] = say.help(config.brokerFrom ?? 'file')[failure.fault];
    out.write(`FAIL ${url}: ${what}${failure.detail === undefined ? '' : ` (${failure.detail})`}: ${advice}\n`);
    return false;
  }
}

/** Publishes the proof (QoS 1: under MQTT 5 the broker's refusal comes back) and subscribes where the bridge will. */
async function proveTopics(client: MqttClient, topics: Topics): Promise<void> {
  const proof = JSON.stringify({ check: new Date().toISOString() });
  await client.publishAsync(topics.bridgeCheck, proof, { qos: 1, retain: false }).catch((error: unknown) => {
    throw new BrokerFailure(refusedCode(error) ? 'topic_refused' : 'no_answer', topics.bridgeCheck);
  });
  const granted = await client.subscribeAsync({ [topics.commandSetFilter]: { qos: 0 }, [topics.bridgeRequestFilter]: { qos: 0 } });
  const refused = granted.find((grant) => grant.qos >= 0x80);
  if (refused) throw new BrokerFailure('topic_refused', refused.topic);
}

/** One connection attempt (no reconnect), resolved once the broker accepts it. */
function connected(config: Config, protocolVersion: 4 | 5, timeoutMs: number): Promise<MqttClient> {
  const options = brokerOptions(config.mqtt, 'dziennik2mqtt_check', { protocolVersion, reconnectPeriod: 0, connectTimeout: timeoutMs });
  return new Promise((resolve, reject) => {
    const client = connect(config.mqtt.url, options);
    const fail = (fault: BrokerFault, detail?: string): void => {
      client.end(true);
      reject(new BrokerFailure(fault, detail));
    };
    client.once('connect', () => resolve(client));
    // Kept after the connect as well: an 'error' event with no listener would end the process.
    client.on('error', (error: unknown) => {
      const fault = connectFault(error);
      fail(fault, fault.startsWith('cert_') ? (error as Error).message : undefined);
    });
    // No error at all (a dropped connection, a timeout): nobody accepted it.
    client.once('close', () => fail('no_answer'));
  });
}

function refusedCode(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' && code >= 0x80;
}
