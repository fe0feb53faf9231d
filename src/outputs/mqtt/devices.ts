// The children's devices as Home Assistant knows them: their discovery, the entities dropped since (kept
// reduced so HA removes them), and what an earlier run left retained for children and entities gone (a
// removed child's event memory too: nothing of it stays retained).
import { childDiscovery, type DiscoveryContext } from './discovery.js';
import type { ChildDevice } from '../../features/kit/entities.js';
import { BRIDGE_DEVICE, type Topics } from './topics.js';
import { STATEFUL_PLATFORMS, type EntityDef } from '../../features/kit/entities.js';
import type { Logger } from '../../util/log.js';
import type { RetainedMirror } from './mirror.js';
import type { RetainedDevice } from './retained.js';

export interface ChildDevicesOptions {
  topics: Topics;
  ctx: DiscoveryContext;
  mirror: RetainedMirror;
  /** Ids of the configured children (known before their names are); `every`: no retained device is stale. */
  configured: readonly string[] | 'every';
  log: Logger;
}

interface ChildEntry {
  device: ChildDevice;
  /** Entities dropped while running, kept in discovery reduced to their platform so HA removes them. */
  removed: Map<string, EntityDef>;
}

export class ChildDevices {
  private readonly children = new Map<string, ChildEntry>();
  /** Retained devices an earlier run left, by child id, until the child is set again. */
  private readonly previous = new Map<string, RetainedDevice>();
  /** The same devices as the broker held them at start, kept until the child is removed (its id changed). */
  private readonly leftAtStart = new Map<string, RetainedDevice>();

  constructor(private readonly options: ChildDevicesOptions) {}

  /** The device of a child set so far. */
  get(childId: string): ChildDevice | undefined {
    return this.children.get(childId)?.device;
  }

  /** Declares a child's device and entities; published when its discovery changed. */
  set(child: ChildDevice): void {
    if (child.id === BRIDGE_DEVICE) throw new Error(`"${BRIDGE_DEVICE}" cannot be a child id: it is the bridge's own topic`);
    const entry: ChildEntry = this.children.get(child.id) ?? { device: child, removed: new Map() };
    const keys = new Set(child.entities.map((e) => e.key));
    const dropped = entry.device.entities.filter((e) => !keys.has(e.key));
    entry.device = child;
    this.children.set(child.id, entry);
    for (const entity of dropped) entry.removed.set(entity.key, entity);
    for (const entity of child.entities) entry.removed.delete(entity.key);
    this.setDiscovery(
      entry,
      dropped.flatMap((e) => this.entityTopics(child.id, e)),
    );
  }

  /** Removes a child's device from Home Assistant and empties its retained topics (its id changed). */
  remove(childId: string): void {
    // What an earlier run left retained, also what this run never published (a device named by its login
    // whose wrong password kept `problem` ON, renamed once the password works).
    const retained = this.leftAtStart.get(childId);
    this.children.delete(childId);
    this.previous.delete(childId);
    this.leftAtStart.delete(childId);
    this.options.mirror.clear(this.options.topics.deviceConfig(childId));
    this.options.mirror.clearUnder(`${this.options.topics.base}/${childId}/`);
    this.options.mirror.clear(this.options.topics.availability(childId));
    this.options.mirror.clear(this.options.topics.eventMemory(childId));
    for (const component of retained?.components.values() ?? []) for (const t of component.retainedTopics) this.options.mirror.clear(t);
  }

  /** The child's discovery, with what an earlier run left reconciled; the reduced config goes out before `clears` (and those) are emptied, so HA drops the entity first. */
  private setDiscovery(entry: ChildEntry, clears: string[] = []): void {
    clears.push(...this.reconcile(entry));
    const message = childDiscovery(entry.device, this.options.ctx, [...entry.removed.values()]);
    this.options.mirror.set(message.topic, JSON.stringify(message.payload));
    for (const topic of clears) this.options.mirror.clear(topic);
  }

  /** An entity's retained topics: state and attributes for sensors, none for buttons and events. */
  private entityTopics(child: string, entity: Pick<EntityDef, 'key' | 'platform'>): string[] {
    if (!STATEFUL_PLATFORMS.includes(entity.platform)) return [];
    return [this.options.topics.state(child, entity.key), this.options.topics.attributes(child, entity.key)];
  }

  /**
   * Components the retained config of an earlier run had and the child no longer has: kept as removed
   * components (HA deletes them) and their retained topics returned for clearing.
   */
  private reconcile(entry: ChildEntry): string[] {
    const retained = this.previous.get(entry.device.id);
    if (!retained) return [];
    this.previous.delete(entry.device.id);
    const keys = new Set(entry.device.entities.map((e) => e.key));
    const clears: string[] = [];
    for (const [key, component] of retained.components) {
      if (keys.has(key)) continue;
      entry.removed.set(key, { key, platform: component.platform, name: { en: key, pl: key, uk: key } });
      clears.push(...component.retainedTopics);
    }
    return clears;
  }

  isKnown(child: string): boolean {
    const { configured } = this.options;
    return this.children.has(child) || configured === 'every' || configured.includes(child);
  }

  commandsOf(child: string): ReadonlySet<string> | undefined {
    const entry = this.children.get(child);
    if (entry) return new Set(entry.device.entities.flatMap((e) => (e.command ? [e.command.key] : [])));
    return this.isKnown(child) ? new Set() : undefined;
  }

  /**
   * Children no longer configured lose their device, retained states, availability and event memory; known ones are
   * reconciled against their current entities. Sent with the first sync.
   */
  removeStale(devices: readonly RetainedDevice[]): void {
    for (const device of devices) {
      if (this.isKnown(device.child)) {
        this.previous.set(device.child, device);
        this.leftAtStart.set(device.child, device);
        const entry = this.children.get(device.child);
        if (entry) this.setDiscovery(entry);
        continue;
      }
      this.options.log.info({ child: device.child }, 'removing a child no longer configured');
      this.options.mirror.clear(this.options.topics.deviceConfig(device.child));
      for (const component of device.components.values()) for (const t of component.retainedTopics) this.options.mirror.clear(t);
      this.options.mirror.clear(this.options.topics.availability(device.child));
      this.options.mirror.clear(this.options.topics.eventMemory(device.child));
    }
  }
}
