// The handover of each child's event memory between bridges on one base topic (interface 14.4, 16.1): the
// holder tells its memory on as it saves it (retained on the broker, signed with its installation and fence,
// so that a successor starts from it: nothing announced is announced again, nothing since is lost); a bridge
// that took the base topic over reads what its predecessor told. Only that predecessor is trusted: the
// installation the replaced claim named, at that claim's fence or an earlier one (lease/claim.ts). A memory
// anyone else wrote is neither adopted nor left standing by a running bridge. The MQTT sink does the telling
// and the reading (mqtt/told.ts).
import type { LeaseRecord } from '../lease/lease.js';
import { redactAndCut } from '../util/redact.js';
import { parsedJson } from '../util/text.js';
import type { SeenStore } from './memory.js';

/** What the event gate asks of the MQTT side: the handover both ways, and the child's memory the session keeps. */
export interface Handover {
  /** A child's memory as saved, told on for a successor. */
  tell(childId: string, memory: unknown): void;
  /** What the base topic's holder before this bridge (another installation) told of a child's memory, if anything. */
  told(childId: string): unknown;
  /** The child's event memory as the MQTT session keeps it (session.ts writes its events' packets into it); none without a kept session. */
  memory(childId: string): SeenStore | undefined;
}

/** A memory as told on the broker: who wrote it (`<installation>/<place>`), under which fence, and the memory. */
export interface ToldMemory {
  by: string | undefined;
  fence: number | undefined;
  memory: unknown;
}

/** How a told memory names the installation that wrote it. */
export const writerOf = (holder: Pick<LeaseRecord, 'id' | 'place'>): string => `${holder.id}/${holder.place}`;

/** What `<base>/<child>/event_memory` holds; undefined when empty (cleared). Anything unreadable names no writer. */
export function readTold(payload: Buffer): ToldMemory | undefined {
  if (payload.length === 0) return undefined;
  const told = parsedJson(payload.toString()) as { by?: unknown; fence?: unknown; memory?: unknown } | null | undefined;
  if (typeof told !== 'object' || told === null) return { by: undefined, fence: undefined, memory: undefined };
  return {
    by: typeof told.by === 'string' ? told.by : undefined,
    fence: typeof told.fence === 'number' ? told.fence : undefined,
    memory: told.memory,
  };
}

/**
 * Whether the holder whose claim this bridge replaced wrote this memory: its installation, under the claim's
 * fence or an earlier one (a memory told before that holder's last lapse). One told by a release before the
 * fence was written names none, and counts by its installation alone.
 */
export function byPredecessor(told: ToldMemory, predecessor: LeaseRecord | undefined): boolean {
  if (predecessor === undefined || told.by !== writerOf(predecessor)) return false;
  return told.fence === undefined || told.fence <= predecessor.fence;
}

/** The longest writer's name a log line keeps. */
const WRITER_CHARS = 80;

/** The writer a told memory gives, as the log keeps it: anyone may write it, so masked, then cut. */
export const writerGiven = (told: ToldMemory): string | null => (told.by === undefined ? null : redactAndCut(told.by, WRITER_CHARS));

/** How the log names a memory's writer. */
export const describeWriter = (told: ToldMemory): string => (told.by === undefined ? 'a client that names no writer' : `"${writerGiven(told)}"`);
