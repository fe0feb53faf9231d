// One bridge per base topic on a broker (interface 14.4, 15.3): the data folder's lease (lease.ts) claimed,
// retained, at `<base>/bridge/claim` on its beat, given up at a clean stop (the fence kept). MQTT has no
// compare-and-set: a claim tells an honest candidate to wait and proves nothing. A candidate reads nothing, has
// no last will and knocks at `<base>/bridge/knock`; it takes the topic once the claim is given up, its own
// folder's, or still for the grace of connected time, with the next fence, if its claim comes back before
// another's. A live holder treats another's claim as a conflict, never an order; a lapsed one acts on nothing
// until it claimed again, and stops if a higher fence took the topic. A claim or knock with this
// installation's id from another folder is a copy of it running: a candidate takes an identity of its own.
import type { IClientPublishOptions, MqttClient } from 'mqtt';
import { describeHolder, readRecord, watched, type Lease, type LeaseRecord } from './lease.js';
import type { Logger } from '../util/log.js';

/** The base topic's topics a claim uses (mqtt/topics.ts builds them). */
export interface ClaimTopics {
  readonly base: string;
  readonly bridgeClaim: string;
  readonly bridgeKnock: string;
  /** Where a holder's `online` and another's last will are said. */
  readonly bridgeState: string;
}

/** `other`: a bridge this one does not act on, named (undefined once none for a grace); `lost`: a higher fence took the topic in a lapse. */
export interface ClaimOptions {
  lease: Lease;
  topics: ClaimTopics;
  log: Logger;
  other: (other: string | undefined) => void;
  lost: (other: LeaseRecord) => void;
  refused: (topic: string, code: number) => void;
  /**
   * How a renewal goes once the bridge publishes (outputs/mqtt/delivery.ts `send`: in its turn, within the broker's
   * receive maximum, so that a burst of events cannot get it refused); false, or none: straight on the holding client.
   */
  send?: (topic: string, payload: string, options: IClientPublishOptions, answered: (err: Error | undefined) => void) => boolean;
}

const CLAIM_RETAINED: IClientPublishOptions = { qos: 1, retain: true };

export class BaseTopicClaim {
  /** The last claim of another run heard (the retained one first), watched for its beat; the last bridge heard with this id from another folder. */
  private claimed: LeaseRecord | undefined;
  private readonly watch: ReturnType<typeof watched>;
  twin: LeaseRecord | undefined;
  private holding: MqttClient | undefined;
  /** When the broker last answered a renewal; whether the holder looks at the claim before it answers one (taking it). */
  private acked = -Infinity;
  private checking = false;
  /** The run the log last named, and when a conflict was last heard. */
  private named: string | undefined;
  private conflictAt: number | undefined;
  private wake: () => void = () => undefined;

  constructor(private readonly o: ClaimOptions) {
    this.watch = watched(o.lease.clock, o.lease.timing.graceMs);
  }

  private get me(): LeaseRecord {
    const { pidNs: _, startTicks: __, ...record } = this.o.lease.record;
    return record;
  }

  /** Holding, with a renewal the broker answered within the grace less a beat (Kubernetes' renew deadline). */
  get alive(): boolean {
    const { clock, timing } = this.o.lease;
    return this.holding !== undefined && clock.now() - this.acked < timing.graceMs - timing.beatMs;
  }

  /** The base topic's holder before this bridge took it, when another installation: a handover. */
  get predecessor(): LeaseRecord | undefined {
    return this.claimed && (this.claimed.id !== this.me.id || this.claimed.place !== this.me.place) ? this.claimed : undefined;
  }

  /** Whether a message is the claim's, a knock or bridge/state (then it is handled here). */
  heard(topic: string, payload: Buffer): boolean {
    const { topics, log } = this.o;
    // An `offline` while this bridge holds the topic is another's last will or stop: said again.
    if (topic === topics.bridgeState) {
      if (this.alive && this.holding?.connected && payload.toString() === 'offline') this.holding.publish(topic, 'online', { qos: 1, retain: true });
      return true;
    }
    if (topic !== topics.bridgeClaim && topic !== topics.bridgeKnock) return false;
    const record = readRecord(payload);
    // Its own claim or knock, back from the broker, is nobody else's.
    if (record?.run === this.me.run) return true;
    if (topic === topics.bridgeKnock) {
      if (record && this.holding) this.note(record, 'knocks at', 'it waits, reading nothing, while this one runs');
      else if (record) void this.copied(record);
    } else {
      const beat = record !== undefined && record.run === this.claimed?.run;
      this.claimed = record;
      if (this.watch.see(payload.toString()) && beat && !this.holding) void this.copied(record);
      // A live holder is never silenced by a message: another's claim is a conflict, answered with its own.
      if (this.alive && !this.checking) {
        if (record) this.note(record, 'claims', 'a conflict, not an order: this one runs on and claims it again');
        else log.warn({ base_topic: topics.base }, `the claim of base topic ${topics.base} was cleared by another client: claimed again`);
        this.publish();
      }
    }
    this.wake();
    return true;
  }

  private note(other: LeaseRecord, what: string, then: string): void {
    const { topics, log, lease } = this.o;
    const name = `${describeHolder(other)}${other.id === this.me.id ? ', a copy of this data_dir' : ''}`;
    if (other.id === this.me.id) this.twin = other;
    const said = `another dziennik2mqtt (${name}) ${what} base topic ${topics.base}: ${then}`;
    if (this.named !== other.run) log.warn({ other: other.id, host: other.host, base_topic: topics.base }, said);
    this.named = other.run;
    this.conflictAt = lease.clock.now();
    this.o.other(name);
  }

  /** A candidate heard a bridge with this installation's id from another folder: this one is a copy. */
  private async copied(other: LeaseRecord): Promise<void> {
    const { lease, log } = this.o;
    if (other.id !== lease.record.id || other.place === lease.record.place) return;
    this.twin = other;
    await lease.newIdentity();
    const said = `another dziennik2mqtt (${describeHolder(other)}) runs with this installation's identity from another folder`;
    log.warn({ other: other.id, host: other.host }, `${said}: this data_dir is a copy of its, and takes an identity of its own (${lease.record.id})`);
  }

  /** A candidate's wait, on a connection without a last will: until the claim is given up, is this folder's, or stood still for the grace. Rejects when `signal` aborts. */
  async wait(client: MqttClient, signal: AbortSignal): Promise<void> {
    const { lease, topics, log } = this.o;
    await client.subscribeAsync([topics.bridgeClaim, topics.bridgeKnock], { qos: 0 });
    await roundTrip(client, topics);
    let said = false;
    for (let holder = this.claimed; holder && !holder.released && this.predecessor; holder = this.claimed) {
      // Time away from the broker does not count: no renewal could come.
      if (!client.connected) this.watch.restart();
      else if (this.watch.still() && (await this.stillAfterLook(client))) break;
      const waits = `base topic ${topics.base} is held by another dziennik2mqtt (${describeHolder(holder)}): this one reads nothing and waits until it stops`;
      if (!said) log.warn({ other: holder.id, host: holder.host, base_topic: topics.base }, waits);
      said = true;
      if (client.connected) client.publish(topics.bridgeKnock, JSON.stringify(this.me), { qos: 0 });
      await this.nap(lease.timing.beatMs, signal);
    }
    const why = this.claimed?.released ? 'gave it up' : `has not renewed its claim for ${lease.timing.graceMs / 1000} s`;
    if (said)
      log.info({ other: this.claimed?.id, base_topic: topics.base }, `the dziennik2mqtt holding base topic ${topics.base} ${why}; taking it over`);
  }

  /**
   * Whether the claim is still once the broker answered a request sent now, everything it sent before read. This
   * process stalled (a busy machine, a long pause for garbage) for the grace leaves the holder's renewals unread
   * in the socket, and the nap's timer runs before them: judged on that, a live holder would be taken over.
   */
  private async stillAfterLook(client: MqttClient): Promise<boolean> {
    await roundTrip(client, this.o.topics).catch(() => undefined);
    return client.connected && this.watch.still();
  }

  /** Until a claim or knock is heard, or `ms` passed. */
  private nap(ms: number, signal?: AbortSignal): Promise<void> {
    return Promise.race([this.o.lease.clock.sleep(ms, signal), new Promise<void>((resolve) => (this.wake = resolve))]);
  }

  /**
   * Takes the base topic through this client, at start and again after a lapse: the claim as the broker keeps
   * it read first; claimed with the next fence and held if acknowledged before another's came. Resolves to
   * undefined once held, else to the bridge that holds it (after a lapse: a higher fence took it meanwhile).
   */
  async take(client: MqttClient): Promise<LeaseRecord | undefined> {
    const { lease, topics } = this.o;
    const lapsed = this.holding !== undefined;
    this.checking = true;
    this.claimed = undefined;
    // Heard once connected: the claim, the knocks, and bridge/state (another's last will).
    await client.subscribeAsync([topics.bridgeClaim, topics.bridgeKnock, topics.bridgeState], { qos: 0 });
    await roundTrip(client, topics);
    const before = this.claimed as LeaseRecord | undefined;
    // An honest successor takes the topic only after a grace without renewals: until then another's claim, whatever
    // its fence, is the conflict it was while this one was alive (a lapse this short is this process's own stall).
    const replaceable = !lapsed || lease.clock.now() - this.acked >= lease.timing.graceMs;
    let other = lapsed && replaceable && before && !before.released && before.fence > lease.record.fence ? before : undefined;
    if (!other) {
      lease.record.fence = Math.max(lease.record.fence, (before?.fence ?? 0) + 1);
      this.holding = client;
      this.publish();
      // Another's claim before the broker acknowledged this one's: that one came first, and keeps it.
      const until = lease.clock.now() + lease.timing.beatMs;
      while (!this.alive && this.claimed === before && lease.clock.now() < until) await this.nap(100);
      other = this.claimed === before || !replaceable ? undefined : this.claimed;
    }
    this.checking = false;
    if (other) this.release();
    else lease.onBeat.add(this.renew);
    return other;
  }

  /** At every beat and reconnect: the claim renewed; a holder whose lease lapsed takes it again, or is told it lost it. */
  readonly renew = (): Promise<unknown> | void => {
    const { lease } = this.o;
    if (this.conflictAt !== undefined && lease.clock.now() - this.conflictAt > lease.timing.graceMs) {
      this.conflictAt = undefined;
      this.o.other(undefined);
    }
    const client = this.holding;
    if (!client?.connected || this.checking) return;
    if (this.alive) return this.publish();
    return this.take(client).then(
      (other) => other && this.o.lost(other),
      () => (this.checking = false),
    );
  };

  private publish(): void {
    const { topics, lease, refused } = this.o;
    const holding = this.holding;
    if (!holding) return;
    const sent = lease.clock.now();
    const answered = (err: Error | undefined): void => {
      const code = (err as { code?: unknown } | undefined)?.code;
      if (typeof code === 'number') refused(topics.bridgeClaim, code);
      // Any answer of the broker counts: the holder reached it in time.
      if (!err || typeof code === 'number') this.acked = Math.max(this.acked, sent);
      this.wake();
    };
    const record = JSON.stringify(this.me);
    if (this.o.send?.(topics.bridgeClaim, record, CLAIM_RETAINED, answered)) return;
    holding.publish(topics.bridgeClaim, record, CLAIM_RETAINED, answered);
  }

  /** Stops renewing. */
  release(): void {
    this.o.lease.onBeat.delete(this.renew);
    this.holding = undefined;
  }

  /** A clean stop: a live holder gives its claim up, keeping its fence (before its `offline`); one that lost it leaves the other's. */
  async giveUp(client: MqttClient): Promise<void> {
    const alive = this.alive;
    this.release();
    const released = JSON.stringify({ ...this.me, released: true });
    if (alive && client.connected) await client.publishAsync(this.o.topics.bridgeClaim, released, { qos: 1, retain: true });
  }
}

/** Resolves once the broker answered a request sent after everything before it: a subscription's retained messages are in. */
const roundTrip = (client: MqttClient, topics: ClaimTopics): Promise<unknown> => client.unsubscribeAsync(`${topics.bridgeClaim}/none`);
