// The sent box (spec 2.10, 4.8): the outbox list names the first receiver of each sent message; one
// sent message, opened (no side effect), lists every receiver with `readed`. Read leniently: `readed`
// may be a flag (0/1, a boolean) or the time it was read.
import * as z from 'zod';
import { isObject, joinName, listIn, refuse, unwrap } from './messages.js';
import { toNumber, toText } from './fields.js';

/** One item of GET /outbox/messages. */
export type SentItem = NonNullable<ReturnType<typeof sentItem>>;

function sentItem(raw: unknown) {
  if (!isObject(raw)) return undefined;
  const id = toText(raw.messageId)?.trim();
  if (id === undefined || !/^\d{1,20}$/.test(id)) return undefined;
  return {
    id,
    topic: toText(raw.topic) ?? '',
    /** The receiver as listed (the first one when there are several). */
    to: toText(raw.receiverName)?.trim() || joinName(raw.receiverFirstName, raw.receiverLastName),
    sendDate: toText(raw.sendDate),
  };
}

/** The sent box's list as a read gave it, kept through a restart (Resource.kept): read back in the same shape. */
export const keptSentList = z.array(
  z
    .object({ id: z.string(), topic: z.string(), to: z.string().optional(), sendDate: z.string().optional() })
    .transform(({ id, topic, to, sendDate }): SentItem => ({ id, topic, to, sendDate })),
);

/** GET /outbox/messages: {data: [...], total} or a bare array. */
export const outboxListResponse = z.unknown().transform((root, ctx) => {
  const list = listIn(root);
  if (list === undefined) return refuse(ctx, 'not a message list');
  return list.map(sentItem).filter((m): m is SentItem => m !== undefined);
});

const TIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}/;

/** One receiver of a sent message: whether they read it and, when the portal says (`readed` carries a time), when. */
function receiver(raw: unknown) {
  if (!isObject(raw)) return undefined;
  const name = toText(raw.name)?.trim() || joinName(raw.firstName, raw.lastName) || toText(raw.receiverName)?.trim();
  if (name === undefined) return undefined;
  const readed = raw.readed;
  const at = typeof readed === 'string' && TIME.test(readed.trim()) ? readed.trim() : undefined;
  const flag = typeof readed === 'boolean' ? readed : (toNumber(readed) ?? 0) > 0;
  return { name, read: at !== undefined || flag, readAt: at };
}

/** GET /outbox/messages/<id>: the message with its receivers (flat or under data). */
export const sentMessageResponse = z.unknown().transform((root, ctx) => {
  const data = unwrap(root);
  if (!isObject(data) || !Array.isArray(data.receivers)) return refuse(ctx, 'not a sent message with receivers');
  return {
    topic: toText(data.topic),
    sendDate: toText(data.sendDate),
    receivers: data.receivers.flatMap((r: unknown) => receiver(r) ?? []),
  };
});

export type SentMessageDetails = z.output<typeof sentMessageResponse>;

/** One sent message as a read gave it, kept through a restart (Resource.kept): read back in the same shape. */
export const keptSentMessage = z
  .object({
    topic: z.string().optional(),
    sendDate: z.string().optional(),
    receivers: z.array(z.object({ name: z.string(), read: z.boolean(), readAt: z.string().optional() })),
  })
  .transform(
    ({ topic, sendDate, receivers }): SentMessageDetails => ({
      topic,
      sendDate,
      receivers: receivers.map(({ name, read, readAt }) => ({ name, read, readAt })),
    }),
  );
