// The outbox of events: what the event gate let through waits here, in the event memory's own file
// (seen.ts, one atomic write with the ids it fired for), until the broker acknowledged it (its PUBCOMP,
// through the bridge's kept MQTT session, once/session.ts, which sends it once even across a kill). An
// event never taken is sent after a restart, once; one refused or not sent (the broker's ACL, a stop before
// the broker came back) is sent again at the next pass. Each has an id, by which the session tells an
// event it held before a kill from a new one.
import { randomUUID } from 'node:crypto';
import * as z from 'zod';

export const outboxSchema = z.array(
  // Entries of older versions have no id: they were never handed to a session.
  z.object({ kind: z.string(), id: z.string().default(() => randomUUID()), payload: z.record(z.string(), z.unknown()) }),
);

/** One event not yet taken: its kind (the topic's), its id and its payload. */
export type OutboxEntry = z.output<typeof outboxSchema>[number];

export class EventOutbox {
  /** Handed to the publisher and not answered yet: never handed twice. */
  private readonly inFlight = new Set<OutboxEntry>();

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
      if (this.inFlight.has(entry)) continue;
      const sent = this.fire(entry);
      if (sent === undefined) {
        taken.push(entry);
        continue;
      }
      this.inFlight.add(entry);
      void sent.then(
        (ok) => this.answered(entry, ok),
        () => this.answered(entry, false),
      );
    }
    // Taken at once (no broker): one write for all of them.
    if (taken.length > 0) this.onAccepted(taken);
  }

  private answered(entry: OutboxEntry, ok: boolean): void {
    this.inFlight.delete(entry);
    if (ok) this.onAccepted([entry]);
  }
}
