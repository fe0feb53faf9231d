// The fixed-messages feature: one send_<id> button per message configured for the account, all
// sending through the send_message command (which a parent may also call with any configured id).
import { CommandError } from '../kit/commands.js';
import { userLookup } from '../../engine/resources/lookups.js';
import { IDENTITY } from '../../engine/resources/identity.js';
import { want } from '../../engine/resource.js';
import type { Identity } from '../../engine/identity.js';
import { warsawDate } from '../../util/time.js';
import { MessageNotSentError } from '../messaging/errors.js';
import { sent } from '../sent-message/sent-message.js';
import { FixedMessageSender } from '../messaging/sender.js';
import { feature, type CommandAccount, type FeatureAccess, type FeatureState } from '../feature.js';
import { buttonRow, type Card } from '../screens/cards.js';
import type { Block } from '../screens/parts.js';
import { entityId } from '../kit/entities.js';
import { markNoticesReadButton } from '../notices/notices.js';
import { isSendButton, SEND_COMMAND, sendButton } from './buttons.js';

/** The account's sender, made only when it has fixed messages configured. */
class FixedMessages implements FeatureState {
  readonly sender: FixedMessageSender | undefined;
  /** The ids of the messages whose recipient is named by role (the class tutor). */
  readonly byRole: ReadonlySet<string>;

  constructor(private readonly access: FeatureAccess) {
    const { account } = access;
    this.byRole = new Set(account.messages.filter((m) => m.to === 'class_tutor').map((m) => m.id));
    if (account.messages.length === 0) return;
    this.sender = new FixedMessageSender({
      account: account.login,
      messages: account.messages,
      api: access.messages,
      user: userLookup(access.cache),
      // The copy a command read this morning (see send_message) is newer than the child's until the next pass.
      identity: () => newer(access.identity(), access.cache.peek(IDENTITY)),
      dataDir: access.dataDir,
      clock: access.clock,
      log: access.log,
      sendGuard: access.sendGuard,
    });
  }

  async prepare(): Promise<void> {
    await this.sender?.start();
  }

  /**
   * A recipient named by role (the class tutor) is the one of today's class: an identity read on an
   * earlier day (the first morning of a school year, before its first pass) is read first, and if it
   * cannot be, nothing is sent to last year's tutor.
   */
  async ofTheDay(cache: CommandAccount['cache']): Promise<void> {
    const kept = cache.peek(IDENTITY);
    if (kept !== undefined && warsawDate(kept.fetchedAt) === warsawDate(this.access.clock.now())) return;
    await cache.read(want(IDENTITY)).catch(() => {
      throw new MessageNotSentError(false, 'not_ready', "not sent: today's class tutor could not be read from the portal; try again");
    });
  }
}

/** The configured fixed messages' buttons, in the order of the config with the user's names, and the one that marks announcements read; each asks first. */
const messageButtons: Block = (e, t, { language }) => {
  const rows: Card[] = e.child.entities
    .filter(isSendButton)
    .map((b) => buttonRow(entityId(e.child.id, b), b.name[language], t.send, t.confirmSend(b.name[language])));
  if (e.has(markNoticesReadButton)) rows.push(buttonRow(e.id(markNoticesReadButton), t.markRead, t.markReadAction, t.confirmMarkRead));
  return rows.length === 0 ? undefined : { type: 'entities', entities: rows };
};

export const fixedMessages = feature({
  name: 'fixed-messages',
  entities: [],
  dashboard: { child: [{ section: 'messages', block: (e, t, at) => messageButtons(e, t, at) }] },
  configured: (account) => account.messages.map((m) => sendButton(m.id, m.name)),
  create: (access) => new FixedMessages(access),
  commands: {
    [SEND_COMMAND]: async (req, account, state) => {
      if (!state.sender) throw new CommandError('no fixed messages are configured for this child');
      if (state.byRole.has(req.arg)) await state.ofTheDay(account.cache);
      return sent(account, { ...(await state.sender.send(req.arg, req.transaction)) });
    },
  },
});

/** Of two copies of the identity, the one read later. */
function newer(a: Identity | undefined, b: Identity | undefined): Identity | undefined {
  return a === undefined || (b !== undefined && b.fetchedAt > a.fetchedAt) ? b : a;
}
