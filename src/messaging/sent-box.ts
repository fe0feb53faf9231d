// Spec 4.8's rule for a send whose outcome is unknown: look it up in the sent box before anything is
// sent again. A sent-box entry is that send when its topic matches and it went out within minutes.
import { warsawInstant } from '../util/time.js';
import type { JournalEntry } from './journal.js';
import type { SentItem } from '../portal/schemas/outbox.js';

/** How far back an unknown send is looked up in the sent box (the journal keeps a week). */
export const UNKNOWN_LOOKUP_MS = 7 * 24 * 60 * 60_000;
/**
 * An unknown send missing from the sent box counts as not sent only this long after it was tried: a
 * POST still on its way (or one the portal files late) would otherwise be sent twice. Until then it
 * stays unknown, and the pause and duplicate guards treat it as sent.
 */
export const SETTLE_AFTER_MS = 3 * 60_000;
/** A sent-box entry is the unknown send when its topic matches and it was sent this close to the attempt. */
const SENT_BOX_WINDOW_MS = 15 * 60_000;

export function sameSend(item: SentItem, entry: JournalEntry): boolean {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{1,2}:\d{2}(?::\d{2})?)/.exec(item.sendDate?.trim() ?? '');
  if (!m) return false;
  const at = warsawInstant(m[1]!, m[2]!);
  if (Math.abs(at - entry.at) > SENT_BOX_WINDOW_MS) return false;
  // An entry of an older journal has no topic: its receiver's name is the next best thing.
  return entry.topic !== undefined ? item.topic.trim() === entry.topic.trim() : item.to !== undefined && entry.recipient?.includes(item.to) === true;
}
