// The carrier of events (bus.ts Carrier): each event goes at QoS 2, not retained, through the session kept in
// data_dir (once/session.ts), so that it reaches the broker once even across a kill, and is answered once the
// broker acknowledged it (its PUBCOMP: delivered, and only then does it leave its outbox, once/outbox.ts).
// Nothing goes while the bridge is stopped or its lease lapsed: the event stays in its outbox for the next
// pass or start. Whether everything handed so far, states included, was accepted is asked here too: the
// change feed acknowledges a change only then.
import type { BusEvent } from '../../bus/bus.js';
import type { Topics } from './topics.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';
import type { Deliveries } from './delivery.js';
import { MqttSession } from '../../once/session.js';
import type { SeenStore } from '../../once/memory.js';
import { STOP_TIMEOUT_MS, type BrokerConnection } from './connection.js';

export interface EventCarrierOptions {
  topics: Topics;
  log: Logger;
  clock: Clock;
  /** What the broker has to answer yet, and who waits for it. */
  deliveries: Deliveries;
  connection: BrokerConnection;
  /** Sends the retained topics the broker lacks (states.ts), before delivered() waits for them. */
  sync: () => void;
}

export class EventCarrier {
  /** The kept session (session.ts), with a lease. */
  session: MqttSession | undefined;

  constructor(private readonly options: EventCarrierOptions) {}

  /** Opens the session kept in the data folder: events then go under its client id, once across a kill. */
  async open(dataDir: string): Promise<MqttSession> {
    const session = await MqttSession.open(dataDir, this.options.log);
    this.session = session;
    this.options.deliveries.session = session;
    return session;
  }

  /**
   * QoS 2, not retained, once even across a kill (session.ts); while the broker is away mqtt.js keeps it.
   * Resolves true once the broker acknowledged it (PUBCOMP), false when it refused it or it was not sent
   * (a stop came first, or the lease lapsed). Its id is the event's in its memory.
   */
  carry(childId: string, { kind, payload, id }: BusEvent): Promise<boolean> {
    const { connection, log } = this.options;
    if (connection.stopped || (connection.ready && connection.claim?.alive === false)) {
      log.debug({ child: childId, kind }, 'event not sent: this bridge is stopped, or its lease lapsed (kept for the next pass or start)');
      return Promise.resolve(false);
    }
    return this.options.deliveries.event(this.options.topics.event(childId, kind), JSON.stringify(payload), id);
  }

  /**
   * True once the broker accepted every state and event handed to it so far; false at once while it is
   * away (or when one was refused, or no answer came within STOP_TIMEOUT_MS).
   */
  delivered(): Promise<boolean> {
    const { connection, clock } = this.options;
    if (!connection.ready || !connection.connected) return Promise.resolve(false);
    this.options.sync();
    return this.options.deliveries.all((run, ms) => clock.setTimer(run, ms), STOP_TIMEOUT_MS);
  }

  /** A child's event memory as the kept session holds it (its events' packets are written into it); none without a lease. */
  memory(childId: string): SeenStore | undefined {
    return this.session?.memoryOf(childId);
  }
}
