// The bus: the one path for what a pass publishes. A child's runner tells it each thing once (a device
// declared, a state, a calendar feed, what the features keep for Assist, availability, an event, the pass's end); every output is a sink
// that subscribes and takes what it needs: MQTT with its discovery, the web server's snapshot of what the
// board, the calendar feeds and the MCP server read, Home Assistant's API and its statistics, the dashboard file. Adding an
// output is a folder that declares it and a line in the list (src/app/outputs.ts); none wraps another.
//
// Events are the one thing with an answer. An event is delivered when its receiver acknowledged it
// (interface 14.4: at its PUBCOMP); the sink that carries events there (MQTT) says so, and the bus passes
// its answer back to the event's outbox (once/). Without a carrier (a test, the bench) an event is
// delivered once every sink was told: no answer to wait for. `delivered()` asks the same of everything handed so
// far: the change feed acknowledges what a pass handled only then.
import type { ChildDevice } from '../features/kit/entities.js';
import type { EntityState, EventPayload } from '../engine/state.js';
import type { CalendarFeedContent, CalendarFeedName } from '../rules/calendar-feeds.js';
import type { YearSeries } from '../engine/series.js';
import type { AskFacts } from '../engine/source.js';
import type { Logger } from '../util/log.js';
import { errorText } from '../util/text.js';

/** An event as its outbox hands it on: its kind (the topic's), its id in the child's memory and its payload. */
export interface BusEvent {
  kind: string;
  id: string;
  payload: EventPayload;
}

/** A child's figures of the school year from one pass: the child's first name and each computing feature's series, by the feature's name. */
export interface ChildYear {
  name: string;
  series: Readonly<Record<string, YearSeries>>;
}

/** What a subscriber takes; every part is optional, and each is called in the order the pass published. */
export interface Sink {
  /** A child's device and its entities, declared (again when they changed): Home Assistant's discovery. */
  device?(child: ChildDevice): void;
  /** A child's device removed (its id changed, or it left the config). */
  removed?(childId: string): void;
  availability?(childId: string, online: boolean): void;
  /** An entity's state; attributes left out stay as they were. */
  state?(childId: string, key: string, state: EntityState): void;
  /** A calendar feed's content as the pass made it (too big for an entity: the web server serves it). */
  calendarFeed?<K extends CalendarFeedName>(childId: string, name: K, content: CalendarFeedContent<K>): void;
  /** The figures of the school year the pass's features computed, day by day: a sink that keeps the year writes them. */
  year?(childId: string, year: ChildYear): void;
  /** What the features that computed kept for Assist, by feature name (SourceResult.ask): the MCP server answers from it. */
  askFacts?(childId: string, facts: AskFacts): void;
  /** An event, as it goes to its carrier. */
  event?(childId: string, event: BusEvent): void;
  /** A child's pass has published everything it found: the moment to act on a batch of changes. */
  passed?(childId: string): void;
}

/** The sink that takes events to a receiver that acknowledges them (the broker). */
export interface Carrier {
  /** True once the receiver acknowledged the event; false when it refused it or it could not go (kept for the next pass). */
  carry(childId: string, event: BusEvent): Promise<boolean>;
  /** True once everything handed so far (states and events) was acknowledged; false at once while the receiver is away. */
  delivered(): Promise<boolean>;
}

export class Bus {
  private readonly sinks = new Set<Sink>();
  private carrier: Carrier | undefined;

  constructor(private readonly log: Logger) {}

  /** A sink hears everything published from now on; the returned function ends that. */
  subscribe(sink: Sink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  /** The sink that delivers events (one at most: MQTT); it is subscribed too. */
  carryWith(carrier: Carrier & Sink): () => void {
    this.carrier = carrier;
    const unsubscribe = this.subscribe(carrier);
    return () => {
      unsubscribe();
      if (this.carrier === carrier) this.carrier = undefined;
    };
  }

  device(child: ChildDevice): void {
    this.tell('device', (sink) => sink.device?.(child));
  }

  removed(childId: string): void {
    this.tell('removed', (sink) => sink.removed?.(childId));
  }

  availability(childId: string, online: boolean): void {
    this.tell('availability', (sink) => sink.availability?.(childId, online));
  }

  state(childId: string, key: string, state: EntityState): void {
    this.tell('state', (sink) => sink.state?.(childId, key, state));
  }

  calendarFeed<K extends CalendarFeedName>(childId: string, name: K, content: CalendarFeedContent<K>): void {
    this.tell('calendar feed', (sink) => sink.calendarFeed?.(childId, name, content));
  }

  year(childId: string, year: ChildYear): void {
    this.tell('year', (sink) => sink.year?.(childId, year));
  }

  askFacts(childId: string, facts: AskFacts): void {
    this.tell('askFacts', (sink) => sink.askFacts?.(childId, facts));
  }

  passed(childId: string): void {
    this.tell('passed', (sink) => sink.passed?.(childId));
  }

  /**
   * An event, told to every sink and carried: resolves with the carrier's answer; undefined without a
   * carrier, when it was delivered as it was told (the outbox then lets a pass's events go in one write).
   */
  event(childId: string, event: BusEvent): Promise<boolean> | undefined {
    this.tell('event', (sink) => sink.event?.(childId, event));
    return this.carrier?.carry(childId, event);
  }

  /** Whether everything handed so far was acknowledged (true without a carrier). */
  delivered(): Promise<boolean> {
    return this.carrier?.delivered() ?? Promise.resolve(true);
  }

  /** One sink's failure is its own: logged, and the others still hear it. */
  private tell(what: string, call: (sink: Sink) => void): void {
    for (const sink of [...this.sinks]) {
      try {
        call(sink);
      } catch (error) {
        this.log.warn({ err: errorText(error), publication: what }, 'an output failed to take what a pass published');
      }
    }
  }
}
