// The messaging host's answers (spec 2.10), read leniently: lists come as {data, total} or as a bare
// array, ids as numbers or strings, flags as booleans or 0/1, and single objects with or without a
// data wrapper. Only what the bridge uses is kept.
import * as z from 'zod';
import { toBool, toNumber, toText } from './fields.js';

type Obj = Record<string, unknown>;

export function isObject(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The object under `data`, or the root itself when there is no such wrapper. */
export function unwrap(root: unknown): unknown {
  return isObject(root) && 'data' in root ? root.data : root;
}

/** The first list found: the root, `data`, or `data.<key>` / `<key>`. */
export function listIn(root: unknown, key?: string): unknown[] | undefined {
  if (Array.isArray(root)) return root;
  const inner = unwrap(root);
  if (Array.isArray(inner)) return inner;
  if (key !== undefined) {
    if (isObject(inner) && Array.isArray(inner[key])) return inner[key];
    if (isObject(root) && Array.isArray(root[key])) return root[key];
  }
  return undefined;
}

/** An answer that is not what the read expects: it fails with `message`. */
export function refuse(ctx: z.RefinementCtx, message: string): never {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
}

function idText(value: unknown): string | undefined {
  return toText(value)?.trim();
}

export function joinName(first: unknown, last: unknown): string | undefined {
  return [toText(first)?.trim(), toText(last)?.trim()].filter((p) => p !== undefined).join(' ') || undefined;
}

/** Every counter of GET /inbox/unreadMessagesCount by name (14 on the tested school). */
export const unreadCountsResponse = z.unknown().transform((root, ctx) => {
  const data = unwrap(root);
  const counts: Record<string, number> = {};
  for (const [key, value] of Object.entries(isObject(data) ? data : {})) {
    const n = toNumber(value);
    if (n !== undefined && Number.isInteger(n) && n >= 0) counts[key] = n;
  }
  return counts.inbox === undefined ? refuse(ctx, 'no inbox counter') : counts;
});

export type UnreadCounts = z.output<typeof unreadCountsResponse>;

/** One item of a mailbox list. */
export type MessageItem = NonNullable<ReturnType<typeof messageItem>>;

function messageItem(raw: unknown) {
  if (!isObject(raw)) return undefined;
  const id = idText(raw.messageId);
  if (id === undefined || id === '') return undefined;
  const readDate = raw.readDate;
  return {
    id,
    sender: toText(raw.senderName)?.trim() || joinName(raw.senderFirstName, raw.senderLastName),
    topic: toText(raw.topic) ?? '',
    /** The base64 preview as given (cut at a byte length, see rules/messages.ts). */
    content: toText(raw.content),
    sendDate: toText(raw.sendDate),
    // readDate null means unread (spec 2.10); any date (or a true flag) means read.
    read: readDate !== null && readDate !== undefined && readDate !== '' && readDate !== false && readDate !== 0,
    hasAttachments: toBool(raw.isAnyFileAttached) ?? false,
  };
}

/** A mailbox list: {data: [...], total} or a bare array (one secondary mailbox answers so). */
export const messageListResponse = z.unknown().transform((root, ctx) => {
  const list = listIn(root);
  if (list === undefined) return refuse(ctx, 'not a message list');
  const items = list.map(messageItem).filter((m): m is MessageItem => m !== undefined);
  const total = isObject(root) ? toNumber(root.total) : undefined;
  return { items, total: total ?? items.length };
});
export type MessageList = z.output<typeof messageListResponse>;

/** GET /me: the messaging account (flat or under data); any JSON object proves the session. */
export const meResponse = z.unknown().transform((root, ctx) => {
  const me = unwrap(root);
  if (!isObject(me)) return refuse(ctx, 'not an account object');
  // accessToAttachments false: the school allows this account no attachments; absent reads as allowed.
  return { accountId: idText(me.accountId), name: joinName(me.firstName, me.lastName), attachments: toBool(me.accessToAttachments) ?? true };
});

/** GET /receivers/types: the receiver groups offered ({data: {defaultGroup, list}}). */
export const receiverTypesResponse = z.unknown().transform((root) => {
  const list = listIn(root, 'list') ?? [];
  return list
    .map((t) => (isObject(t) ? { id: idText(t.id), name: toText(t.name) } : { id: undefined, name: undefined }))
    .filter((t): t is { id: string; name: string | undefined } => t.id !== undefined && t.id !== '');
});

export interface Receiver {
  accountId: string;
  label: string;
}

/** GET /receivers/groups/school-employees: {receivers: [{accountId, label, ...}]}; empty groups are []. */
export const groupReceiversResponse = z.unknown().transform((root) =>
  (listIn(root, 'receivers') ?? []).filter(isObject).flatMap((r): Receiver[] => {
    const accountId = idText(r.accountId);
    const label = toText(r.label)?.trim() ?? joinName(r.firstName, r.lastName);
    return accountId && label ? [{ accountId, label }] : [];
  }),
);

const FAILED_STATUS = /^(error|fail(ed|ure)?|rejected|not_?sent)$/i;

/**
 * The answer to POST /messages: the message id when given, and whether the answer reports errors
 * although its status was a success (spec 4.8: then the outcome is unknown).
 */
export function readSendAnswer(json: unknown): { messageId?: string; errors?: string } {
  const data = unwrap(json);
  const errors = [json, data].map(reportedError).find((e) => e !== undefined);
  const messageId = isObject(data) ? idText(data.messageId) : undefined;
  return { ...(messageId ? { messageId } : {}), ...(errors ? { errors } : {}) };
}

function reportedError(value: unknown): string | undefined {
  if (!isObject(value)) return undefined;
  const { errors, error, status } = value;
  if (Array.isArray(errors) && errors.length > 0) return errors.map((e) => toText(e) ?? JSON.stringify(e)).join('; ');
  if (isObject(errors) && Object.keys(errors).length > 0) return JSON.stringify(errors);
  if (typeof errors === 'string' && errors.trim() !== '') return errors;
  if (error !== undefined && error !== null && error !== false && error !== '') return toText(error) ?? JSON.stringify(error);
  if (typeof status === 'string' && FAILED_STATUS.test(status.trim())) return `status ${status}`;
  return undefined;
}

/** GET /<mailbox>/messages/<id>: one message whole (spec 2.10); the body stays base64 (see rules/message-text.ts). */
export const fullMessageResponse = z.unknown().transform((root, ctx) => {
  const data = unwrap(root);
  if (!isObject(data) || typeof data.Message !== 'string') return refuse(ctx, 'not a message (no Message)');
  const attachments = (Array.isArray(data.attachments) ? data.attachments : []).filter(isObject).flatMap((a) => {
    const id = idText(a.id);
    return id ? [{ id, filename: toText(a.filename)?.trim() || `zalacznik-${id}` }] : [];
  });
  return {
    message: data.Message,
    topic: toText(data.topic),
    senderId: idText(data.senderId),
    sender: toText(data.senderName)?.trim() || joinName(data.senderFirstName, data.senderLastName),
    sendDate: toText(data.sendDate),
    noReply: toBool(data.noReply) ?? false,
    /** The sender withdrew it (isMessageWithdrawn; only the full message says so, spec 2.10). */
    withdrawn: toBool(data.isMessageWithdrawn) ?? false,
    attachments,
  };
});

/** GET /attachments/<att>/messages/<msg>: {data: {status: 'ok', downloadLink}}. */
export const attachmentLinkResponse = z.unknown().transform((root, ctx) => {
  const data = unwrap(root);
  const link = isObject(data) ? toText(data.downloadLink)?.trim() : undefined;
  return link || refuse(ctx, 'no downloadLink');
});

/** GET /receivers/student-subjects with the subjects: [{teacherIdentifier, subject}]. */
export const teacherSubjectsResponse = z.unknown().transform((root) =>
  (listIn(root) ?? []).filter(isObject).flatMap((t) => {
    const accountId = idText(t.teacherIdentifier);
    return accountId ? [{ accountId, subject: toText(t.subject)?.trim() ?? '' }] : [];
  }),
);
