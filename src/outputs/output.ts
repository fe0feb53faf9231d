// An output, as the running bridge's list holds it (src/app/outputs.ts): each output's folder declares when it runs
// (from the config), how it is made (subscribed to the bus, before any pass publishes) and how it starts and stops.
// The App makes the list's outputs in order, starts each in turn once the pass runners are ready and stops them in the
// reverse order; it names none of them. What an output needs of the bridge (the children, a child's command, the
// broker's figures) it takes from OutputBridge; what it needs of an output before it in the list, from MadeOutputs.
import type { Sink } from '../bus/bus.js';
import type { Config } from '../config/schema.js';
import type { FiguresSink } from '../features/status/figures.js';
import type { HomeAssistantHandover } from './homeassistant/made.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import type { Want } from '../engine/resource.js';
import type { OnDemandOutcome } from '../engine/on-demand.js';

/** What the running bridge lends its outputs. */
export interface OutputBridge {
  config: Config;
  version: string;
  log: Logger;
  clock: Clock;
  /** Where the web server prints its full URLs on the first start. */
  out: { write(text: string): unknown };
  /** The ingress proxy the web server lets in without the token (none but under the Supervisor, or a test's). */
  ingressAddress: string | undefined;
  /**
   * Each pass runner's child id, in the runners' order, undefined while not known yet (no first name, no configured id);
   * `listed`: no `email` entry's children wait to be listed.
   */
  children(): { ids: readonly (string | undefined)[]; listed: boolean };
  /** One of a child's commands as its topic would run it (open_message, write); rejects with the refusal. */
  command(child: string, command: string, payload: string): Promise<Record<string, unknown>>;
  /** Whether the config lets a child's account write to teachers (write_messages). */
  writes(child: string): boolean;
  /** Reads what a person asked for that the bridge does not hold, in the child's queue (engine/on-demand.ts). */
  reach(child: string, wants: readonly Want[]): Promise<OnDemandOutcome>;
  /** The diagnostics bundle of the running bridge. */
  diagnostics(): Promise<string>;
  /** The broker's side: whether it is connected (true without one) and how many messages were handed to it. */
  broker: { connected(): boolean; publishes(): number };
  /** What was made in Home Assistant, told on with the base topic (the MQTT sink); none: kept in data_dir alone. */
  handover(): HomeAssistantHandover | undefined;
}

/** An output made: what it takes from the bus, how it starts and stops, what it adds to the diagnostics. */
export interface Output {
  /** Subscribed to the bus when the output is made (before the pass runners publish what the last run kept). */
  sink?: Sink;
  /** Begins its I/O (a server listening, a first look), in the list's order, before MQTT connects. */
  start?(): Promise<void> | void;
  stop?(): Promise<void> | void;
  /** Its part of the diagnostics' `bridge` section. */
  status?(): Record<string, unknown>;
  /** Resolves when nothing it does is under way (a test waits for it as for a pass). */
  idle?(): Promise<void>;
  /** What counts each pass runner's figures (the metrics). */
  figures?: FiguresSink;
  /** The children the bridge reads changed (a runner added, its first pass named it): the dashboard file. */
  childrenChanged?(): Promise<void>;
}

/** What the outputs made before one in the list are, by their kind. */
export interface MadeOutputs {
  of<T extends Output>(kind: OutputKind<T>): T | undefined;
}

/** An output's declaration: its name (the stop's log line says it), when it runs, and how it is made. */
export interface OutputKind<T extends Output = Output, B extends OutputBridge = OutputBridge> {
  name: string;
  runs(bridge: B): boolean;
  /**
   * Waits on something outside (a page's connection, Home Assistant, the Supervisor): its stop is awaited only within
   * the stop's budget, then abandoned (interface 16.1).
   */
  abandonable?: true;
  /** Made in the list's order; loads its modules only then (a bridge without it never loads them). */
  make(bridge: B, made: MadeOutputs): Promise<T>;
}
