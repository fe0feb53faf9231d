// What the bridge made in Home Assistant and what the family deleted go with the base topic, not the installation
// (interface 16.3): told on retained by its holder (mqtt/told.ts), taken over by its successor, so that every entry
// stays the bridge's and none the family deleted is made again.
import type { Logger } from '../../util/log.js';
import { takenOver, toldOn, type HomeAssistantHandover } from './made.js';
import type { Kept } from './kept.js';

/**
 * At start, after what was made was read back: what the installation before this one told is taken over (its entries
 * this bridge's, what the family deleted left deleted) and kept; with no handover, what this one made is told on.
 */
export async function takeOver(kept: Kept, handover: HomeAssistantHandover | undefined, log: Logger): Promise<void> {
  const told = handover?.homeAssistantTold();
  if (told === undefined) {
    handover?.tellHomeAssistant(toldOn(kept.made));
    return;
  }
  const unreadable = () =>
    log.warn('what the bridge before this one told of its entries in Home Assistant is unreadable: they are found again by name');
  kept.made = takenOver(kept.made, told.told, unreadable);
  const deleted = Object.values(kept.made.entries).flatMap((known) => (known.gone ? [known.title] : []));
  log.info(
    { deleted },
    "the base topic was another installation's since: its entries in Home Assistant taken as this bridge's, what the family deleted left deleted",
  );
  await kept.save();
}
