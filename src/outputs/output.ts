// An output, as the running bridge's list holds it (src/app/outputs.ts): each output's folder declares when it runs
// (from the config), how it is made (subscribed to the bus, before any pass publishes) and how it starts and stops.
// The App makes the list's outputs in order, starts each in turn once the pass runners are ready and stops them in the
// reverse order; it names none of them. What an output needs of the bridge (the children, a child's command, the
// broker's figures) it takes from OutputBridge; what it needs of an output before it in the list, from MadeOutputs.
import type { Carrier, Sink } from '../bus/bus.js';
import type { EntityState } from '../engine/state.js';
import type { Config } from '../config/schema.js';
import type { FiguresSink } from '../features/status/figures.js';
import type { HomeAssistantHandover } from './homeassistant/made.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import type { McpActions } from './mcp/calls.js';
import type { Release } from './mqtt/states.js';
import type { Handover } from '../once/handover.js';
import type { PassRunner } from '../runner/account.js';

/**
 * What the running bridge lends its outputs: with what the MCP server acts by (a child's command as its topic would run
 * it, whether the child may write, the reads a question needs: mcp/calls.ts), what else they show or need of it.
 */
export interface OutputBridge extends Required<McpActions> {
  config: Config;
  version: string;
  log: Logger;
  clock: Clock;
  /** Where the web server prints its full URLs on the first start. */
  out: { write(text: string): unknown };
  /**
   * The ingress proxy the web server lets in without the token: main.ts passes the Supervisor's only under the
   * Supervisor (request.ts trustedIngress); a test may put 127.0.0.1. Default: none.
   */
  ingressAddress?: string;
  /**
   * Each pass runner's child id, in the runners' order, undefined while not known yet (no first name, no configured id);
   * `listed`: no `email` entry's children wait to be listed.
   */
  children(): { ids: readonly (string | undefined)[]; listed: boolean };
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

/**
 * The output that carries the bus's events (MQTT, or what a test or the bench gives in its place): made with the data
 * folder's lease before the children are read, it holds its place (`hold`) before anything is read; it is started
 * after the list's outputs and stopped after the passes, within a budget of its own.
 */
export interface CarrierOutput extends Output {
  /** The bus's carrier of events when it carries them; else subscribed as the list's outputs are. */
  sink: Sink & Partial<Carrier>;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Holds where it publishes (MQTT: the base topic), waiting while another bridge does; its stop ends the wait. */
  hold?(): Promise<void>;
  /**
   * The pass runners are made: it takes their commands and the bridge's requests (the array grows with a late child;
   * `runnerOf` finds a child's).
   */
  ready?(runners: readonly PassRunner[], runnerOf: (child: string) => PassRunner | undefined): void;
  /** What the bridge says of itself changed (a child listed late). */
  infoChanged?(): void;
  /** The bridge device's own `problem` changed (app/bridge-problem.ts). */
  problem?(state: EntityState): void;
  /** A newer release was found (app/release-check.ts). */
  release?(release: Release): void;
  /** The broker's side, as OutputBridge lends it. */
  broker?: OutputBridge['broker'];
  /** What a successor on the base topic reads: each child's event memory, what was made in Home Assistant. */
  handover?: Handover & HomeAssistantHandover;
}

/** The carrier's declaration: its name and what it holds (the stop's log lines say them), its stop's budget, how it is made. */
export interface CarrierKind<B> {
  name: string;
  holds: string;
  stopMs: number;
  make(bridge: B): CarrierOutput;
}
