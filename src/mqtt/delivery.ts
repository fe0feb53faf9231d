// The broker's answers to what the bridge handed it (QoS 1: a PUBACK each), counted in order, so that
// "has the broker accepted everything handed so far?" can be waited for: the feed acknowledges a change
// only then (feed/acknowledge.ts). A refusal, the connection closing or the bridge stopping answers no.
// Events are answered one by one too (the event outbox keeps each until the broker took it).
import type { IClientPublishOptions, MqttClient } from 'mqtt';
import type { Logger } from '../util/log.js';

const TRANSIENT: IClientPublishOptions = { qos: 1, retain: false };

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

/** The bridge's publishes, counted until the broker answers; events before the first connection wait for it. */
export class Deliveries {
  private readonly acks = new Acks();
  private early: Array<{ topic: string; payload: string; answer: (accepted: boolean) => void }> | undefined = [];
  /** Messages handed to the broker since start (the metrics). */
  sent = 0;

  constructor(
    private readonly client: () => MqttClient | undefined,
    private readonly log: Logger,
  ) {}

  /** Resolves with the error, or undefined once the broker accepted it. */
  publish(topic: string, payload: string, options: IClientPublishOptions): Promise<Error | undefined> {
    const client = this.client();
    if (!client) return Promise.resolve(new Error('not connected'));
    this.sent++;
    const answer = this.acks.handed();
    return new Promise((resolve) =>
      client.publish(topic, payload, options, (err) => {
        answer(!err);
        resolve(err ?? undefined);
      }),
    );
  }

  /** An event (QoS 1, not retained): true once the broker accepted it; before the first connection it waits for it. */
  event(topic: string, payload: string): Promise<boolean> {
    if (this.early !== undefined) return new Promise((answer) => this.early?.push({ topic, payload, answer }));
    return this.publish(topic, payload, TRANSIENT).then((err) => {
      if (err) this.log.warn({ err: err.message, topic }, 'event not delivered (kept for the next pass or start)');
      return err === undefined;
    });
  }

  /** Connected for the first time: the events that waited go. */
  started(): void {
    const early = this.early ?? [];
    this.early = undefined;
    for (const { topic, payload, answer } of early) void this.event(topic, payload).then(answer);
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
    for (const { answer } of this.early ?? []) answer(false);
    this.early = [];
  }
}
