// Opening a message and replying to it: the open_message button and command read a listed message
// whole (the portal then marks it read), opened_message shows it (kept across restarts), its
// attachments are saved with downloads on, and with write_messages the reply notify entity and
// command answer it through the account's send guard.
import { CommandError, jsonObject, MAX_TEXT_PAYLOAD_BYTES, textField, type CommandRequest } from '../kit/commands.js';
import { MessageNotSentError } from '../messaging/errors.js';
import { findListed, openedFile, readOpened, saveAttachments, type ListedRef, type OpenedRecord } from '../messaging/opened.js';
import type { Mailbox } from '../../portal/messaging-api.js';
import { replyDraft } from '../messaging/reply.js';
import { MessagesUnavailableError } from '../../portal/messaging-policy.js';
import { button, notify, sensor } from '../kit/entities.js';
import { shape, statesOf, type Worded } from '../kit/contract.js';
import { stateText } from '../kit/render.js';
import { feature, type CommandAccount, type FeatureAccess, type FeatureState } from '../feature.js';
import { mailboxWant } from '../messages/entities.js';
import type { ListedMessages } from '../messaging/opened.js';
import { UNREAD } from '../../engine/resources/messaging.js';
import { sent } from '../sent-message/sent-message.js';
import type { SourceContext, SourceResult } from '../../engine/source.js';
import type { DeclaredStates } from '../../engine/state.js';
import { errorText } from '../../util/text.js';
import { UNTITLED } from '../../i18n/school-words.js';
import { openedAsk, type OpenedAsk } from './ask.js';

/** The attributes of opened_message; `withdrawn`: the sender withdrew it (the portal says so only when it is opened). */
const openedFacts = ({ topic: _topic, sender_id: _senderId, attachments, ...record }: OpenedRecord) => ({
  ...record,
  attachments: attachments.map(({ name, size, path, url }) => ({
    name,
    ...(size === undefined ? {} : { size }),
    ...(path ? { path } : {}),
    ...(url ? { url } : {}),
  })),
});
export type OpenedMessageFacts = ReturnType<typeof openedFacts>;

export const openedMessageEntity = sensor(
  'opened_message',
  { en: 'Opened message', pl: 'Otwarta wiadomość', uk: 'Відкрите повідомлення' },
  {
    icon: 'mdi:email-open-outline',
    attributes: shape<OpenedMessageFacts>(),
    module: [UNREAD],
    // The topic as its state, the rest as attributes; unknown before anything was opened.
    state: ({ view: record, language }: Worded<OpenedRecord | undefined>) =>
      record ? { state: stateText(record.topic) ?? UNTITLED[language], attributes: openedFacts(record) } : { state: null, attributes: {} },
  },
);

/** Home Assistant's notify call hands only its message to the template, as `value`. */
export const TEXT_TEMPLATE = '{"text": {{ value | tojson }}}';

/** Opens the newest unread inbox message; its name says the portal then marks it read. */
export const openMessageButton = button(
  'open_message',
  {
    en: 'Open newest message (marks it read)',
    pl: 'Otwórz najnowszą wiadomość (oznacza jako przeczytaną)',
    uk: 'Відкрити останнє повідомлення (позначає прочитаним)',
  },
  { icon: 'mdi:email-open', command: { key: 'open_message', payload: 'newest' }, module: [UNREAD] },
);

const REPLY_NOTIFY = notify(
  'reply',
  { en: 'Reply to the opened message', pl: 'Odpowiedz na otwartą wiadomość', uk: 'Відповісти на відкрите повідомлення' },
  { icon: 'mdi:reply', input: { key: 'reply', template: TEXT_TEMPLATE } },
);

/** Where a message not listed yet is looked for: the inbox first (what a parent opens and answers). */
const LOOKUP_ORDER: readonly Mailbox[] = ['inbox', 'notes', 'alerts', 'substitutions', 'absences', 'justifications'];
const LOOKUP_AFTER_MISS_MS = 60_000;

class OpenedMessages implements FeatureState {
  private readonly file;
  private record: OpenedRecord | undefined;
  private listed: ListedMessages | undefined;
  /** When a message id was last looked for in every mailbox and found in none (locate). */
  private missedAt = -Infinity;

  constructor(private readonly access: FeatureAccess) {
    this.file = openedFile(access.dataDir, access.account.login);
  }

  async prepare(): Promise<void> {
    this.record = await this.file.load((error) =>
      this.access.log.warn({ err: error.message }, 'the opened message could not be read back; none shown'),
    );
    if (this.access.account.write_messages) await this.access.sendGuard.start();
  }

  // No request of its own: it keeps what the messages feature listed in the same cycle.
  compute(ctx: SourceContext): Promise<SourceResult> {
    this.listed = ctx.inputs.messages ?? this.listed;
    return Promise.resolve({ states: this.restate(), ask: this.asked() });
  }

  /** What Assist is told: the message opened last. */
  asked(): OpenedAsk {
    return { record: this.record };
  }

  restate(): DeclaredStates {
    return statesOf([openedMessageEntity], { view: this.record, language: this.access.language });
  }

  async open(arg: string, account: CommandAccount): Promise<Record<string, unknown>> {
    const ref = await this.locate(arg);
    const { messages: api, log } = this.access;
    const listedTopic = this.listed?.find((l) => l.mailbox === ref.mailbox)?.items.find((m) => m.id === ref.id)?.topic;
    let record: OpenedRecord;
    try {
      record = await readOpened(api, ref, listedTopic);
    } catch (error) {
      if (error instanceof MessagesUnavailableError) throw new CommandError('the school has no messages module', { cause: error });
      throw new CommandError(`the message could not be opened: ${errorText(error)}`, { cause: error });
    }
    await this.keep(record, account);
    // Opening marked it read: the unread counters moved, and are read again right after this command.
    account.readAgain(UNREAD);
    const downloads = this.access.downloads();
    let skipped: string | undefined;
    if (downloads && record.attachments.length > 0) {
      ({ record, skipped } = await saveAttachments(record, { api, downloader: downloads.downloader, child: this.access.childId(), log }));
      if (!skipped) await this.keep(record, account);
    }
    log.info(
      { message: record.message_id, mailbox: record.mailbox, attachments: record.attachments.length },
      'message opened (the portal marks it read)',
    );
    return {
      message_id: record.message_id,
      mailbox: record.mailbox,
      attachments: record.attachments.length,
      ...(record.withdrawn ? { withdrawn: true } : {}),
      ...(skipped ? { attachments_not_saved: skipped } : {}),
    };
  }

  async reply(req: CommandRequest): Promise<Record<string, unknown>> {
    if (!this.access.account.write_messages) {
      throw new MessageNotSentError(false, 'write_off', 'not sent: write_messages is off for this child');
    }
    const json = jsonObject(req, '{"text": "...", "message_id": "..."}');
    const text = textField(json, 'text') ?? '';
    const messageId = textField(json, 'message_id');
    const { sendGuard, messages: api } = this.access;
    let answered: OpenedRecord | undefined;
    const result = await sendGuard.send({ kind: 'reply', label: 'reply', text, transaction: req.transaction }, async () => {
      answered = await this.original(messageId);
      return replyDraft(api, answered, text);
    });
    // The result names the message answered (an automation checks it went where it meant); the portal's id of the reply beside it.
    const { message_id: sentId, ...rest }: Record<string, unknown> = { ...result };
    return {
      ...rest,
      ...(answered ? { message_id: answered.message_id, topic: answered.topic } : {}),
      ...(sentId === undefined ? {} : { sent_message_id: sentId }),
    };
  }

  /**
   * Where the message `arg` names is: among those listed, else, for a message id the bridge has not
   * listed yet (it came in since the last list, an hour ago at night), in the mailboxes listed now, the
   * inbox first. After an id found nowhere, none is looked up so for a minute: a wrong id cannot flood the portal.
   */
  private async locate(arg: string): Promise<ListedRef> {
    try {
      return findListed(arg, this.listed);
    } catch (notListed) {
      const id = arg.trim();
      const now = this.access.clock.now();
      if (!/^\d+$/.test(id) || now - this.missedAt < LOOKUP_AFTER_MISS_MS) throw notListed;
      for (const mailbox of LOOKUP_ORDER) {
        // Through the mailbox's declaration, at once: a mailbox this account has not (404) is refused, not where the message is.
        const copy = mailboxWant(mailbox);
        await this.access.cache.read(copy).catch((error: unknown) => {
          throw new CommandError(`the messages could not be listed: ${errorText(error)}`, { cause: error });
        });
        const list = this.access.cache.peek(copy.res, copy.key) as { items: ListedMessages[number]['items'] } | undefined;
        if (list === undefined || this.access.cache.refused(copy.res, copy.key)) continue;
        this.listed = [...(this.listed ?? []).filter((l) => l.mailbox !== mailbox), { mailbox, items: list.items }];
        if (list.items.some((m) => m.id === id)) return { mailbox, id };
      }
      this.missedAt = now;
      throw notListed;
    }
  }

  /** The message a reply answers: the opened one, or a listed one opened now (to learn its sender). */
  private async original(messageId: string | undefined): Promise<OpenedRecord> {
    if (messageId === undefined || messageId === this.record?.message_id) {
      if (!this.record) throw new MessageNotSentError(false, 'no_message', 'not sent: no message is opened; open one or give message_id');
      return this.record;
    }
    let ref;
    try {
      ref = await this.locate(messageId);
    } catch (error) {
      throw new MessageNotSentError(false, 'no_message', `not sent: ${(error as Error).message}`);
    }
    return readOpened(this.access.messages, ref, undefined);
  }

  private async keep(record: OpenedRecord, account: CommandAccount): Promise<void> {
    this.record = record;
    account.publishStates(this.restate(), { [OPENED_FEATURE]: this.asked() });
    await this.file.save(record).catch((error: Error) => this.access.log.warn({ err: error.message }, 'could not keep the opened message'));
  }
}

/** The feature's name: what it keeps for Assist goes by it. */
const OPENED_FEATURE = 'opened-message';

export const openedMessage = feature({
  name: OPENED_FEATURE,
  ask: openedAsk,
  inputs: ['messages'],
  entities: [openedMessageEntity, openMessageButton],
  configured: (account) => (account.write_messages ? [REPLY_NOTIFY] : []),
  create: (access) => new OpenedMessages(access),
  commands: {
    open_message: (req, account, state) => state.open(req.arg, account),
    reply: (req, account, state) => state.reply(req).then((result) => sent(account, result)),
  },
  payloadBytes: { reply: MAX_TEXT_PAYLOAD_BYTES },
});
