// MQTT, the output that carries the bus's events (app/outputs.ts CARRIER): made with the data folder's lease before
// the children are read, it holds the base topic (a second bridge on it waits there), carries each event to the
// broker, takes the children's commands and the bridge's requests once the pass runners are made, and says the
// bridge device's info, health, problem and newest release.
import type { Refusal } from './refusal.js';
import type { CarrierKind, OutputBridge } from '../output.js';
import type { Lease } from '../../lease/lease.js';
import type { BridgeHealth } from './states.js';
import { MqttSink, type MqttSinkOptions } from './sink.js';
import { registerBridgeRequests, registerChildCommands } from './requests.js';

/** What MQTT takes of the running bridge, beside what every output does. */
export interface MqttBridge
  extends Pick<OutputBridge, 'config' | 'version' | 'log' | 'clock'>,
    Pick<MqttSinkOptions, 'reconnect' | 'protocolVersion'> {
  /** The data folder's lease: the broker's session is kept there, and the base topic claimed under it. */
  lease: Lease;
  /** bridge/info and bridge/health as they read now. */
  info(): Record<string, unknown>;
  health(): BridgeHealth;
  /** The children's ids known so far (once the base topic is held and the children are read). */
  childIds(): string[];
  /** What the bridge device's `problem` says of the broker (app/bridge-problem.ts). */
  problems: {
    broker(topic: string, reason: NonNullable<Refusal['problem']>): void;
    baseTopic(other: string | undefined): void;
    clientId(other: string): void;
  };
  /** This bridge stopped acting: another took its base topic over, or its client id (`idle`: it stays up, idle). */
  lose(why: string, idle: boolean): void;
}

export const MQTT: CarrierKind<MqttBridge> = {
  name: 'MQTT',
  holds: 'base topic',
  // `offline` said and the claim given up, else the lease is released all the same.
  stopMs: 2_000,
  make(bridge) {
    const { config, problems } = bridge;
    const sink = new MqttSink({
      mqtt: config.mqtt,
      brokerFrom: config.brokerFrom,
      version: bridge.version,
      log: bridge.log.child({ part: 'mqtt' }),
      language: config.language,
      update: config.supervisor === undefined,
      reconnect: bridge.reconnect,
      protocolVersion: bridge.protocolVersion,
      info: () => bridge.info(),
      health: () => bridge.health(),
      get children() {
        return bridge.childIds();
      },
      clock: bridge.clock,
      onRefused: (topic, reason) => problems.broker(topic, reason),
      lease: {
        folder: bridge.lease,
        other: (other) => problems.baseTopic(other),
        lost: (why, taken) => {
          if (taken !== undefined) problems.clientId(taken);
          bridge.lose(why, taken !== undefined);
        },
      },
    });
    let dropRequests = (): void => undefined;
    return {
      sink,
      hold: () => sink.acquire(),
      start: () => sink.start(),
      stop: () => {
        dropRequests();
        return sink.stop();
      },
      ready: (runners, runnerOf) => {
        registerChildCommands(sink, runnerOf);
        dropRequests = registerBridgeRequests(sink, { runners, log: bridge.log, clock: bridge.clock, onLevelChange: () => sink.publishInfo() });
      },
      infoChanged: () => sink.publishInfo(),
      problem: (state) => sink.setProblem(state),
      release: (release) => sink.setRelease(release),
      broker: { connected: () => sink.connected, publishes: () => sink.publishes },
      handover: sink,
    };
  },
};
