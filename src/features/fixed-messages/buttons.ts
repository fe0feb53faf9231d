// The fixed messages' buttons: one send_<id> per message configured for the account. The dashboard
// finds them among a child's entities through isSendButton, never by the key's prefix spelled again.
import { button, type EntityDef } from '../kit/entities.js';

const PREFIX = 'send_';
/** The command every send button sends, with its message's id as the payload. */
export const SEND_COMMAND = 'send_message';

/** The button for one configured fixed message: its name is the user's own, whatever the language. */
export function sendButton(messageId: string, name: string): EntityDef {
  return button(`${PREFIX}${messageId}`, { en: name, pl: name, uk: name }, { icon: 'mdi:send', command: { key: SEND_COMMAND, payload: messageId } });
}

/** Whether an entity a child announces is a fixed message's button. */
export function isSendButton(e: EntityDef): boolean {
  return e.platform === 'button' && e.key.startsWith(PREFIX);
}
