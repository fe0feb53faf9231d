// What the bridge keeps retained on the broker for Home Assistant: the discovery of the bridge and of every
// child (devices.ts), the children's states and availability, and the bridge's own topics (bridge/state,
// bridge/info, bridge/health, its `problem`). Each is set in the retained mirror (mirror.ts) and sent only
// when it changed; all of it goes again after a reconnect, and after Home Assistant's birth message (it
// started again and lost what it was told). Nothing goes while the bridge may not act: not started, the
// broker away, or its lease lapsed (the connection's `live`, connection.ts).
import type { IPublishPacket } from 'mqtt';
import { bridgeDiscovery, type DiscoveryContext } from './discovery.js';
import type { ChildDevice } from '../../features/kit/entities.js';
import type { EntityState } from '../../engine/state.js';
import type { Topics } from './topics.js';
import type { Clock, Timer } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import { MAX_STATUS_BYTES } from './sizes.js';
import { RetainedMirror } from './mirror.js';
import { ChildDevices } from './devices.js';

/** Home Assistant reads attributes only up to this size. */
const MAX_ATTRIBUTES_BYTES = 16 * 1024;

/** What bridge/health holds: the bridge's start (ISO time) and its memory in MB. */
export interface BridgeHealth {
  started_at: string;
  memory_mb: number;
  heap_mb: number;
  /** Seconds this machine's clock is off the portal's (positive: ahead), only when over a minute. */
  clock_skew_s?: number;
}

/** The newest release the project's feed names (app/release-check.ts): its version and the page of its notes. */
export interface Release {
  version: string;
  url: string | undefined;
}

export interface RetainedStatesOptions {
  topics: Topics;
  ctx: DiscoveryContext;
  log: Logger;
  clock: Clock;
  version: string;
  /** The bridge/info payload (no secrets); `version` is added when missing. */
  info: () => Record<string, unknown>;
  /** bridge/health's figures, published again after every pass (with bridge/info, which names what a pass may have learned). */
  health?: () => BridgeHealth;
  /** Ids of the configured children, read at start (devices.ts); `every` keeps every retained device. */
  children: () => readonly string[] | 'every';
  /** Delay between Home Assistant's birth message and the republish (default 2 s). */
  birthDelayMs?: number;
  /** Whether anything may go now (connection.ts `live`). */
  live: () => boolean;
  /** Hands one retained message to the broker (counted until it answers, delivery.ts). */
  publish: (topic: string, payload: string) => void;
}

export class RetainedStates {
  readonly mirror = new RetainedMirror();
  readonly devices: ChildDevices;
  /** Home Assistant's birth heard: everything retained goes again when it fires. */
  private birthTimer: Timer | undefined;
  /** The newest release known, for the update entity (none before the feed answered, or with `updates: false`). */
  private release: Release | undefined;

  constructor(private readonly options: RetainedStatesOptions) {
    this.devices = new ChildDevices({
      topics: options.topics,
      ctx: options.ctx,
      mirror: this.mirror,
      // Read at start: the App names its children after the base topic is held.
      get configured() {
        return options.children();
      },
      log: options.log,
    });
  }

  /** Declares a child's device and entities; published when its discovery changed. */
  device(child: ChildDevice): void {
    this.devices.set(child);
    this.sync();
  }

  /** Removes a child's device from Home Assistant and empties its retained topics (its id changed). */
  removed(childId: string): void {
    this.devices.remove(childId);
    this.sync();
  }

  availability(childId: string, online: boolean): void {
    this.mirror.set(this.options.topics.availability(childId), online ? 'online' : 'offline');
    this.sync();
  }

  /** Retained, sent only when the state or the attributes changed; attributes left out stay as they were. */
  state(childId: string, key: string, state: EntityState): void {
    const device = this.devices.get(childId);
    const { log } = this.options;
    if (device && !device.entities.some((e) => e.key === key)) {
      log.debug({ child: childId, entity: key }, 'state for an entity the child does not have, ignored');
      return;
    }
    const bytes = state.attributes === undefined ? 0 : Buffer.byteLength(JSON.stringify(state.attributes));
    if (bytes > MAX_ATTRIBUTES_BYTES) log.warn({ child: childId, entity: key, bytes }, 'attributes over 16 KB');
    this.setState(this.options.topics.state(childId, key), state);
  }

  /** A state and its attributes (`<topic>/attributes`): attributes first, so an automation triggered by the state change reads the new ones. */
  private setState(topic: string, state: EntityState): void {
    if (state.attributes !== undefined) this.mirror.set(`${topic}/attributes`, JSON.stringify(state.attributes));
    this.mirror.set(topic, state.state ?? 'None');
    this.sync();
  }

  /** A child's pass ended: bridge/info (what it may have learned) and bridge/health again, each only if it changed. */
  passed(): void {
    this.setInfo();
    this.setHealth();
    this.sync();
  }

  /** Sends bridge/info again if info() now says something else. */
  publishInfo(): void {
    this.setInfo();
    this.sync();
  }

  /** bridge/health (retained, sent when it changed): what the bridge device's uptime and memory show. */
  private setHealth(): void {
    const health = this.options.health;
    if (health) this.mirror.set(this.options.topics.bridgeHealth, JSON.stringify(health()));
  }

  /** The bridge's own `problem` (retained, sent when it changed): attributes first, as a child's. */
  setProblem(problem: EntityState): void {
    this.setState(this.options.topics.bridgeProblem, problem);
  }

  /** The newest release the feed names: the update entity offers it when it is newer than the running version. */
  setRelease(release: Release): void {
    this.release = release;
    this.setUpdate();
    this.sync();
  }

  /**
   * bridge/update (retained): the running version, and the newest release with its notes' page. While no release is
   * known (`updates: false`, before the first read, after a failed one) the running version is the latest: Home
   * Assistant's update entity has no state while its latest version is null (components/update: `state`), so it
   * shows "up to date" (off) rather than unknown; the notes' page is then null.
   */
  private setUpdate(): void {
    if (this.options.ctx.update === false) return;
    const { release } = this;
    const state = {
      installed_version: this.options.version,
      latest_version: release?.version ?? this.options.version,
      release_url: release?.url ?? null,
    };
    this.mirror.set(this.options.topics.bridgeUpdate, JSON.stringify(state));
  }

  private setInfo(): void {
    this.mirror.set(this.options.topics.bridgeInfo, JSON.stringify({ version: this.options.version, ...this.options.info() }));
  }

  /** Started: the bridge online, its device, bridge/info and its update's state (sent with the first sync). */
  online(): void {
    this.mirror.set(this.options.topics.bridgeState, 'online');
    const bridge = bridgeDiscovery(this.options.ctx);
    this.mirror.set(bridge.topic, JSON.stringify(bridge.payload));
    this.setInfo();
    this.setUpdate();
    this.setHealth();
  }

  /** Sends what the broker lacks; while offline nothing, as everything goes again on reconnect. */
  sync(): void {
    if (!this.options.live()) return;
    for (const { topic, payload } of this.mirror.take()) this.options.publish(topic, payload);
  }

  /**
   * Home Assistant's birth: a live "online" on its status topic means it started again and lost what it
   * was told, so everything retained is sent again after a short delay (a second birth restarts it). A
   * retained "online" is an old birth; anything longer than a status is not decoded at all (any client
   * of the broker may publish here).
   */
  heardStatus(payload: Buffer, packet: IPublishPacket): void {
    if (packet.retain || payload.length > MAX_STATUS_BYTES || payload.toString('utf8').trim() !== 'online') return;
    this.birthTimer?.cancel();
    this.birthTimer = this.options.clock.setTimer(() => {
      this.birthTimer = undefined;
      this.resendAll('Home Assistant started');
    }, this.options.birthDelayMs ?? 2_000);
  }

  resendAll(why: string): void {
    this.options.log.info(`${why}, republishing`);
    this.mirror.resend();
    this.sync();
  }

  /** The bridge stops: a birth heard no longer sends everything again. */
  stop(): void {
    this.birthTimer?.cancel();
  }

  /** The bridge's own topics as they read with `offline` said (its last words when another took its client id). */
  lastWords(): Array<{ topic: string; payload: string }> {
    const { topics } = this.options;
    this.mirror.set(topics.bridgeState, 'offline');
    return this.mirror.take().filter(({ topic }) => topic.startsWith(`${topics.base}/bridge/`));
  }
}
