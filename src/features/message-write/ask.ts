// What Assist asks of writing to a teacher (interface 17.1): whom send_message's `to` names, by the rule the write
// command applies, before a preview is shown; from the recipient list the feature keeps.
import type { WriteTarget } from '../messaging/write-targets.js';
import { pickTarget } from '../messaging/write-targets.js';
import { MessageNotSentError } from '../messaging/errors.js';
import type { AskPart, Recipient } from '../screens/ask.js';

/** What the feature keeps for Assist: the recipient list last read; null before it was. */
export type WriteAsk = { targets: readonly WriteTarget[] | null };

function recipient(facts: WriteAsk, to: string): Recipient {
  if (facts.targets === null || facts.targets.length === 0) return null;
  const options = facts.targets.map((t) => t.option);
  try {
    const target = pickTarget(to.trim(), facts.targets);
    return { person: target.person, option: target.option };
  } catch (error) {
    if (!(error instanceof MessageNotSentError)) throw error;
    return { refused: error.code === 'recipient_ambiguous' ? 'ambiguous' : 'unknown', options };
  }
}

export const writeAsk: AskPart<WriteAsk> = { unknown: { targets: null }, recipient };
