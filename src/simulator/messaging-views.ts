// How the messaging host writes its data (spec 2.10): counters, list items with the byte-cut base64
// preview, full messages in their <Message><Content> wrapper, outbox items and receivers.
import { expand } from './expand.js';
import { MAILBOX_NAMES } from './messaging-state.js';
import type { SentMessage, SimMessage, SimMessaging, StaffFixture } from './messaging-state.js';
import type { SimAccount } from './account.js';
import type { World } from './world.js';

/** Fixture dates are relative ("{{today-1}} 15:42:10"); they are expanded when served. */
export function dateOf(world: World, value: string | null): string | null {
  if (value === null) return null;
  return String(expand(value, { today: world.today(), nowMs: world.now(), api: '', base: '' }));
}

function b64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

/** The list preview: the first bytes of the body's UTF-8, cut wherever the count ends (even mid-character). */
export function preview(body: string, bytes: number): string {
  return Buffer.from(body, 'utf8').subarray(0, bytes).toString('base64');
}

export function counters(messaging: SimMessaging, login: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of MAILBOX_NAMES) {
    out[name] = messaging.mailboxMissing(login, name) ? 0 : messaging.box(login, name).filter((m) => m.readDate === null).length;
  }
  for (const name of MAILBOX_NAMES) out[`archive${name[0]!.toUpperCase()}${name.slice(1)}`] = 0;
  return out;
}

function newestFirst<T extends { sendDate: string | null }>(items: T[]): T[] {
  return items.sort((a, b) => (b.sendDate ?? '').localeCompare(a.sendDate ?? ''));
}

export function listItems(world: World, messages: readonly SimMessage[]): Record<string, unknown>[] {
  const bytes = world.messaging.fixture.previewBytes;
  return newestFirst(
    messages.map((m) => ({
      messageId: String(m.id),
      // Staff come with the name in two parts and an empty senderName; a system sender the other way.
      senderName: m.senderLastName === '' ? m.senderFirstName : '',
      senderFirstName: m.senderFirstName,
      senderLastName: m.senderLastName,
      topic: m.topic,
      content: preview(m.body, bytes),
      sendDate: dateOf(world, m.sent),
      readDate: dateOf(world, m.readDate),
      isAnyFileAttached: m.attachments.length > 0,
      otherNodeAccountId: null,
      category: 'normal',
      tags: [],
    })),
  );
}

export function fullMessage(world: World, m: SimMessage): Record<string, unknown> {
  return {
    data: {
      messageId: String(m.id),
      topic: m.topic,
      Message: b64(`<Message><Content><![CDATA[${m.body}]]></Content></Message>`),
      senderId: m.senderId,
      senderGroupId: m.senderGroupId,
      senderFirstName: m.senderFirstName,
      senderLastName: m.senderLastName,
      sendDate: dateOf(world, m.sent),
      readDate: dateOf(world, m.readDate),
      attachments: m.attachments,
      noReply: m.noReply,
      enableMessageWithdrawn: 0,
      isMessageWithdrawn: m.withdrawn,
    },
  };
}

function receiverName(messaging: SimMessaging, accountId: string): { first: string; last: string } {
  const staff = messaging.fixture.staff.find((s) => s.accountId === accountId);
  const [last = accountId, ...first] = (staff?.label ?? accountId).split(' ');
  return { first: first.join(' '), last };
}

export function outboxItems(world: World, sent: readonly SentMessage[]): Record<string, unknown>[] {
  const bytes = world.messaging.fixture.previewBytes;
  return newestFirst(
    sent.map((s) => {
      const first = receiverName(world.messaging, s.receivers[0] ?? '');
      return {
        messageId: String(s.id),
        receiverName: '',
        receiverFirstName: first.first,
        receiverLastName: first.last,
        topic: s.topic,
        content: preview(s.content, bytes),
        sendDate: dateOf(world, s.sent),
        tags: [],
        category: 'normal',
        isAnyFileAttached: false,
      };
    }),
  );
}

export function sentMessage(world: World, s: SentMessage): Record<string, unknown> {
  const receivers = s.receivers.map((id) => {
    const name = receiverName(world.messaging, id);
    const at = s.readAt?.[id];
    const readed = at === undefined ? 0 : world.messaging.readedForm === 'flag' ? 1 : dateOf(world, at);
    return { firstName: name.first, lastName: name.last, group: 'Nauczyciele', readed };
  });
  return {
    data: {
      messageId: String(s.id),
      topic: s.topic,
      Message: b64(`<Message><Content><![CDATA[${s.content}]]></Content></Message>`),
      sendDate: dateOf(world, s.sent),
      attachments: [],
      noReply: 0,
      enableMessageWithdrawn: 1,
      isMessageWithdrawn: 0,
      receivers,
      receiversCount: receivers.length,
      readedCount: receivers.filter((r) => r.readed !== 0).length,
    },
  };
}

/** The staff a parent of this account may write to in a group; 'tutors' is the class's own tutor. */
export function groupStaff(messaging: SimMessaging, account: SimAccount, group: string): StaffFixture[] {
  if (group === 'tutors') {
    // The tutor of the class the child is in today: a new school year may have moved it up.
    account.year.settle();
    const klass = account.school.classes.find((c) => c.Id === account.data.account.classId);
    return messaging.fixture.staff.filter((s) => s.user !== undefined && s.user === klass?.ClassTutor);
  }
  return messaging.fixture.staff.filter((s) => s.groups.includes(group));
}

export function receiverEntry(s: StaffFixture): Record<string, unknown> {
  return { accountId: s.accountId, label: s.label, userId: s.userId ?? null, availabilityStatus: { isAvailable: true, returnAt: null } };
}

/** The child's teachers with their subjects, from the account's lessons. */
export function studentTeachers(messaging: SimMessaging, account: SimAccount): Record<string, unknown>[] {
  const subjects = (account.resources.get('Subjects') as { Subjects?: { Id: number; Name: string }[] } | undefined)?.Subjects ?? [];
  const seen = new Set<string>();
  const out: Record<string, unknown>[] = [];
  for (const lesson of Object.values(account.data.lessons)) {
    const staff = messaging.staffByUser(lesson.teacher);
    const subject = subjects.find((s) => s.Id === lesson.subject)?.Name ?? '';
    const key = `${staff?.accountId}:${subject}`;
    if (!staff || seen.has(key)) continue;
    seen.add(key);
    out.push({ teacherIdentifier: staff.accountId, subject });
  }
  return out;
}
