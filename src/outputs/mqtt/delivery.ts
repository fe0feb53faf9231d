// The broker's answers to what the bridge handed it (a PUBACK, for events a PUBCOMP), counted in order,
// so that "has the broker accepted everything handed so far?" can be waited for: the change feed acknowledges a
// change only then (engine/change-feed/child.ts, sortChanges). A refusal, the connection closing or the bridge stopping
// answers no. An event is answered on its own, once the broker acknowledged it (PUBCOMP; its event memory
// keeps it until then, once/outbox.ts); one the kept session holds from an earlier run by the session.
// At most the broker's receive maximum of them are in flight (MQTT 5, 4.9): the rest wait their turn in order,
// so a pass of 60 events is not 40 refused by a broker that takes 20 at once.
import type { IClientPublishOptions, MqttClient } from 'mqtt';
import type { Logger } from '../../util/log.js';
import type { MqttSession } from '../../once/session.js';

interface Waiter {
  /** The last publish it waits for. */
  upTo: number;
  /** Refusals before it began: one more is a no. */
  refusedBefore: number;
  resolve: (accepted: boolean) => void;
}

class Acks {
  private count = 0;
  /** Publishes handed and not answered, by number (ascending: a Set keeps the order they were added). */
  private readonly open = new Set<number>();
  private refused = 0;
  private waiters: Waiter[] = [];

  /** A publish handed to mqtt.js: call what this returns with the broker's answer. */
  handed(): (accepted: boolean) => void {
    const n = ++this.count;
    this.open.add(n);
    return (accepted) => {
      if (!this.open.delete(n)) return;
      if (!accepted) this.refused++;
      this.settle();
    };
  }

  /** Resolves true once every publish handed so far was accepted; false on a refusal meanwhile, or away(). */
  all(): Promise<boolean> {
    return new Promise((resolve) => {
      this.waiters.push({ upTo: this.count, refusedBefore: this.refused, resolve });
      this.settle();
    });
  }

  /** The broker is away (or the bridge stops): whoever waits hears no at once. */
  away(): void {
    for (const waiter of this.waiters.splice(0)) waiter.resolve(false);
  }

  private settle(): void {
    const oldest = this.open.values().next().value ?? Infinity;
    this.waiters = this.waiters.filter((waiter) => {
      if (oldest <= waiter.upTo) return true;
      waiter.resolve(this.refused === waiter.refusedBefore);
      return false;
    });
  }
}

/**
 * How many QoS 1 and 2 publishes the broker takes unanswered: its receive maximum, as its MQTT 5 CONNACK says
 * (65,535 when it names none). A broker that cannot say (MQTT 3.1.1, or not connected yet) is taken to be
 * Mosquitto with its default of 20: past it, Mosquitto 2.0 acknowledges a 3.1.1 client's QoS 2 publish and drops it.
 */
export function receiveMaximum(client: MqttClient): number {
  if (!client.connected || client.options.protocolVersion !== 5) return 20;
  return client.serverProperties?.receiveMaximum ?? 65_535;
}

/** Publishes in flight (handed to mqtt.js, not answered yet), at most `limit()`; the rest wait their turn in order. */
class Turns {
  private flying = 0;
  private readonly waiting: Array<(go: boolean) => void> = [];

  constructor(private readonly limit: () => number) {}

  /** Calls go(true) once a publish may be handed, now if it may (call done() at its answer); go(false) if the bridge stops first. */
  take(go: (may: boolean) => void): void {
    this.waiting.push(go);
    this.next();
  }

  done(): void {
    this.flying--;
    this.next();
  }

  /** A publish in flight that was not handed here (the kept session's, sent again by mqtt.js): its turn ends at its answer. */
  occupy(answered: Promise<unknown>): void {
    this.flying++;
    void answered.finally(() => this.done());
  }

  /** The bridge stops: whoever waits for a turn hears no. */
  drop(): void {
    for (const go of this.waiting.splice(0)) go(false);
  }

  private next(): void {
    for (let go = this.waiting[0]; go && this.flying < this.limit(); go = this.waiting[0]) {
      this.waiting.shift();
      this.flying++;
      go(true);
    }
  }
}

/** The bridge's publishes, counted until the broker answers; events before the first connection wait for it. */
export class Deliveries {
  private readonly acks = new Acks();
  private readonly turns = new Turns(() => {
    const client = this.client();
    return client ? receiveMaximum(client) : 0;
  });
  private early: Array<{ topic: string; payload: string; id?: string; answer: (accepted: boolean) => void }> | undefined = [];
  /** Messages handed to the broker since start (the metrics). */
  sent = 0;
  /** The kept session, once the bridge has opened it. */
  session: MqttSession | undefined;

  constructor(
    private readonly client: () => MqttClient | undefined,
    private readonly log: Logger,
    /** The broker refused a topic (an MQTT 5 reason code of 128 or more; a lost connection has none). */
    private readonly refused: (topic: string, code: number) => void,
  ) {}

  /** Resolves with the error, or undefined once the broker accepted it. */
  publish(topic: string, payload: string, options: IClientPublishOptions): Promise<Error | undefined> {
    const client = this.client();
    if (!client) return Promise.resolve(new Error('not connected'));
    this.sent++;
    const answer = this.acks.handed();
    return new Promise((resolve) =>
      this.hand(client, topic, payload, options, (err) => {
        answer(!err);
        const code = (err as { code?: unknown } | undefined)?.code;
        if (typeof code === 'number' && code >= 0x80) this.refused(topic, code);
        else if (err) this.log.debug({ err, topic }, 'publish failed (sent again after reconnecting)');
        resolve(err);
      }),
    );
  }

  /**
   * A publish nothing waits for (a command's result, a retained command deleted): in its turn as every other, but
   * not counted in all(); `answered` hears the broker's answer. False when not connected.
   */
  send(topic: string, payload: string, options: IClientPublishOptions, answered: (err: Error | undefined) => void): boolean {
    const client = this.client();
    if (!client) return false;
    this.hand(client, topic, payload, options, answered);
    return true;
  }

  /** Hands a publish to mqtt.js in its turn (at most the broker's receive maximum in flight); `answered` hears how it went. */
  private hand(client: MqttClient, topic: string, payload: string, options: IClientPublishOptions, answered: (err: Error | undefined) => void): void {
    this.turns.take((may) => {
      if (!may) return answered(new Error('the bridge stopped'));
      client.publish(topic, payload, options, (err) => {
        this.turns.done();
        answered(err ?? undefined);
      });
    });
  }

  /**
   * An event (QoS 2, not retained), by its id in the event memory: true once the broker acknowledged it
   * (PUBCOMP), also one the kept session held from before a restart; before the first connection it waits for it.
   */
  event(topic: string, payload: string, id?: string): Promise<boolean> {
    const session = id === undefined ? undefined : this.session;
    const held = id === undefined ? undefined : session?.outcome(id);
    if (held) return held;
    if (this.early !== undefined) return new Promise((answer) => this.early?.push({ topic, payload, id, answer }));
    // A broker that says it takes no QoS 2 (MQTT 5's maximum QoS: AWS IoT and the like) gets QoS 1, at least once.
    const qos = (this.client()?.serverProperties?.maximumQoS ?? 2) < 2 ? 1 : 2;
    const unexpect = id === undefined || qos < 2 ? undefined : session?.expect(topic, payload, id);
    return this.publish(topic, payload, { qos, retain: false }).then((err) => {
      unexpect?.();
      const refused = typeof (err as { code?: unknown } | undefined)?.code === 'number';
      if (err)
        this.log.warn(
          { err: err.message, topic },
          `event not delivered${refused ? ': the broker refused it' : ''} (kept for the next pass or start)`,
        );
      return err === undefined;
    });
  }

  /** Connected for the first time: the events the kept session held from an earlier run went again, in flight as well. */
  resent(): void {
    for (const held of this.session?.held() ?? []) this.turns.occupy(held);
  }

  /** Connected for the first time: the events that waited go. */
  started(): void {
    const early = this.early ?? [];
    this.early = undefined;
    for (const { topic, payload, id, answer } of early) void this.event(topic, payload, id).then(answer);
  }

  /** True once every publish handed so far was accepted; false on a refusal meanwhile, on away(), or after `ms`. */
  all(setTimer: (run: () => void, ms: number) => { cancel(): void }, ms: number): Promise<boolean> {
    const timer = setTimer(() => this.acks.away(), ms);
    return this.acks.all().finally(() => timer.cancel());
  }

  /** The broker is away, or the bridge stops: whoever waits hears no, and so do the events still waiting for a first connection. */
  away(stopping = false): void {
    this.acks.away();
    if (!stopping) return;
    this.turns.drop();
    for (const { answer } of this.early ?? []) answer(false);
    this.early = [];
  }
}
