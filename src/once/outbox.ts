// The outbox of events: what the event gate let through waits here, in the child's event memory
// (memory.ts: one atomic write with the ids it fired for), until the broker acknowledged it. On its way
// an entry carries its packet state, written by the MQTT session (session.ts) before the packet goes: its
// packet id, the topic it went to and whether its PUBREL went; the PUBCOMP removes the entry. An event never
// taken is sent after a restart, once; one refused or not sent (the broker's ACL, a stop before the broker
// came back) is sent again at the next pass. Each has an id, by which the session finds its entry.
import * as z from 'zod';

/** An event's packet on its way: its MQTT packet id, the topic it went to, and whether its PUBREL went (then only that is sent again). */
const packetSchema = z.object({ id: z.int().min(1).max(0xffff), topic: z.string(), released: z.boolean() });

export const outboxSchema = z.array(
  z.object({
    kind: z.string(),
    id: z.string(),
    payload: z.record(z.string(), z.unknown()),
    packet: packetSchema.optional(),
  }),
);

/** One event not yet delivered: its kind (the topic's), its id, its payload and, on its way, its packet. */
export type OutboxEntry = z.output<typeof outboxSchema>[number];
export type EventPacket = NonNullable<OutboxEntry['packet']>;

export class EventOutbox {
  /** The ids of entries handed to the publisher and not answered yet: never handed twice. */
  private readonly inFlight = new Set<string>();

  constructor(
    /** How an event goes out: a promise of the broker's acceptance, or nothing when the publisher has no broker (taken at once). */
    private readonly fire: (entry: OutboxEntry) => Promise<boolean> | void,
    /** Told which entries the broker took: they leave the event memory (the one loaded now), which is written then. */
    private readonly onAccepted: (entries: OutboxEntry[]) => void,
  ) {}

  /** Sends every waiting entry not on its way already; call only once the memory holding them is on disk. */
  send(waiting: readonly OutboxEntry[]): void {
    const taken: OutboxEntry[] = [];
    for (const entry of waiting) {
      if (this.inFlight.has(entry.id)) continue;
      const sent = this.fire(entry);
      if (sent === undefined) {
        taken.push(entry);
        continue;
      }
      this.inFlight.add(entry.id);
      void sent.then(
        (ok) => this.answered(entry, ok),
        () => this.answered(entry, false),
      );
    }
    // Taken at once (no broker): one write for all of them.
    if (taken.length > 0) this.onAccepted(taken);
  }

  private answered(entry: OutboxEntry, ok: boolean): void {
    this.inFlight.delete(entry.id);
    if (ok) this.onAccepted([entry]);
  }
}
