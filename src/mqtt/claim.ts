// One bridge per base topic on a broker (interface 14.4). Two bridges (each with a data folder of its
// own) on one base topic both read the portal and both answer a press: two messages to a teacher. The
// bridge that holds the base topic keeps a retained claim at `<base>/bridge/claim` naming its instance
// (its data folder's id, host, pid) with a beat it renews every CLAIM_BEAT_MS, and clears it at a clean
// stop. A bridge that finds another instance's claim reads nothing, answers nothing and publishes nothing
// under the base topic (bridge/state stays the holder's `online`): it waits on a connection without a last
// will, knocking at `<base>/bridge/knock` so that the holder can say so, and takes the base topic only
// once the claim is cleared or no renewal has come for CLAIM_GRACE_MS while it was connected. Only the
// renewals' arrival counts, never the beat's time against this machine's clock: no broker feature (MQTT 5
// message expiry) and no clock skew decides, so it works alike on Mosquitto and the demo's aedes. A
// claim that names this bridge's own data folder is its own last run (the folder's lock keeps any other
// process off it): taken at once, so a restart after a kill is not held up.
import type { MqttClient } from 'mqtt';
import { z } from 'zod';
import type { Topics } from '../ha/topics.js';
import type { Clock, Timer } from '../util/clock.js';
import type { Logger } from '../util/log.js';

/** How often the holder renews its claim and a waiting bridge knocks. */
export const CLAIM_BEAT_MS = 10_000;
/** How long a claim may go without a renewal before a waiting bridge takes the base topic (three beats and a half). */
export const CLAIM_GRACE_MS = 35_000;
/** A claim or a knock is a few fields: anything larger is not one of ours, and is not decoded. */
const MAX_CLAIM_BYTES = 1024;

const instanceSchema = z.object({ id: z.string().max(64), host: z.string().max(255), pid: z.number(), since: z.string().max(40) });

/** A running bridge as its claim and its knock name it: its data folder's id, host, pid, start. */
export type Instance = z.infer<typeof instanceSchema>;

/** The instance a claim or knock names; undefined for an empty (cleared) or foreign payload. */
function instanceOf(payload: Buffer): Instance | undefined {
  if (payload.length === 0 || payload.length > MAX_CLAIM_BYTES) return undefined;
  try {
    const parsed = instanceSchema.safeParse(JSON.parse(payload.toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** How a bridge names another instance in its log and `problem`. */
export function describeInstance(other: Instance): string {
  return `${other.id} on ${other.host}, pid ${other.pid}, since ${other.since}`;
}

export interface ClaimOptions {
  me: Instance;
  topics: Topics;
  log: Logger;
  /** Real time always: the claim is between real processes, whatever clock the bridge's polls run on. */
  clock: Clock;
  /** Another instance waits on this base topic (the holder), or holds it (a waiting bridge); undefined: no more. */
  other: (other: Instance | undefined) => void;
  /** Another instance took the base topic over while this one held it (it stalled, or was cut off). */
  lost: (other: Instance) => void;
}

/** One bridge's claim of its base topic: what it heard of others, its beat while it holds it, its wait while another does. */
export class BaseTopicClaim {
  /** Another instance's claim, as last heard (before holding: the retained one). */
  private claimedBy: Instance | undefined;
  private heardAt = 0;
  private holding: MqttClient | undefined;
  private knocker: { instance: Instance; at: number } | undefined;
  private timer: Timer | undefined;
  /** Wakes the wait when a claim is cleared or changes hands. */
  private wake: () => void = () => undefined;

  constructor(private readonly o: ClaimOptions) {}

  /** The topics to hear before deciding (subscribed before the retained scan) and while holding; bridge/state too (below). */
  get filters(): string[] {
    return [this.o.topics.bridgeClaim, this.o.topics.bridgeKnock, this.o.topics.bridgeState];
  }

  get held(): boolean {
    return this.holding !== undefined;
  }

  /** Whether a message is the claim's or a knock (then it is handled here). */
  heard(topic: string, payload: Buffer): boolean {
    const { topics, me } = this.o;
    // An `offline` while this bridge holds the topic is another's last will (one that was killed in the
    // moment it looked at the claim, or an old version's): the state is said again.
    if (topic === topics.bridgeState) {
      if (this.holding?.connected && payload.toString('utf8') === 'offline') this.holding.publish(topic, 'online', { qos: 1, retain: true });
      return true;
    }
    if (topic !== topics.bridgeClaim && topic !== topics.bridgeKnock) return false;
    const other = instanceOf(payload);
    if (other?.id === me.id) return true;
    if (topic === topics.bridgeKnock) {
      if (other !== undefined && this.holding) this.knock(other);
      return true;
    }
    this.claimedBy = other;
    this.heardAt = this.o.clock.now();
    this.wake();
    // Two holders at once (both started on a free topic, or one came back after a stall): the one that
    // started first keeps it and says so again at once; the other stops.
    if (other === undefined || !this.holding) return true;
    if (other.since < me.since || (other.since === me.since && other.id < me.id)) {
      this.release();
      this.o.lost(other);
    } else this.renew();
    return true;
  }

  /** Another instance's claim heard so far (the retained one, at start). */
  get holder(): Instance | undefined {
    return this.claimedBy;
  }

  /** Holds the base topic through this client: the claim now, renewed every beat (and at a reconnect: renew()). */
  hold(client: MqttClient): void {
    this.holding = client;
    this.claimedBy = undefined;
    this.renew();
  }

  /** Publishes the claim with a new beat, and tells when a knocking instance has stopped knocking. */
  renew(): void {
    const client = this.holding;
    if (!client) return;
    this.timer?.cancel();
    const { clock, topics, me } = this.o;
    if (client.connected)
      client.publish(topics.bridgeClaim, JSON.stringify({ ...me, beat: new Date(clock.now()).toISOString() }), { qos: 1, retain: true });
    if (this.knocker && clock.now() - this.knocker.at > CLAIM_GRACE_MS) {
      this.knocker = undefined;
      this.o.other(undefined);
    }
    this.timer = clock.setTimer(() => this.renew(), CLAIM_BEAT_MS);
  }

  private knock(other: Instance): void {
    const first = this.knocker?.instance.id !== other.id;
    this.knocker = { instance: other, at: this.o.clock.now() };
    if (!first) return;
    this.o.log.warn(
      { other: other.id, host: other.host, base_topic: this.o.topics.base },
      `another dziennik2mqtt (${describeInstance(other)}) knocks at base topic ${this.o.topics.base}: it waits, reading nothing, while this one runs`,
    );
    this.o.other(other);
  }

  /** Stops renewing. */
  release(): void {
    this.timer?.cancel();
    this.holding = undefined;
  }

  /** Stops renewing; a holder still connected clears its claim (its clean stop, before its `offline`), one that lost it leaves the other's. */
  async clear(client: MqttClient): Promise<void> {
    const held = this.held;
    this.release();
    if (held && client.connected) await client.publishAsync(this.o.topics.bridgeClaim, '', { qos: 1, retain: true });
  }

  /**
   * Waits, through a client without a last will, while another instance's claim is renewed: knocks every
   * beat, and resolves once the claim is cleared or stood still for CLAIM_GRACE_MS of connected time.
   * Rejects when `signal` aborts (the bridge stops).
   */
  async wait(client: MqttClient, signal: AbortSignal): Promise<void> {
    const { clock, topics, me, log } = this.o;
    const holder = this.claimedBy;
    if (holder === undefined) return;
    log.warn(
      { other: holder.id, host: holder.host, base_topic: topics.base },
      `base topic ${topics.base} is held by another dziennik2mqtt (${describeInstance(holder)}): this one reads nothing and waits until it stops`,
    );
    this.o.other(holder);
    this.heardAt = clock.now();
    await client.subscribeAsync(topics.bridgeClaim, { qos: 0 }).catch(() => undefined);
    for (;;) {
      // Time away from the broker does not count: no renewal could come.
      if (!client.connected) this.heardAt = clock.now();
      if (this.claimedBy === undefined) break;
      if (clock.now() - this.heardAt > CLAIM_GRACE_MS) break;
      if (client.connected) client.publish(topics.bridgeKnock, JSON.stringify(me), { qos: 0 });
      const woken = new Promise<void>((resolve) => (this.wake = resolve));
      await Promise.race([clock.sleep(CLAIM_BEAT_MS, signal), woken]);
    }
    const why = this.claimedBy === undefined ? 'cleared its claim' : `has not renewed its claim for ${CLAIM_GRACE_MS / 1000} s`;
    log.info({ other: holder.id, base_topic: topics.base }, `the dziennik2mqtt holding base topic ${topics.base} ${why}; taking it over`);
    this.claimedBy = undefined;
    this.o.other(undefined);
  }
}
