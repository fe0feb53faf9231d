// The outputs of the running bridge: the carrier of the bus's events (MQTT), then the list, in the order they are made
// and started (and stopped in reverse): each declared in its own folder with when it runs and how it starts and stops
// (src/outputs/output.ts). A new output is its folder and a line here.
import type { Bus, Carrier, Sink } from '../bus/bus.js';
import type { FiguresSink } from '../features/status/figures.js';
import type { CarrierOutput, MadeOutputs, Output, OutputBridge, OutputKind } from '../outputs/output.js';
import { MQTT, type MqttBridge } from '../outputs/mqtt/output.js';
import { WEB } from '../outputs/web/output.js';
import { MCP_SERVER } from '../outputs/mcp/output.js';
import { HOME_ASSISTANT, HOME_ASSISTANT_STATISTICS, SUPERVISOR_ANNOUNCEMENT } from '../outputs/homeassistant/output.js';
import type { DashboardFileOptions, KnownChild } from './dashboard-file.js';

/** What the App lends its outputs, with what the dashboard file, an output of the app's own, reads. */
export interface AppBridge extends OutputBridge {
  /**
   * `run --dashboard-file FILE`: the dashboard `dziennik2mqtt dashboard` prints, written to FILE at start and again
   * whenever the children it can name change; `addon`: the board is the app's panel.
   */
  dashboardFile?: Pick<DashboardFileOptions, 'file' | 'addon'>;
  /** Each pass runner with its child's id as far as known. */
  known(): KnownChild[];
}

/**
 * `run --dashboard-file FILE`: the dashboard `dziennik2mqtt dashboard` prints, written at start and again whenever
 * what it shows of the children changes: a pass may (a first pass learns the child's name and kind, a module comes
 * or goes), as a child listed late does.
 */
const DASHBOARD_FILE: OutputKind<Output, AppBridge> = {
  name: 'dashboard file',
  runs: (bridge) => bridge.dashboardFile !== undefined,
  make: async ({ dashboardFile, config, log, known }) => {
    const { DashboardFile } = await import('./dashboard-file.js');
    const file = new DashboardFile({ ...(dashboardFile as NonNullable<typeof dashboardFile>), config, log });
    const update = (): Promise<void> => file.update(known());
    return { sink: { passed: () => void update(), removed: () => void update() }, childrenChanged: update, stop: () => file.idle() };
  },
};

/**
 * The output that carries the bus's events: made with the data folder's lease, it holds the base topic before the
 * children are read, takes the commands once the pass runners are made and stops after the passes.
 */
export const CARRIER = MQTT;
/** What the carrier takes of the running bridge. */
export type CarrierBridge = MqttBridge;

/** What a test or the bench gives in the carrier's place: subscribed to the bus (its carrier when it carries events). */
export type GivenCarrier = Sink & Partial<Carrier> & { start(): Promise<void>; stop(): Promise<void> };

/** The carrier: the one a test or the bench gave, else the config's. */
export function carrierOf(bridge: CarrierBridge, given?: GivenCarrier): CarrierOutput {
  return given ? { sink: given, start: () => given.start(), stop: () => given.stop() } : CARRIER.make(bridge);
}

/** The outputs beside the carrier, in order. */
export const OUTPUTS: readonly OutputKind<Output, AppBridge>[] = [
  WEB,
  MCP_SERVER,
  HOME_ASSISTANT,
  HOME_ASSISTANT_STATISTICS,
  SUPERVISOR_ANNOUNCEMENT,
  DASHBOARD_FILE,
];

/** The outputs the config turns on: made and subscribed in the list's order, each a part of the App then. */
export class Outputs implements MadeOutputs {
  private readonly made = new Map<OutputKind<Output, AppBridge>, Output>();
  /** The kinds that run, in the list's order. */
  readonly running: readonly OutputKind<Output, AppBridge>[];

  constructor(private readonly bridge: AppBridge) {
    this.running = OUTPUTS.filter((kind) => kind.runs(bridge));
  }

  /** Each output made and subscribed to the bus, in order: each may use those made before it. */
  async make(bus: Bus): Promise<void> {
    for (const kind of this.running) {
      const output = await kind.make(this.bridge, this);
      this.made.set(kind, output);
      if (output.sink) bus.subscribe(output.sink);
    }
  }

  of<T extends Output>(kind: OutputKind<T>): T | undefined {
    return this.made.get(kind as unknown as OutputKind<Output, AppBridge>) as T | undefined;
  }

  /** What counts the pass runners' figures (the metrics), if an output does. */
  figures(): FiguresSink | undefined {
    return [...this.made.values()].find((output) => output.figures)?.figures;
  }

  /** The outputs' parts of the diagnostics' `bridge` section. */
  status(): Record<string, unknown> {
    return Object.assign({}, ...[...this.made.values()].map((output) => output.status?.() ?? {}));
  }

  /** The children the bridge reads changed: told to each output that shows them. */
  async childrenChanged(): Promise<void> {
    for (const output of this.made.values()) await output.childrenChanged?.();
  }
}
