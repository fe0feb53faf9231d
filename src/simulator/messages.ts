// The messaging host ({messages_url}, spec 4.8 and 5.4): the bootstrap landing that opens a short-lived
// messaging session, then the JSON API under /api for that session: counters, mailboxes (one as a
// bare array, some 404 on some accounts), reading (marks read), receivers, sending and replying.
import { setCookie } from './cookies.js';
import { attachmentLinkReply } from './download-attachments.js';
import { html, json, page } from './reply.js';
import { MAILBOX_NAMES, type SimMailboxName } from './messaging-state.js';
import { counters, fullMessage, groupStaff, listItems, outboxItems, receiverEntry, sentMessage, studentTeachers } from './messaging-views.js';
import type { SimAccount } from './account.js';
import type { Call, HostHandler, Reply } from './types.js';
import type { World } from './world.js';

export const MESSAGING_COOKIE = 'wiadomosci_sid';
/** The secondary mailbox that answers a bare JSON array instead of {data, total} (spec 2.10). */
export const BARE_ARRAY_MAILBOX: SimMailboxName = 'notes';

const ATTACHMENT_PATH = /^\/api\/attachments\/([\w-]+)\/messages\/(\d+)$/;
const MAILBOX_PATH = /^\/api\/(archive\/)?([a-z]+)\/messages(?:\/(\d+))?$/;

export function messagesHost(world: World): HostHandler {
  return {
    identify: (call) => world.messaging.sessionLogin(call.cookies.get(MESSAGING_COOKIE)),
    handle(call) {
      if (call.path === '/bootstrap') return landing(world, call);
      if (!call.path.startsWith('/api/')) return json(404, { status: 'error', message: 'Not found' });
      const login = world.messaging.liveSession(call.cookies.get(MESSAGING_COOKIE));
      const account = login === undefined ? undefined : world.account(login);
      if (!account) return json(401, { status: 'error', message: 'Unauthorized', code: 'SessionExpired' });
      return { ...api(world, call, account), login: account.login };
    },
  };
}

/** Where /wiadomosci3 sends the browser: the one-time ticket opens a messaging session. */
function landing(world: World, call: Call): Reply {
  const opened = world.messaging.redeemTicket(call.query.get('ticket'));
  if (!opened) return html(401, page('Wiadomości', '<p>Sesja wygasła. Zaloguj się ponownie.</p>'));
  return html(200, page('Wiadomości', '<div id="app" data-module="wiadomosci">Ładowanie wiadomości…</div>'), {
    login: opened.login,
    cookies: [setCookie(MESSAGING_COOKIE, opened.sid)],
  });
}

function api(world: World, call: Call, account: SimAccount): Reply {
  const m = world.messaging;
  const login = account.login;
  if (call.method === 'POST') {
    if (call.path === '/api/messages') return send(world, call, account, false);
    if (call.path === '/api/messages/reply') return send(world, call, account, true);
    return notFound();
  }
  if (call.method !== 'GET') return json(405, { status: 'error', message: 'Method not allowed' });
  switch (call.path) {
    case '/api/inbox/unreadMessagesCount':
      return json(200, { data: counters(m, login) });
    case '/api/me': {
      const parent = account.data.account.parent;
      return json(200, {
        firstName: parent.firstName,
        lastName: parent.lastName,
        groupName: 'Rodzic',
        accountId: parentAccountId(account),
        accessToAttachments: m.attachmentsAllowed(login),
      });
    }
    case '/api/receivers/types':
      return json(200, { data: { defaultGroup: m.fixture.defaultGroup, list: m.fixture.types } });
    case '/api/receivers/groups/school-employees':
      return json(200, { receivers: groupStaff(m, account, call.query.get('receiverType') ?? '').map(receiverEntry) });
    case '/api/receivers/student-subjects':
      return json(200, studentTeachers(m, account));
    case '/api/inbox/messages/senders': {
      const senders = new Map(
        m
          .box(login, 'inbox')
          .map((x) => [x.senderId, { senderId: x.senderId, senderFirstName: x.senderFirstName, senderLastName: x.senderLastName }]),
      );
      return json(200, { data: [...senders.values()] });
    }
    case '/api/outbox/messages/receivers': {
      const ids = new Set(m.outbox(login).flatMap((s) => s.receivers));
      return json(200, { data: [...ids].map((id) => ({ receiverId: id, ...nameParts(world, id) })) });
    }
  }
  const attachment = ATTACHMENT_PATH.exec(call.path);
  if (attachment) {
    // Needs no opening of the message and marks nothing read (spec 4.8); the link is the sandbox's.
    const [, attachmentId = '', messageId = ''] = attachment;
    const file = m.findMessage(login, Number(messageId))?.attachments.find((a) => a.id === attachmentId);
    return file ? attachmentLinkReply(world, login, attachmentId, file.filename) : notFound();
  }
  return mailboxRoute(world, call, account);
}

function mailboxRoute(world: World, call: Call, account: SimAccount): Reply {
  const match = MAILBOX_PATH.exec(call.path);
  if (!match) return notFound();
  const [, archive, name = '', idText] = match;
  const m = world.messaging;
  const login = account.login;
  const limit = Math.max(1, Math.min(100, Number(call.query.get('limit') ?? 50) || 50));
  if (archive) return archiveRoute(world, login, name, idText);
  if (name === 'outbox') {
    if (idText === undefined) {
      const all = outboxItems(world, m.outbox(login));
      return json(200, { data: all.slice(0, limit), total: all.length });
    }
    const found = m.outbox(login).find((s) => s.id === Number(idText));
    return found ? json(200, sentMessage(world, found)) : notFound();
  }
  if (!(MAILBOX_NAMES as readonly string[]).includes(name) || m.mailboxMissing(login, name)) return notFound();
  const mailbox = name as SimMailboxName;
  if (idText !== undefined) {
    const found = m.box(login, mailbox).find((x) => x.id === Number(idText));
    if (!found) return notFound();
    m.markRead(found);
    return json(200, fullMessage(world, found));
  }
  let messages = m.box(login, mailbox);
  if (call.query.get('unreadOnly') === '1') messages = messages.filter((x) => x.readDate === null);
  const items = listItems(world, messages).slice(0, limit);
  if (mailbox === BARE_ARRAY_MAILBOX) return json(200, items);
  return json(200, { data: items, total: messages.length });
}

/**
 * The archive of past school years (spec 2.10, 4.8): archive/inbox's list and its messages (the inbox's shape), the
 * archived sent list; the other mailboxes' archives list nothing here. Every list adds archivingInProgress.
 */
function archiveRoute(world: World, login: string, name: string, idText: string | undefined): Reply {
  const archived = world.messaging.archive(login);
  if (name === 'outbox') {
    if (idText !== undefined) return notFound();
    const items = outboxItems(world, archived.outbox);
    return json(200, { data: items, total: items.length, archivingInProgress: false });
  }
  if (!(MAILBOX_NAMES as readonly string[]).includes(name)) return notFound();
  const box = name === 'inbox' ? archived.inbox : [];
  if (idText !== undefined) {
    const found = box.find((x) => x.id === Number(idText));
    return found ? json(200, fullMessage(world, found)) : notFound();
  }
  return json(200, { data: listItems(world, box), total: box.length, archivingInProgress: false });
}

/** POST /messages and /messages/reply: checks the body as the portal would and records the message. */
function send(world: World, call: Call, account: SimAccount, reply: boolean): Reply {
  const m = world.messaging;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(call.body) as Record<string, unknown>;
    if (!body || typeof body !== 'object') throw new Error('not an object');
  } catch {
    return json(400, { status: 'error', errors: ['Nieprawidłowe dane żądania'] });
  }
  const receivers = (body.receivers as { schoolReceivers?: unknown } | undefined)?.schoolReceivers;
  const ids = Array.isArray(receivers) ? receivers.map((r) => (r as { accountId?: unknown } | null)?.accountId) : [];
  const known = new Set(m.fixture.staff.map((s) => s.accountId));
  if (ids.length === 0 || !ids.every((id): id is string => typeof id === 'string' && known.has(id))) {
    return json(400, { status: 'error', errors: ['Nieprawidłowy odbiorca wiadomości'] });
  }
  const topic = strictBase64(body.topic);
  const content = strictBase64(body.content);
  if (!topic?.trim() || !content?.trim()) {
    return json(422, { status: 'error', errors: ['Temat i treść wiadomości nie mogą być puste'] });
  }
  let originalMessageId: number | undefined;
  if (reply) {
    originalMessageId = Number(body.originalMessageId);
    const original = m.findMessage(account.login, originalMessageId);
    if (!original) return notFound();
    if (original.noReply === 1) return json(403, { status: 'error', errors: ['Na tę wiadomość nie można odpowiedzieć'] });
    if (ids.length !== 1 || ids[0] !== original.senderId) return json(400, { status: 'error', errors: ['Odpowiedź musi trafić do nadawcy'] });
  }
  const record = () =>
    m.recordSent({
      login: account.login,
      receivers: ids as string[],
      topic,
      content,
      category: body.category,
      ...(reply ? { originalMessageId } : {}),
    });
  const forced = m.takeNextSend(account.login);
  if (forced) {
    const stored = forced.deliver ? record() : undefined;
    const fallback =
      forced.status < 300 ? { data: { messageId: stored?.id ?? null, status: 'sent' } } : { status: 'error', errors: ['Błąd serwera'] };
    return json(forced.status, forced.body ?? fallback);
  }
  const stored = record();
  return reply ? json(200, { data: { status: 'sent' } }) : json(201, { data: { messageId: stored.id, status: 'sent' } });
}

/** Base64 of UTF-8 text, or undefined when the value is not clean base64 of valid UTF-8. */
function strictBase64(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(value, 'base64'));
  } catch {
    return undefined;
  }
}

function nameParts(world: World, accountId: string): { receiverFirstName: string; receiverLastName: string } {
  const staff = world.messaging.fixture.staff.find((s) => s.accountId === accountId);
  const [last = '', ...first] = (staff?.label ?? '').split(' ');
  return { receiverFirstName: first.join(' '), receiverLastName: last };
}

/** The parent's messaging account id, stable per login. */
function parentAccountId(account: SimAccount): string {
  return String(5_000_000 + (account.data.account.accountId % 1_000_000));
}

function notFound(): Reply {
  return json(404, { status: 'error', message: 'Not found' });
}
