// The bridge's connection to the broker. With a lease, it first waits, on a connection without a last will,
// until the base topic is this bridge's (lease/claim.ts); then it keeps one client with a retained last will
// and, with a lease, the session kept in data_dir (once/session.ts). It subscribes to what the bridge hears,
// and after a reconnect subscribes again where the broker kept the session, renews a lapsed claim first and
// only then lets everything retained go again. When another connection takes its client id it stops acting
// and says `offline` once on a connection of its own; a stop gives up the claim, says `offline` and
// disconnects, each step within STOP_TIMEOUT_MS. What a message heard is, the sink decides (sink.ts).
import type { IClientPublishOptions, IPublishPacket, ISubscriptionMap, MqttClient } from 'mqtt';
import type { Topics } from './topics.js';
import { withDeadline, type Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import { errorText } from '../../util/text.js';
import { createClient, DEFAULT_RECONNECT, redactUrl, waitForConnect, watchConnection, watchTakeovers, type ReconnectPolicy } from './client.js';
import { BaseTopicClaim, type ClaimOptions } from '../../lease/claim.js';
import { describeHolder, type Lease, type LeaseRecord } from '../../lease/lease.js';
import type { MqttSession } from '../../once/session.js';
import type { MqttConfig } from '../../config/schema.js';
import type { BrokerOrigin } from '../../config/broker-origin.js';
import { brokerRefusal, type Refusal } from './refusal.js';

export const RETAINED: IClientPublishOptions = { qos: 1, retain: true };
/** How long each step of a stop may take, and an answer to delivered() may be waited for. */
export const STOP_TIMEOUT_MS = 5_000;

export interface ConnectionOptions {
  mqtt: MqttConfig;
  /** Where `mqtt.url` came from: the log's advice when the broker is away names that place. */
  brokerFrom?: BrokerOrigin;
  log: Logger;
  /** Reconnect delays: the first attempt's (default 5 s), doubling per failed attempt up to the longest (default 60 s). */
  reconnect?: Partial<ReconnectPolicy>;
  /** The broker refused a topic (a subscription or a publish) for a reason the family must fix: the bridge's own `problem` says so. */
  onRefused?: (topic: string, reason: NonNullable<Refusal['problem']>) => void;
  /**
   * One bridge per installation and base topic: the data folder's lease (lease/lease.ts), claimed on the
   * broker (lease/claim.ts), whose installation is the client id of the session kept there (session.ts: events reach
   * the broker once across a kill). None: a clean session and no claim (a test's bridge).
   */
  lease?: {
    folder: Lease;
    /** Another bridge this one does not act on, named (lease/claim.ts); undefined: none now. */
    other: (other: string | undefined) => void;
    /** This bridge stopped acting: another took its base topic over (`taken` undefined), or its client id (`taken` names it: it stays idle). */
    lost: (why: string, taken?: string) => void;
  };
  /** MQTT 5 by default (falling back to 3.1.1 when refused); 4 for a broker that speaks only 3.1.1. */
  protocolVersion?: 4 | 5;
}

/** What the connection tells the rest of the sink. */
export interface ConnectionParts {
  topics: Topics;
  clock: Clock;
  /** A message heard on the bridge's client. */
  heard: (topic: string, payload: Buffer, packet: IPublishPacket) => void;
  /** Connected again, the claim renewed: everything retained goes again. */
  reconnected: () => void;
  /** The connection closed: whoever waits for the broker's answers hears no at once. */
  closed: () => void;
  /** The bridge's own retained topics as they read once it is offline: its last words when its client id was taken. */
  lastWords: () => Array<{ topic: string; payload: string }>;
  /** Publishes in the bridge's turn (delivery.ts `send`): the claim's renewals go so. */
  send?: ClaimOptions['send'];
}

export class BrokerConnection {
  client: MqttClient | undefined;
  /** Started: what the bridge holds may go (while connected, and its lease holds). */
  ready = false;
  stopped = false;
  /** The base topic's claim (lease/claim.ts), with a lease. */
  claim: BaseTopicClaim | undefined;
  /** Ends a wait for the base topic at stop(). */
  private readonly stopping = new AbortController();

  constructor(
    private readonly options: ConnectionOptions,
    private readonly parts: ConnectionParts,
  ) {}

  private get policy(): ReconnectPolicy {
    return { ...DEFAULT_RECONNECT, ...this.options.reconnect };
  }

  get connected(): boolean {
    return this.client?.connected === true;
  }

  /** Whether anything may go now: started and connected, with a lease that did not lapse (a stale holder cannot act, claim.ts). */
  get live(): boolean {
    return this.ready && this.connected && this.claim?.alive !== false;
  }

  /**
   * Waits, on a connection without a last will, until this bridge may take the base topic, reading `filters`
   * meanwhile: what `heard` does not take is the claim's. Resolves with the installation whose claim this one
   * replaced, if another; none without a lease.
   */
  async waitForBaseTopic(filters: readonly string[], heard: (topic: string, payload: Buffer) => boolean): Promise<LeaseRecord | undefined> {
    const { lease, log, mqtt, protocolVersion } = this.options;
    if (!lease) return undefined;
    const claim = new BaseTopicClaim({
      lease: lease.folder,
      topics: this.parts.topics,
      log,
      other: lease.other,
      refused: (topic, code) => this.refused(topic, code),
      send: this.parts.send,
      lost: (other) =>
        this.lost(
          `another dziennik2mqtt (${describeHolder(other)}) took base topic ${this.parts.topics.base} over while this one was away; stopping`,
        ),
    });
    this.claim = claim;
    const client = createClient({ mqtt, reconnectPeriodMs: this.policy.firstMs, protocolVersion });
    const url = redactUrl(mqtt.url);
    const { signal } = this.stopping;
    const settings = { url, from: this.options.brokerFrom, policy: this.policy, log };
    watchConnection(client, { ...settings, stopped: () => client.disconnecting, onConnect: () => undefined });
    signal.addEventListener('abort', () => client.end(true), { once: true });
    client.on('message', (topic, payload) => heard(topic, payload) || claim.heard(topic, payload));
    try {
      // However long the broker takes to appear (the add-on may start before Mosquitto): nothing is read meanwhile.
      await waitForConnect(client, url);
      await client.subscribeAsync([...filters], { qos: 0 });
      await claim.wait(client, signal);
    } finally {
      await client.endAsync().catch(() => undefined);
    }
    return claim.predecessor;
  }

  /** The bridge's client, connecting (or retrying) from now on, with its retained last will; `url` is the broker's without its password. */
  open(session: MqttSession | undefined): { client: MqttClient; url: string } {
    const { options, parts } = this;
    const { topics } = parts;
    const url = redactUrl(options.mqtt.url);
    const policy = this.policy;
    const will = { topic: topics.bridgeState, payload: 'offline' };
    const kept = session && options.lease && { store: session, clientId: options.lease.folder.clientId };
    const client = createClient({
      mqtt: options.mqtt,
      will,
      reconnectPeriodMs: policy.firstMs,
      protocolVersion: options.protocolVersion,
      session: kept,
    });
    this.client = client;
    session?.attach(client);
    watchTakeovers(client, () => void this.takenOver(client));
    watchConnection(client, {
      url,
      from: options.brokerFrom,
      policy,
      log: options.log,
      stopped: () => this.stopped,
      // Connected (again, after an outage or a broker's restart: the first connect start() awaits);
      // `sessionKept`: the broker kept the session, so mqtt.js subscribes to nothing again.
      onConnect: (sessionKept) => {
        // The kept session's subscriptions stand, but a retained command left meanwhile comes only with a
        // subscription made now (and is refused, inbox.ts): the bridge subscribes again, as mqtt.js does not.
        if (sessionKept && this.ready) {
          this.subscribe(client, true).catch((err: unknown) =>
            options.log.warn({ err: errorText(err) }, 'cannot subscribe again after reconnecting'),
          );
        }
        // A lease that lapsed meanwhile is claimed again first (lease/claim.ts): only then does anything go.
        void Promise.resolve(this.claim?.renew()).then(() => this.ready && parts.reconnected());
      },
    });
    // The connection closed: whoever waits for the broker's answers hears it at once (mqtt.js keeps the
    // messages handed to it while the broker is away).
    client.on('close', () => parts.closed());
    client.on('message', (topic, payload, packet) => parts.heard(topic, payload, packet));
    return { client, url };
  }

  /**
   * Subscribes to Home Assistant's status, the children's commands and the bridge's requests. Retain as
   * published (MQTT 5; mqtt.js leaves it out under 3.1.1): a command published retained keeps its flag
   * when delivered live, so the inbox can refuse it. Not for Home Assistant's status, whose birth counts
   * when it is live, whether or not Home Assistant retains it.
   */
  async subscribe(client: MqttClient, again = false): Promise<void> {
    const { topics } = this.parts;
    const filters: ISubscriptionMap = {
      [topics.haStatus]: { qos: 0 },
      [topics.commandSetFilter]: { qos: 0, rap: true },
      [topics.bridgeRequestFilter]: { qos: 0, rap: true },
      // Every child's event memory and Home Assistant's entries: another's written over, one this bridge has none of emptied (told.ts).
      [topics.eventMemory('+')]: { qos: 0, nl: true },
      [topics.homeAssistant]: { qos: 0, nl: true },
    };
    // Again (a kept session's subscriptions stand): mqtt.js sends a SUBSCRIBE only when told it is meant.
    if (again) filters.resubscribe = true;
    const granted = await client.subscribeAsync(filters);
    // A grant of 128 or more is the broker's refusal (its ACL): the buttons of that topic would do nothing.
    for (const grant of granted) if (grant.qos >= 0x80) this.refused(grant.topic, grant.qos);
  }

  /** The broker refused a topic: logged by its reason, and the bridge's `problem` says so when it is the family's to fix (onRefused). */
  refused(topic: string, code: number): void {
    const { words, problem } = brokerRefusal(code);
    this.options.log.warn({ topic, code }, `the MQTT broker refused this topic: ${words}`);
    if (problem) this.options.onRefused?.(topic, problem);
  }

  /** This bridge stops acting: nothing more goes out; its stop says `offline` (a live holder, if another, says `online` again). */
  private lost(why: string, taken?: string): void {
    this.ready = false;
    this.options.lease?.lost(why, taken);
  }

  /**
   * Another connection took this bridge's MQTT client id (client.ts watchTakeovers): a copy of its data
   * folder, or another client given its id. It stops fighting for it: nothing more on its connection;
   * `problem` and `offline` said once on a connection of its own.
   */
  private async takenOver(client: MqttClient): Promise<void> {
    const { lease, mqtt, protocolVersion, log } = this.options;
    if (this.stopped || !lease) return;
    this.stopped = true;
    client.end(true);
    this.claim?.release();
    const twin = this.claim?.twin;
    const taken = twin ? describeHolder(twin) : lease.folder.clientId;
    this.lost(
      `another MQTT connection took this bridge's client id ${lease.folder.clientId} (${twin ? `another dziennik2mqtt: ${taken}` : 'a copy of this data_dir running elsewhere, or a client given its id'}): this one stops using it and waits to be restarted`,
      taken,
    );
    const lastWords = this.parts.lastWords();
    const said = createClient({ mqtt, reconnectPeriodMs: this.policy.firstMs, protocolVersion });
    const say = async (): Promise<void> => {
      await waitForConnect(said, redactUrl(mqtt.url));
      await Promise.all(lastWords.map(({ topic, payload }) => said.publishAsync(topic, payload, RETAINED)));
    };
    await withDeadline(this.parts.clock, STOP_TIMEOUT_MS, () => new Error('timed out'), say).catch((err: unknown) =>
      log.warn({ err: errorText(err) }, 'could not say offline on a connection of its own'),
    );
    await said.endAsync(true).catch(() => undefined);
  }

  /** The bridge stops: a wait for the base topic ends; the client it had, if it was running (nothing more goes on it). */
  halt(): MqttClient | undefined {
    this.stopping.abort(new Error('the bridge stopped while another dziennik2mqtt held its base topic'));
    const client = this.client;
    if (!client || this.stopped) return undefined;
    this.stopped = true;
    this.ready = false;
    return client;
  }

  /**
   * Gives up the claim, says `offline` and disconnects (with the session's parting words), each step within
   * STOP_TIMEOUT_MS. A clean DISCONNECT suppresses the last will, so offline is published by hand and awaited;
   * the claim given up before it lets a bridge waiting for the base topic take over at once.
   */
  async close(client: MqttClient, session: MqttSession | undefined): Promise<void> {
    const { log } = this.options;
    const attempt = async (what: string, work: Promise<unknown>): Promise<void> => {
      const late = () => new Error(`timed out ${what}`);
      await withDeadline(this.parts.clock, STOP_TIMEOUT_MS, late, () => work).catch((err: unknown) => log.warn({ err }, `stop: ${what} failed`));
    };
    if (this.claim) await attempt('giving up the claim', this.claim.giveUp(client));
    if (client.connected) await attempt('publishing offline', client.publishAsync(this.parts.topics.bridgeState, 'offline', RETAINED));
    await attempt('disconnecting', client.endAsync(!client.connected, session?.parting(client.options.protocolVersion, log)));
  }
}
