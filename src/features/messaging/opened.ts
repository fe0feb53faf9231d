// The message last opened through the bridge (open_message): read whole from the portal (which marks
// it read), its text made plain, its attachments saved when downloads are on, and kept in data_dir so
// a restart shows it again. Only a message the portal listed can be opened.
import * as z from 'zod';
import { MAILBOXES, type Mailbox, type MessagesApi } from '../../portal/messaging-api.js';
import { decodeMessage, messageText } from '../../rules/message-text.js';
import { messageDate, sortMessages } from '../../rules/messages.js';
import { collapse } from '../../rules/portal-values.js';
import { LoginFile } from '../../util/stored.js';
import { CommandError } from '../kit/commands.js';
import { savedFileUrl } from '../../portal/attachments/saved.js';
import type { Downloader } from '../../portal/attachments/downloader.js';
import type { MessageItem } from '../../portal/schemas/messages.js';
import type { Logger } from '../../util/log.js';
import { errorText } from '../../util/text.js';

/** What the messages feature listed last: the messages the portal listed, by mailbox (what open_message accepts). */
export type ListedMessages = { mailbox: Mailbox; items: MessageItem[] }[];

const attachmentSchema = z.object({
  id: z.string(),
  name: z.string(),
  size: z.number().int().nonnegative().optional(),
  path: z.string().optional(),
  url: z.string().optional(),
});

const openedSchema = z.object({
  message_id: z.string(),
  mailbox: z.enum(MAILBOXES),
  topic: z.string().nullable(),
  sender: z.string().nullable(),
  /** The sender's messaging accountId: a reply goes there. */
  sender_id: z.string().nullable(),
  date: z.string().nullable(),
  text: z.string(),
  truncated: z.boolean(),
  can_reply: z.boolean(),
  /** The sender withdrew it (isMessageWithdrawn); a record kept before this was known reads false. */
  withdrawn: z.boolean().default(false),
  attachments: z.array(attachmentSchema),
});

export type OpenedRecord = z.output<typeof openedSchema>;

/** Where the opened message is kept: data_dir/messages/<login>-opened.json. */
export function openedFile(dataDir: string, login: string): LoginFile<typeof openedSchema> {
  return new LoginFile(dataDir, 'messages', `${login}-opened`, openedSchema);
}

/** A listed message: where it is. */
export interface ListedRef {
  mailbox: Mailbox;
  id: string;
}

/**
 * The message `arg` names among those listed: `newest` is the newest unread inbox message (the newest
 * inbox message when none is unread); anything else must be an id the portal listed.
 */
export function findListed(arg: string, listed: ListedMessages | undefined): ListedRef {
  if (listed === undefined) throw new CommandError('the messages are not listed yet; try again after the first pass');
  const wanted = arg.trim();
  if (wanted === '') throw new CommandError('give "newest" or a message id from the lists');
  if (wanted === 'newest') {
    const inbox = sortMessages(listed.find((l) => l.mailbox === 'inbox')?.items ?? []);
    const newest = inbox.find((m) => !m.read) ?? inbox[0];
    if (!newest) throw new CommandError('the inbox has no message');
    return { mailbox: 'inbox', id: newest.id };
  }
  for (const { mailbox, items } of listed) if (items.some((m) => m.id === wanted)) return { mailbox, id: wanted };
  throw new CommandError('no such message among those the portal listed');
}

/** Reads a listed message whole (this marks it read in the portal) as the record kept and shown. */
export async function readOpened(api: MessagesApi, ref: ListedRef, listedTopic: string | undefined): Promise<OpenedRecord> {
  const full = await api.message(ref.mailbox, ref.id);
  const { text, truncated } = messageText(decodeMessage(full.message));
  return {
    message_id: ref.id,
    mailbox: ref.mailbox,
    topic: collapse(full.topic ?? listedTopic ?? '') ?? null,
    sender: full.sender ?? null,
    sender_id: full.senderId ?? null,
    date: messageDate(full.sendDate),
    text,
    truncated,
    can_reply: !full.noReply && full.senderId !== undefined,
    withdrawn: full.withdrawn,
    attachments: full.attachments.map((a) => ({ id: a.id, name: a.filename })),
  };
}

/** Why no attachment was tried: /api/me's accessToAttachments false (spec 2.10). */
export const ATTACHMENTS_NOT_ALLOWED = 'the school does not allow attachments for this account';

/**
 * Saves each attachment (spec 4.8: its downloadLink, then <downloadLink>/get) into
 * downloads/<child>/messages/<message id>/. One that fails keeps its name only, and is logged.
 * Where the school allows the account no attachments none is tried: `skipped` says why.
 */
export async function saveAttachments(record: OpenedRecord, deps: { api: MessagesApi; downloader: Downloader; child: string; log: Logger }) {
  if (!(await attachmentsAllowed(deps))) {
    deps.log.info({ message: record.message_id, attachments: record.attachments.length }, `attachments not saved: ${ATTACHMENTS_NOT_ALLOWED}`);
    return { record, skipped: ATTACHMENTS_NOT_ALLOWED };
  }
  const folder = deps.downloader.inFolder(['messages', record.message_id]);
  const attachments: OpenedRecord['attachments'] = [];
  for (const a of record.attachments) {
    try {
      const saved = await folder.messageAttachment({ messageId: record.message_id, attachmentId: a.id, name: a.name }, () =>
        deps.api.attachmentLink(a.id, record.message_id),
      );
      attachments.push({
        id: a.id,
        name: saved.name,
        size: saved.size,
        path: saved.path,
        url: savedFileUrl(deps.child, [record.message_id, saved.name]),
      });
    } catch (error) {
      deps.log.warn({ message: record.message_id, attachment: a.id, err: errorText(error) }, 'attachment not saved');
      attachments.push({ id: a.id, name: a.name });
    }
  }
  return { record: { ...record, attachments } };
}

/** The session's accessToAttachments; when /api/me cannot be read the attachments are tried (each failure is logged). */
async function attachmentsAllowed(deps: { api: MessagesApi; log: Logger }): Promise<boolean> {
  return deps.api.attachmentsAllowed().catch((error: unknown) => {
    deps.log.debug({ err: errorText(error) }, 'whether attachments are allowed is unknown; trying them');
    return true;
  });
}
