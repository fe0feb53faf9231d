// Writing to a teacher (write_messages only): the `recipient` select (the child's teachers and the
// class tutor), the `message_topic` text, both kept across restarts, and the `write` notify entity
// and write/set command that send a new message through the account's send guard.
import * as z from 'zod';
import { CommandError, jsonObject, MAX_TEXT_PAYLOAD_BYTES, textField, type CommandRequest } from '../kit/commands.js';
import { sendBody, textToHtml } from '../messaging/compose.js';
import { MessageNotSentError } from '../messaging/errors.js';
import { pickTarget, targetSchema, type WriteTarget } from '../messaging/write-targets.js';
import { LoginFile } from '../../util/stored.js';
import { TEXT_TEMPLATE } from '../opened-message/opened-message.js';
import { feature, type CommandAccount, type FeatureAccess, type FeatureState } from '../feature.js';
import { notify, select, text, type EntityDef } from '../kit/entities.js';
import type { DeclaredStates } from '../../engine/state.js';
import { statesOf } from '../kit/contract.js';
import type { SourceContext, SourceResult } from '../../engine/source.js';
import { want } from '../../engine/resource.js';
import { RECIPIENTS } from './resources.js';
import { sent } from '../sent-message/sent-message.js';
import { lookup, USERS } from '../../engine/resources/lookups.js';
import { errorText } from '../../util/text.js';
import { writeAsk, type WriteAsk } from './ask.js';

/** The longest topic (Home Assistant's text entity's default maximum too). */
const MAX_TOPIC_CHARS = 255;
const keptSchema = z.object({
  choice: z.string().nullable(),
  topic: z.string().max(MAX_TOPIC_CHARS),
  targets: z.array(targetSchema),
  targets_at: z.number(),
});
type Kept = z.output<typeof keptSchema>;

/** What the write entities show: the recipient chosen (null: none, or one no longer among the options) and the topic. */
type WritingView = { chosen: string | null; topic: string };

const MESSAGE_TOPIC_TEXT = text(
  'message_topic',
  { en: 'Message topic', pl: 'Temat wiadomości', uk: 'Тема повідомлення' },
  {
    icon: 'mdi:format-title',
    input: { key: 'message_topic' },
    maxLength: MAX_TOPIC_CHARS,
    state: (writing: WritingView) => ({ state: writing.topic }),
  },
);

const WRITE_NOTIFY = notify(
  'write',
  { en: 'Write to the recipient', pl: 'Napisz do odbiorcy', uk: 'Написати адресатові' },
  {
    icon: 'mdi:email-edit',
    input: { key: 'write', template: TEXT_TEMPLATE },
  },
);

/** The recipient select with the child's options (they follow the portal's lists). */
export function recipientSelect(options: readonly string[]) {
  return select(
    'recipient',
    { en: 'Recipient', pl: 'Odbiorca', uk: 'Адресат' },
    { icon: 'mdi:account-tie', input: { key: 'recipient' }, options, state: (writing: WritingView) => ({ state: writing.chosen }) },
  );
}

/** The topic of a written message when none is set: "Wiadomość – Ania" (the teacher reads Polish). */
function defaultTopic(firstName: string | undefined): string {
  return firstName?.trim() ? `Wiadomość – ${firstName.trim()}` : 'Wiadomość';
}

class Writing implements FeatureState {
  private readonly file: LoginFile<typeof keptSchema>;
  private kept: Kept = { choice: null, topic: '', targets: [], targets_at: 0 };

  constructor(private readonly access: FeatureAccess) {
    this.file = new LoginFile(access.dataDir, 'messages', `${access.account.login}-writing`, keptSchema);
  }

  private get on(): boolean {
    return this.access.account.write_messages;
  }

  async prepare(): Promise<void> {
    if (!this.on) return;
    const kept = await this.file.load((error) =>
      this.access.log.warn({ err: error.message }, 'the recipient and topic could not be read back; starting empty'),
    );
    if (kept) this.kept = kept;
    // The list the last run read is the copy, as old as it is: a restart does not read it again.
    if (kept && kept.targets_at > 0) this.access.cache.seed(RECIPIENTS, kept.targets, kept.targets_at);
    await this.access.sendGuard.start();
  }

  dynamic(): EntityDef[] {
    return this.on && this.kept.targets.length > 0 ? [this.recipient()] : [];
  }

  /** The recipient select with the options of the list last read. */
  private recipient() {
    return recipientSelect(this.kept.targets.map((t) => t.option));
  }

  async compute(ctx: SourceContext): Promise<SourceResult> {
    if (!this.on) return {};
    try {
      const targets = ctx.cache.get(RECIPIENTS);
      const at = ctx.cache.readAt(RECIPIENTS);
      if (targets !== undefined && at !== undefined && at !== this.kept.targets_at) {
        this.kept = { ...this.kept, targets, targets_at: at };
        await this.save();
      }
    } catch (error) {
      ctx.log.warn({ err: errorText(error) }, 'the recipients could not be read; keeping the last list');
    }
    return { states: this.states(), ask: { targets: this.kept.targets_at > 0 ? this.kept.targets : null } satisfies WriteAsk };
  }

  restate(): SourceResult['states'] {
    return this.on ? this.states() : undefined;
  }

  /**
   * The recipient chosen and the topic a message written now is given: the one set, else the default ("Wiadomość –
   * Ania"), never an empty text (an empty payload deletes a retained message: Home Assistant would find no state).
   */
  private states(): DeclaredStates {
    const chosen = this.kept.targets.some((t) => t.option === this.kept.choice) ? this.kept.choice : null;
    return statesOf([this.recipient(), MESSAGE_TOPIC_TEXT], { chosen, topic: this.topic(this.kept.topic) });
  }

  /** The topic a message is given: `given` on one line, else the default one. */
  private topic(given: string): string {
    return given.replace(/\s+/g, ' ').trim() || defaultTopic(this.access.identity()?.firstName);
  }

  async choose(option: string, account: CommandAccount): Promise<Record<string, unknown>> {
    this.requireOn();
    if (!this.kept.targets.some((t) => t.option === option)) throw new CommandError('not one of the recipient options');
    this.kept = { ...this.kept, choice: option };
    await this.save();
    account.publishStates(this.states());
    return { recipient: option };
  }

  async setTopic(text: string, account: CommandAccount): Promise<Record<string, unknown>> {
    this.requireOn();
    const topic = text.replace(/\s+/g, ' ').trim();
    if ([...topic].length > MAX_TOPIC_CHARS) throw new CommandError(`the topic is over ${MAX_TOPIC_CHARS} characters`);
    this.kept = { ...this.kept, topic };
    await this.save();
    account.publishStates(this.states());
    return { topic };
  }

  async write(req: CommandRequest): Promise<Record<string, unknown>> {
    if (!this.on) throw new MessageNotSentError(false, 'write_off', 'not sent: write_messages is off for this child');
    const json = jsonObject(req, '{"to": "...", "topic": "...", "text": "..."}');
    const text = textField(json, 'text') ?? '';
    const to = textField(json, 'to');
    const givenTopic = textField(json, 'topic');
    const { sendGuard, messages: api } = this.access;
    const result = await sendGuard.send({ kind: 'write', label: 'write', text, transaction: req.transaction }, () => {
      const target = this.target(to);
      const topic = this.topic(givenTopic ?? this.kept.topic);
      if ([...topic].length > MAX_TOPIC_CHARS)
        throw new MessageNotSentError(false, 'too_long', `not sent: the topic is over ${MAX_TOPIC_CHARS} characters`);
      const body = sendBody(target.accountId, { topic, html: textToHtml(text) });
      return Promise.resolve({ recipient: { accountId: target.accountId, label: target.person }, topic, text, post: () => api.postMessage(body) });
    });
    return { ...result };
  }

  private target(to: string | undefined): WriteTarget {
    if (this.kept.targets.length === 0)
      throw new MessageNotSentError(false, 'not_ready', 'not sent: the recipients are not known yet; try again after the first poll');
    if (to !== undefined) return pickTarget(to.trim(), this.kept.targets);
    const chosen = this.kept.targets.find((t) => t.option === this.kept.choice);
    if (!chosen) throw new MessageNotSentError(false, 'recipient_unknown', 'not sent: no recipient is selected; choose one or give "to"');
    return chosen;
  }

  private requireOn(): void {
    if (!this.on) throw new CommandError('write_messages is off for this child');
  }

  private async save(): Promise<void> {
    await this.file.save(this.kept).catch((error: Error) => this.access.log.warn({ err: error.message }, 'could not keep the recipient and topic'));
  }
}

export const messageWrite = feature({
  name: 'message-write',
  entities: [],
  ask: writeAsk,
  // The class tutor's name in the list comes from the Users lookup: the list is read once it is held.
  reads: ({ account, copies, identity }) =>
    account.write_messages
      ? [lookup(copies, USERS, [identity.classTutorId]), ...(copies.peek(USERS) !== undefined || copies.refused(USERS) ? [want(RECIPIENTS)] : [])]
      : [],
  configured: (account) => (account.write_messages ? [MESSAGE_TOPIC_TEXT, WRITE_NOTIFY] : []),
  dynamicExamples: [recipientSelect(['Matematyka – Tomasz Zieliński', 'Wychowawca – Anna Nowak'])],
  create: (access) => new Writing(access),
  commands: {
    recipient: (req, account, state) => state.choose(req.text, account),
    message_topic: (req, account, state) => state.setTopic(req.text, account),
    write: (req, account, state) => state.write(req).then((result) => sent(account, result)),
  },
  payloadBytes: { write: MAX_TEXT_PAYLOAD_BYTES },
});
