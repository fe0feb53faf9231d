// Every MQTT topic the bridge publishes or subscribes to, built in one place from the base topic and
// the Home Assistant discovery prefix (interface sections 3 and 4).

/** The device id of the bridge itself in discovery; also the `via_device` of every child. */
export const BRIDGE_DEVICE = 'bridge';

export class Topics {
  constructor(
    readonly base: string,
    readonly discoveryPrefix: string,
  ) {}

  get bridgeState(): string {
    return `${this.base}/bridge/state`;
  }

  get bridgeInfo(): string {
    return `${this.base}/bridge/info`;
  }

  /** The bridge's own health: when it started and its memory (its uptime and memory entities read it). */
  get bridgeHealth(): string {
    return `${this.base}/bridge/health`;
  }

  /** The bridge's own `problem` (what no child's device can carry), and its attributes beside it. */
  get bridgeProblem(): string {
    return `${this.base}/bridge/problem`;
  }

  /** The update entity's state (interface 18.3): the running version and the newest release, when one is known. */
  get bridgeUpdate(): string {
    return `${this.base}/bridge/update`;
  }

  /** A bridge event (not retained, QoS 2): `summary_requested`, which the weekly summary button fires (interface 18.2). */
  bridgeEvent(kind: string): string {
    return `${this.base}/bridge/event/${kind}`;
  }

  /** Who holds this base topic on the broker (the lease's claim, retained, renewed: lease/claim.ts), and where a bridge waiting for it knocks. */
  get bridgeClaim(): string {
    return `${this.base}/bridge/claim`;
  }

  get bridgeKnock(): string {
    return `${this.base}/bridge/knock`;
  }

  /** A topic the `check` command publishes to (not retained): proof that the config's MQTT user may publish. */
  get bridgeCheck(): string {
    return `${this.base}/bridge/check`;
  }

  /** Where bridge requests arrive (`health_check`, `options`, `refresh`), as zigbee2mqtt has them. */
  bridgeRequest(name: string): string {
    return `${this.base}/bridge/request/${name}`;
  }

  bridgeResponse(name: string): string {
    return `${this.base}/bridge/response/${name}`;
  }

  get bridgeRequestFilter(): string {
    return `${this.base}/bridge/request/+`;
  }

  /** The request name of `<base>/bridge/request/<name>`; undefined for any other topic. */
  parseBridgeRequest(topic: string): string | undefined {
    const prefix = `${this.base}/bridge/request/`;
    if (!topic.startsWith(prefix)) return undefined;
    const name = topic.slice(prefix.length);
    return name && !name.includes('/') ? name : undefined;
  }

  availability(child: string): string {
    return `${this.base}/${child}/availability`;
  }

  state(child: string, entity: string): string {
    return `${this.base}/${child}/${entity}`;
  }

  attributes(child: string, entity: string): string {
    return `${this.base}/${child}/${entity}/attributes`;
  }

  event(child: string, kind: string): string {
    return `${this.base}/${child}/event/${kind}`;
  }

  /** A child's event memory, retained (mqtt/told.ts tell): what a bridge taking the base topic over starts from. */
  eventMemory(child: string): string {
    return `${this.base}/${child}/event_memory`;
  }

  /**
   * The entries the bridge made in Home Assistant and what the family deleted there, retained (mqtt/told.ts
   * tellHomeAssistant): what a bridge taking the base topic over starts from, so that it makes none of it again.
   */
  get homeAssistant(): string {
    return `${this.base}/bridge/homeassistant`;
  }

  /** The child of `<base>/<child>/event_memory`; undefined for any other topic. */
  parseEventMemory(topic: string): string | undefined {
    const [base, child, rest, more] = topic.slice(this.base.length).split('/');
    return base === '' && topic.startsWith(this.base) && rest === 'event_memory' && more === undefined ? child : undefined;
  }

  commandSet(child: string, command: string): string {
    return `${this.base}/${child}/${command}/set`;
  }

  commandResult(child: string, command: string): string {
    return `${this.base}/${child}/${command}/result`;
  }

  /** Subscription for every command of every child. */
  get commandSetFilter(): string {
    return `${this.base}/+/+/set`;
  }

  /** Parses `<base>/<child>/<command>/set`; undefined for any other topic. */
  parseCommandSet(topic: string): { child: string; command: string } | undefined {
    const parts = topic.split('/');
    if (parts.length !== 4 || parts[0] !== this.base || parts[3] !== 'set') return undefined;
    const [, child, command] = parts;
    if (!child || !command) return undefined;
    return { child, command };
  }

  /** Home Assistant's birth and last-will topic. */
  get haStatus(): string {
    return `${this.discoveryPrefix}/status`;
  }

  /** The device id used in discovery topics, identifiers and unique ids: `<base>_<child>`. */
  deviceId(child: string): string {
    return `${this.base}_${child}`;
  }

  deviceConfig(child: string): string {
    return `${this.discoveryPrefix}/device/${this.deviceId(child)}/config`;
  }

  /** Subscription matching every device-based discovery config (filtered by payload afterwards). */
  get deviceConfigFilter(): string {
    return `${this.discoveryPrefix}/device/+/config`;
  }

  /** The child id of one of our device config topics, or undefined (other owners, the bridge). */
  parseDeviceConfig(topic: string): string | undefined {
    const prefix = `${this.discoveryPrefix}/device/${this.base}_`;
    if (!topic.startsWith(prefix) || !topic.endsWith('/config')) return undefined;
    const child = topic.slice(prefix.length, -'/config'.length);
    if (!child || child.includes('/') || child === BRIDGE_DEVICE) return undefined;
    return child;
  }
}
