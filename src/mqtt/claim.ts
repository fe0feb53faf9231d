// One bridge per base topic on a broker (interface 14.4, 15.3): the data folder's lease (store/lease.ts)
// claimed, retained, at `<base>/bridge/claim` on the lease's beat, and given up at a clean stop (its fence
// kept). MQTT has no compare-and-set: anyone allowed to publish there can write a claim, so a claim tells
// an honest candidate to wait and proves nothing. A candidate reads nothing and publishes nothing under the
// base topic (its connection has no last will: bridge/state stays the holder's); it knocks at
// `<base>/bridge/knock` so the holder can say so, and takes the topic once the claim is given up, is this
// folder's own last run, or stood still for the grace of connected time on the monotonic clock. Taking
// it, it claims with one more than the last fence and keeps it only if its claim came back before
// anyone else's (two candidates at the same moment: the broker's order decides). A holder whose lease is
// alive (the broker acknowledged a renewal within the grace less a beat) never yields to a claim: another's
// is a conflict it logs and shows (`problem`) and answers with its own. One whose renewals went
// unacknowledged (a stall, a broker away) acts on nothing until it renewed again, and stops when a higher
// fence took the topic meanwhile. A claim or knock with this installation's id from another folder is a
// copy of it running: a candidate then takes an identity of its own.
import type { MqttClient } from 'mqtt';
import type { Topics } from '../ha/topics.js';
import { describeHolder, readRecord, Watched, type Lease, type LeaseRecord } from '../store/lease.js';
import type { Logger } from '../util/log.js';

export interface ClaimOptions {
  lease: Lease;
  topics: Topics;
  log: Logger;
  /** Another bridge this one does not act on (waiting and knocking, or claiming while this one holds), named; undefined once none was heard for a grace. */
  other: (other: string | undefined) => void;
  /** Another took the base topic over while this one's lease had lapsed (a higher fence). */
  lost: (other: LeaseRecord) => void;
  /** The broker refused the claim (its ACL). */
  refused: (topic: string, code: number) => void;
}

export class BaseTopicClaim {
  /** The last claim of another run heard (the retained one first), watched for its beat. */
  private claimed: LeaseRecord | undefined;
  private readonly watch: Watched;
  private holding: MqttClient | undefined;
  /** When the broker last answered a renewal (the monotonic clock), and whether the holder is looking at the claim before it answers one (taking, or lapsed). */
  private acked = -Infinity;
  private checking = false;
  /** This run's claim heard back from the broker (taking the topic). */
  private echoed = false;
  /** Another bridge in conflict with this one, and when it was last heard; the last one the log named. */
  private conflict: { run: string; at: number } | undefined;
  private named: string | undefined;
  /** The last bridge heard with this installation's id from another folder. */
  twin: LeaseRecord | undefined;
  private wake: () => void = () => undefined;

  constructor(private readonly o: ClaimOptions) {
    this.watch = new Watched(o.lease.clock, o.lease.timing.graceMs);
  }

  /** The topics heard from connecting on: the claim, the knocks, and bridge/state (another's last will). */
  get filters(): string[] {
    const { topics } = this.o;
    return [topics.bridgeClaim, topics.bridgeKnock, topics.bridgeState];
  }

  private get me(): LeaseRecord {
    const { pidNs: _, startTicks: __, ...record } = this.o.lease.record;
    return record;
  }

  /** Alive: holding, with a renewal the broker answered within the grace less a beat (Kubernetes' renew deadline). */
  get alive(): boolean {
    const { clock, timing } = this.o.lease;
    return this.holding !== undefined && clock.now() - this.acked < timing.graceMs - timing.beatMs;
  }

  /** Whether a message is the claim's, a knock or bridge/state (then it is handled here). */
  heard(topic: string, payload: Buffer): boolean {
    const { topics, log } = this.o;
    // An `offline` while this bridge holds the topic is another's last will or stop: the state is said again.
    if (topic === topics.bridgeState) {
      if (this.alive && this.holding?.connected && payload.toString() === 'offline') this.holding.publish(topic, 'online', { qos: 1, retain: true });
      return true;
    }
    if (topic !== topics.bridgeClaim && topic !== topics.bridgeKnock) return false;
    const record = readRecord(payload);
    const me = this.me;
    if (record?.run === me.run) {
      if (topic === topics.bridgeClaim && record.beat === me.beat) this.echoed = true;
      this.wake();
      return true;
    }
    const twin = record !== undefined && record.id === me.id && record.place !== me.place;
    if (twin) this.twin = record;
    if (topic === topics.bridgeKnock) {
      if (record && this.holding) this.note(record, 'knocks at', 'it waits, reading nothing, while this one runs');
      else if (twin) void this.copied(record);
      return true;
    }
    const beat = record !== undefined && record.run === this.claimed?.run;
    this.claimed = record;
    if (this.watch.see(payload.toString()) && beat && twin && !this.holding) void this.copied(record);
    this.wake();
    if (!this.alive || this.checking) return true;
    // A live holder is never silenced by a message: another's claim is a conflict, answered with its own.
    if (record) this.note(record, 'claims', 'a conflict, not an order: this one runs on and claims it again');
    else log.warn({ base_topic: topics.base }, `the claim of base topic ${topics.base} was cleared by another client: claimed again`);
    this.publish();
    return true;
  }

  private note(other: LeaseRecord, what: string, then: string): void {
    const { topics, log, lease, other: tell } = this.o;
    const name = `${describeHolder(other)}${other.id === this.me.id ? ', a copy of this data_dir' : ''}`;
    if (this.named !== other.run) log.warn({ other: other.id, host: other.host, base_topic: topics.base }, `another dziennik2mqtt (${name}) ${what} base topic ${topics.base}: ${then}`);
    this.named = other.run;
    this.conflict = { run: other.run, at: lease.clock.now() };
    tell(name);
  }

  private async copied(other: LeaseRecord): Promise<void> {
    const { lease, log } = this.o;
    if (lease.record.id !== other.id) return;
    await lease.newIdentity();
    log.warn(
      { other: other.id, host: other.host, id: lease.record.id },
      `another dziennik2mqtt (${describeHolder(other)}) runs with this installation's identity from another folder: this data_dir is a copy of its, and takes an identity of its own (${lease.record.id})`,
    );
  }

  /** The base topic's holder before this bridge took it (given up or dead), when it was another installation: a handover. */
  get predecessor(): LeaseRecord | undefined {
    const { id, place } = this.me;
    return this.claimed && (this.claimed.id !== id || this.claimed.place !== place) ? this.claimed : undefined;
  }

  /** A candidate's wait, on a connection without a last will: until the claim is given up, is this folder's, or stood still for the grace. Rejects when `signal` aborts. */
  async wait(client: MqttClient, signal: AbortSignal): Promise<void> {
    const { lease, topics, log } = this.o;
    await client.subscribeAsync([topics.bridgeClaim, topics.bridgeKnock], { qos: 0 });
    await roundTrip(client, topics);
    let said = false;
    for (;;) {
      const holder = this.claimed;
      if (holder === undefined || holder.released || (holder.id === this.me.id && holder.place === this.me.place)) break;
      // Time away from the broker does not count: no renewal could come.
      if (!client.connected) this.watch.restart();
      else if (this.watch.still) break;
      if (!said) {
        log.warn(
          { other: holder.id, host: holder.host, base_topic: topics.base },
          `base topic ${topics.base} is held by another dziennik2mqtt (${describeHolder(holder)}): this one reads nothing and waits until it stops`,
        );
        said = true;
      }
      if (client.connected) client.publish(topics.bridgeKnock, JSON.stringify(this.me), { qos: 0 });
      const woken = new Promise<void>((resolve) => (this.wake = resolve));
      await Promise.race([lease.clock.sleep(lease.timing.beatMs, signal), woken]);
    }
    const holder = this.claimed;
    const why = holder?.released ? 'gave it up' : `has not renewed its claim for ${lease.timing.graceMs / 1000} s`;
    if (said) log.info({ other: holder?.id, base_topic: topics.base }, `the dziennik2mqtt holding base topic ${topics.base} ${why}; taking it over`);
  }

  /**
   * Takes the base topic through this client (subscribed to `filters`): claims it with the next fence and
   * holds it when the claim came back before another's (false: another took it at the same moment).
   */
  async take(client: MqttClient): Promise<boolean> {
    const { lease, topics } = this.o;
    // The retained claim of this connection's subscription first: only what comes after it is another's taking.
    await roundTrip(client, topics);
    const before = this.claimed;
    lease.fenced(Math.max(lease.record.fence, (before?.fence ?? 0) + 1));
    this.holding = client;
    this.echoed = false;
    this.checking = true;
    this.publish();
    const deadline = lease.clock.now() + lease.timing.beatMs;
    while (!(this.echoed && this.alive) && this.claimed === before && lease.clock.now() < deadline) {
      await Promise.race([new Promise<void>((resolve) => (this.wake = resolve)), lease.clock.sleep(100)]);
    }
    this.checking = false;
    if (this.claimed !== before) this.holding = undefined;
    else lease.onBeat.add(this.renew);
    return this.holding !== undefined;
  }

  /** At every beat and reconnect: the claim renewed; a holder whose lease lapsed looks at the claim first. */
  readonly renew = (): void => {
    const client = this.holding;
    const { lease, other } = this.o;
    if (this.conflict && lease.clock.now() - this.conflict.at > lease.timing.graceMs) {
      this.conflict = undefined;
      other(undefined);
    }
    if (!client?.connected || this.checking) return;
    if (this.alive) return this.publish();
    this.checking = true;
    void this.recheck(client).finally(() => (this.checking = false));
  };

  /** After a lapse: the claim as the broker keeps it now; a higher fence took the topic meanwhile (then `lost`), else it is claimed again. */
  private async recheck(client: MqttClient): Promise<void> {
    const { topics, lease } = this.o;
    this.claimed = undefined;
    try {
      await client.subscribeAsync(topics.bridgeClaim, { qos: 0 });
      await roundTrip(client, topics);
    } catch {
      return;
    }
    // As heard meanwhile: the retained claim, or a later one.
    const other = this.claimed as LeaseRecord | undefined;
    if (other && !other.released && other.fence > lease.record.fence) {
      this.release();
      this.o.lost(other);
    } else this.publish();
  }

  private publish(): void {
    const client = this.holding;
    if (!client?.connected) return;
    const sent = this.o.lease.clock.now();
    client.publish(this.o.topics.bridgeClaim, JSON.stringify(this.me), { qos: 1, retain: true }, (err) => {
      const code = (err as { code?: unknown } | undefined)?.code;
      if (typeof code === 'number') this.o.refused(this.o.topics.bridgeClaim, code);
      // Any answer of the broker counts: the holder reached it in time.
      if (!err || typeof code === 'number') this.acked = Math.max(this.acked, sent);
    });
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
    if (alive && client.connected) await client.publishAsync(this.o.topics.bridgeClaim, JSON.stringify({ ...this.me, released: true }), { qos: 1, retain: true });
  }
}

/** Resolves once the broker answered a request sent after everything before it: the retained messages of a subscription are in. */
async function roundTrip(client: MqttClient, topics: Topics): Promise<void> {
  await client.unsubscribeAsync(`${topics.bridgeClaim}/none`);
}
