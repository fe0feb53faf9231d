// What this bridge tells on its base topic for a bridge that takes it over later, and what it reads there of
// the one it took over from (the handover, once/handover.ts): each child's event memory as saved, and what it
// made and the family deleted in Home Assistant (the keeper's). Each record is retained, signed with this
// installation and its fence. Only the installation whose claim this bridge replaced is trusted: a record
// anyone else wrote is logged by its writer, never adopted and, while running, written over with this
// bridge's own (one this bridge has none of: emptied). The records go with the other retained topics
// (states.ts), through the same mirror.
import type { Topics } from './topics.js';
import type { Logger } from '../../util/log.js';
import { byPredecessor, describeWriter, readTold, writerGiven, writerOf, type ToldMemory } from '../../once/handover.js';
import { describeHolder, type LeaseRecord } from '../../lease/lease.js';
import type { RetainedMirror } from './mirror.js';

export interface ToldOptions {
  topics: Topics;
  log: Logger;
  /** What the broker should hold retained for this bridge (states.ts keeps the rest of it). */
  mirror: RetainedMirror;
  /** Sends what the mirror holds that the broker lacks. */
  sync: () => void;
  /** Whether this bridge has the child (its device declared now or at start). */
  hasChild: (childId: string) => boolean;
  /** This bridge's lease record: whose its records are, and under which fence; none: a test's bridge, unsigned. */
  record: () => LeaseRecord | undefined;
}

export class ToldRecords {
  /** What the installation whose claim this bridge replaced told, by topic, read while waiting for the base topic. */
  private readonly predecessors = new Map<string, unknown>();
  /** That installation (its claim as this bridge found it), if another; and the writers of other records already logged, by topic. */
  private handedBy: LeaseRecord | undefined;
  private readonly strangers = new Set<string>();
  /** While waiting for the base topic: each record by writer, the last of each, until whose to trust is known. */
  private readonly waiting = new Map<string, Map<string | undefined, ToldMemory>>();

  constructor(private readonly options: ToldOptions) {}

  /** The topics of the records: read while waiting for the base topic. */
  get filters(): string[] {
    const { topics } = this.options;
    return [topics.eventMemory('+'), topics.homeAssistant];
  }

  /** A message heard while waiting for the base topic: false when it is not a record's (the claim's, then). */
  heardWaiting(topic: string, payload: Buffer): boolean {
    if (this.here(topic) === undefined) return false;
    const told = readTold(payload);
    if (told === undefined) return true;
    const writers = this.waiting.get(topic) ?? new Map<string | undefined, ToldMemory>();
    this.waiting.set(topic, writers.set(told.by, told));
    return true;
  }

  /**
   * The wait ended; `from`: the installation whose claim this bridge replaced, if another. Its records are
   * adopted, anyone else's logged; Home Assistant's entries go on with the base topic, told on as this
   * bridge's own until its keeper tells more (or without one).
   */
  settle(from: LeaseRecord | undefined): void {
    this.handedBy = from;
    for (const [topic, writers] of this.waiting)
      for (const told of writers.values()) {
        if (byPredecessor(told, from)) this.predecessors.set(topic, told.memory);
        else if (told.by !== this.me) this.stranger(topic, told, 'not adopted');
      }
    this.waiting.clear();
    const entries = this.predecessors.get(this.options.topics.homeAssistant);
    if (entries !== undefined) this.tellHomeAssistant(entries);
    if (!from) return;
    const said = `base topic ${this.options.topics.base} was another installation's since this one held it: taking over from what it told`;
    this.options.log.info({ from: describeHolder(from) }, said);
  }

  /** A child's event memory as saved, told on (retained) for a bridge that takes the base topic over later. */
  tell(childId: string, memory: unknown): void {
    this.options.mirror.set(this.options.topics.eventMemory(childId), this.signed(memory));
    this.options.sync();
  }

  /** What another installation that held the base topic told of a child's event memory, if anything. */
  told(childId: string): unknown {
    return this.predecessors.get(this.options.topics.eventMemory(childId));
  }

  /**
   * What the bridge made in Home Assistant and what the family deleted there, as the keeper keeps it, told
   * on (retained) for a bridge that takes the base topic over later; undefined: none (a record left there is emptied).
   */
  tellHomeAssistant(told: unknown): void {
    const { mirror, topics } = this.options;
    if (told === undefined) {
      if (mirror.desires(topics.homeAssistant)) mirror.clear(topics.homeAssistant);
    } else mirror.set(topics.homeAssistant, this.signed(told));
    this.options.sync();
  }

  /**
   * After a handover from another installation: what it told of its entries in Home Assistant (undefined
   * when it told nothing). Undefined when this bridge held the base topic last (or has no lease).
   */
  homeAssistantTold(): { told: unknown } | undefined {
    return this.handedBy && { told: this.predecessors.get(this.options.topics.homeAssistant) };
  }

  /**
   * A message heard while running: false when it is not a record's. Another's record is logged (but the
   * predecessor's) and written over with this bridge's own; one this bridge has none of (a child it does
   * not have, no entries) is emptied, whoever wrote it.
   */
  heard(topic: string, payload: Buffer): boolean {
    const here = this.here(topic);
    if (here === undefined) return false;
    const { mirror } = this.options;
    // Its own, back from the broker (MQTT 3.1.1 has no "no local"): not read again.
    if (mirror.holds(topic, payload.toString())) return true;
    const told = readTold(payload);
    if (told === undefined) return true;
    const ours = told.by === this.me;
    const { known } = here;
    if (!ours && !byPredecessor(told, this.handedBy)) this.stranger(topic, told, known ? "this bridge's own is published again" : 'emptied');
    if (mirror.desires(topic)) {
      if (!ours) mirror.again(topic);
    } else if (!known) mirror.clear(topic);
    this.options.sync();
    return true;
  }

  /** The installation and place whose records this bridge tells (a successor adopts only its predecessor's). */
  private get me(): string | undefined {
    const record = this.options.record();
    return record && writerOf(record);
  }

  /** A record as this bridge tells it: its writer, its fence and what it holds. */
  private signed(memory: unknown): string {
    return JSON.stringify({ by: this.me, fence: this.options.record()?.fence, memory });
  }

  /**
   * What a record on this topic holds: a child's event memory (and whether this bridge has the child), or what
   * it made and the family deleted in Home Assistant; undefined for any other topic.
   */
  private here(topic: string): { what: string; child?: string; known: boolean } | undefined {
    const { mirror, topics } = this.options;
    if (topic === topics.homeAssistant)
      return { what: "the retained record of the bridge's entries in Home Assistant", known: mirror.desires(topic) };
    const child = topics.parseEventMemory(topic);
    if (child === undefined) return undefined;
    return { what: `the retained event memory of ${child}`, child, known: mirror.desires(topic) || this.options.hasChild(child) };
  }

  /** A record neither this bridge nor its predecessor wrote: logged once per topic and writer, by its writer. */
  private stranger(topic: string, told: ToldMemory, then: string): void {
    const key = `${topic}\n${told.by}`;
    const here = this.here(topic);
    if (this.strangers.has(key) || here === undefined) return;
    this.strangers.add(key);
    const said = `${here.what} was written by ${describeWriter(told)}, neither this bridge nor the one whose base topic it took over: ${then}`;
    this.options.log.warn({ ...(here.child === undefined ? { topic } : { child: here.child }), writer: writerGiven(told) }, said);
  }
}
