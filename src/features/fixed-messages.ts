// The fixed-messages feature: one send_<id> button per message configured for the account, all
// sending through the send_message command (which a parent may also call with any configured id).
import { CommandError } from '../feature-kit/commands.js';
import { userLookup } from '../resources/lookups.js';
import { sent } from './sent-message.js';
import { FixedMessageSender } from '../messaging/sender.js';
import { feature, type FeatureAccess, type FeatureState } from './feature.js';
import { button, type EntityDef } from '../feature-kit/entities.js';

/** The button for one configured fixed message: its name is the user's own, whatever the language. */
export function sendButton(messageId: string, name: string): EntityDef {
  return button(`send_${messageId}`, { en: name, pl: name, uk: name }, { icon: 'mdi:send', command: { key: 'send_message', payload: messageId } });
}

/** The account's sender, made only when it has fixed messages configured. */
class FixedMessages implements FeatureState {
  readonly sender: FixedMessageSender | undefined;

  constructor(access: FeatureAccess) {
    const { account } = access;
    if (account.messages.length === 0) return;
    this.sender = new FixedMessageSender({
      account: account.login,
      messages: account.messages,
      api: access.messages,
      user: userLookup(access.cache),
      identity: access.identity,
      dataDir: access.dataDir,
      clock: access.clock,
      log: access.log,
      outbox: access.outbox,
    });
  }

  async prepare(): Promise<void> {
    await this.sender?.start();
  }
}

export const fixedMessages = feature({
  name: 'fixed-messages',
  entities: [],
  configured: (account) => account.messages.map((m) => sendButton(m.id, m.name)),
  create: (access) => new FixedMessages(access),
  commands: {
    send_message: async (req, account, state) => {
      if (!state.sender) throw new CommandError('no fixed messages are configured for this child');
      const result = await state.sender.send(req.arg, req.transaction);
      return sent(account, { ...result });
    },
  },
});
