// The messaging subsystem's world: the school's staff as receivers, each account's mailboxes, the
// short-lived messaging sessions, what was sent, and the switches tests flip (module absent, session
// expiry, the next send's answer). The host's routes (messages.ts) read and change it.
import { randomBytes } from 'node:crypto';
import { warsawNow } from './dates.js';
import { loadFixture } from './fixtures.js';
import type { SimAccount } from './account.js';
import { MAILBOX_NAMES } from './messaging-types.js';
import type {
  SimMailboxName,
  StaffFixture,
  MessagingFixture,
  SimMessage,
  SentMessage,
  NextSendAnswer,
  MessageFixture,
  OutboxFixture,
} from './messaging-types.js';
import { MINUTE } from '../util/duration.js';

export { MAILBOX_NAMES } from './messaging-types.js';
export type { SimMailboxName, StaffFixture, MessagingFixture, SimMessage, SentMessage, NextSendAnswer } from './messaging-types.js';

/** The default life of a messaging session on the simulator's clock (the real ones die within the hour). */
export const MESSAGING_SESSION_LIFETIME_MS = 40 * MINUTE;
const TICKET_LIFETIME_MS = 2 * MINUTE;
interface Mailboxes {
  boxes: Map<SimMailboxName, SimMessage[]>;
  outbox: SentMessage[];
  /** Past school years' messages, received and sent (the archive mailboxes). */
  archive: { inbox: SimMessage[]; outbox: SentMessage[] };
}

export interface MessagingEnv {
  now(): number;
  today(): string;
  account(login: string): SimAccount | undefined;
}

export class SimMessaging {
  /** Life of new messaging sessions; tests may shorten it. */
  sessionLifetimeMs = MESSAGING_SESSION_LIFETIME_MS;
  readonly fixture: MessagingFixture;
  /** `readed` of a sent message's receivers: the time of reading (the default) or only a 0/1 flag. */
  readedForm: 'time' | 'flag' = 'time';
  /** Every message accounts sent, in order (tests assert recipient, topic and body here). */
  readonly sent: SentMessage[] = [];
  private readonly sessions = new Map<string, { login: string; expiresAt: number; killed: boolean }>();
  private readonly tickets = new Map<string, { login: string; until: number }>();
  private readonly mailboxes = new Map<string, Mailboxes>();
  private readonly absentModule = new Set<string>();
  private readonly missing = new Map<string, Set<string>>();
  private readonly nextSend = new Map<string, NextSendAnswer>();
  private readonly attachmentsRefused = new Set<string>();
  private nextId = 0;

  constructor(private readonly env: MessagingEnv) {
    this.fixture = loadFixture<MessagingFixture>('messages');
  }

  // --- sessions -------------------------------------------------------------------------------

  issueTicket(login: string): string {
    const ticket = randomBytes(16).toString('hex');
    this.tickets.set(ticket, { login, until: this.env.now() + TICKET_LIFETIME_MS });
    return ticket;
  }

  /** Single use: opens a messaging session for the ticket's login. */
  redeemTicket(ticket: string | null): { sid: string; login: string } | undefined {
    const entry = ticket === null ? undefined : this.tickets.get(ticket);
    if (ticket !== null) this.tickets.delete(ticket);
    if (!entry || entry.until < this.env.now()) return undefined;
    const sid = randomBytes(16).toString('hex');
    this.sessions.set(sid, { login: entry.login, expiresAt: this.env.now() + this.sessionLifetimeMs, killed: false });
    return { sid, login: entry.login };
  }

  /** The login of a messaging session cookie, live or not (for the request log). */
  sessionLogin(sid: string | undefined): string | undefined {
    return sid === undefined ? undefined : this.sessions.get(sid)?.login;
  }

  liveSession(sid: string | undefined): string | undefined {
    const s = sid === undefined ? undefined : this.sessions.get(sid);
    return s && !s.killed && this.env.now() < s.expiresAt ? s.login : undefined;
  }

  /** Ends the messaging sessions of a login (or all): the next API call answers 401. */
  expireSessions(login?: string): void {
    for (const s of this.sessions.values()) if (login === undefined || s.login === login) s.killed = true;
  }

  // --- switches -------------------------------------------------------------------------------

  /** The school of this login has no messages module: /wiadomosci3 answers Brak dostępu. */
  setModuleAbsent(login: string, absent: boolean): void {
    if (absent) this.absentModule.add(login);
    else this.absentModule.delete(login);
  }

  moduleAbsent(login: string): boolean {
    return this.absentModule.has(login);
  }

  /**
   * How /wiadomosci3 sends a live session on (live-notes 15): 'direct' to the messaging host (the
   * default), 'auth' through the authorization host first, 'outside' to a host none configured.
   */
  bootstrapRoute: 'direct' | 'auth' | 'outside' = 'direct';

  /** Makes mailboxes answer 404 for a login (the fixture already does so for some accounts). */
  setMissingMailboxes(login: string, mailboxes: string[]): void {
    this.missing.set(login, new Set(mailboxes));
  }

  mailboxMissing(login: string, mailbox: string): boolean {
    const set = this.missing.get(login) ?? new Set(this.profile(login)?.missingMailboxes ?? []);
    return set.has(mailbox);
  }

  /** The next POST /messages of this login answers so (once). */
  answerNextSend(login: string, answer: NextSendAnswer): void {
    this.nextSend.set(login, answer);
  }

  takeNextSend(login: string): NextSendAnswer | undefined {
    const answer = this.nextSend.get(login);
    this.nextSend.delete(login);
    return answer;
  }

  /** Adds a receiver to the school's staff lists (e.g. a second teacher of the same name). */
  addStaff(staff: StaffFixture): void {
    this.fixture.staff.push(staff);
  }

  /** The account switch of /api/me's accessToAttachments: false plays a school that allows no attachments. */
  allowAttachments(login: string, allowed: boolean): void {
    if (allowed) this.attachmentsRefused.delete(login);
    else this.attachmentsRefused.add(login);
  }

  attachmentsAllowed(login: string): boolean {
    return !this.attachmentsRefused.has(login);
  }

  // --- mailboxes ------------------------------------------------------------------------------

  /**
   * A new message in a mailbox of this login, sent now unless told otherwise; `read` plays a parent who
   * opened it in the register's own app at once (its unread counter never changes).
   */
  addMessage(
    login: string,
    init: {
      topic: string;
      body: string;
      from?: number | 'system';
      mailbox?: SimMailboxName;
      sent?: string;
      noReply?: 0 | 1;
      attachments?: { id: string; filename: string }[];
      read?: boolean;
      withdrawn?: boolean;
    },
  ): SimMessage {
    const box = this.box(login, init.mailbox ?? 'inbox');
    const { date, time } = warsawNow(this.env.now());
    const message = this.toMessage({
      id: this.newId(),
      from: init.from ?? 'system',
      topic: init.topic,
      body: init.body,
      sent: init.sent ?? `${date} ${time}`,
      read: init.read ?? false,
      noReply: init.noReply ?? 0,
      attachments: init.attachments ?? [],
      withdrawn: init.withdrawn ?? false,
    });
    box.push(message);
    return message;
  }

  box(login: string, mailbox: SimMailboxName): SimMessage[] {
    const boxes = this.state(login).boxes;
    let box = boxes.get(mailbox);
    if (!box) boxes.set(mailbox, (box = []));
    return box;
  }

  outbox(login: string): SentMessage[] {
    return this.state(login).outbox;
  }

  /** The archive of past school years: its received messages (`inbox`) and sent ones (`outbox`). */
  archive(login: string): { inbox: SimMessage[]; outbox: SentMessage[] } {
    return this.state(login).archive;
  }

  /** Finds a received message of the login in any mailbox. */
  findMessage(login: string, id: number): SimMessage | undefined {
    for (const box of this.state(login).boxes.values()) {
      const found = box.find((m) => m.id === id);
      if (found) return found;
    }
    return undefined;
  }

  markRead(message: SimMessage): void {
    if (message.readDate !== null) return;
    const { date, time } = warsawNow(this.env.now());
    message.readDate = `${date} ${time}`;
  }

  /**
   * A receiver opens a message the login sent (every receiver when none is named): the sent message
   * then lists them with `readed`.
   */
  readSent(login: string, id: number, receiverAccountId?: string): void {
    const sent = this.outbox(login).find((s) => s.id === id);
    if (!sent) throw new Error(`simulator: ${login} sent no message ${id}`);
    const { date, time } = warsawNow(this.env.now());
    sent.readAt ??= {};
    for (const r of sent.receivers) if (receiverAccountId === undefined || r === receiverAccountId) sent.readAt[r] ??= `${date} ${time}`;
  }

  recordSent(entry: Omit<SentMessage, 'id' | 'sent'>): SentMessage {
    const { date, time } = warsawNow(this.env.now());
    const sent: SentMessage = { ...entry, id: this.newId(), sent: `${date} ${time}` };
    this.sent.push(sent);
    this.state(entry.login).outbox.push(sent);
    return sent;
  }

  staffByUser(user: number): StaffFixture | undefined {
    return this.fixture.staff.find((s) => s.user === user);
  }

  newId(): number {
    if (this.nextId === 0) {
      const ids = Object.values(this.fixture.profiles).flatMap((p) => [
        ...Object.values(p.mailboxes).flatMap((b) => b.map((m) => m.id)),
        ...p.outbox.map((m) => m.id),
      ]);
      this.nextId = Math.max(8_800_000, ...ids) + 1;
    }
    return this.nextId++;
  }

  private profile(login: string): MessagingFixture['profiles'][string] | undefined {
    const account = this.env.account(login);
    return account ? this.fixture.profiles[account.profile] : undefined;
  }

  /** Mailboxes are built from the fixture on first use, so that tests can change one account's. */
  private state(login: string): Mailboxes {
    let state = this.mailboxes.get(login);
    if (state) return state;
    const profile = this.profile(login);
    state = { boxes: new Map(), outbox: [], archive: { inbox: [], outbox: [] } };
    for (const [name, list] of Object.entries(profile?.mailboxes ?? {})) {
      if ((MAILBOX_NAMES as readonly string[]).includes(name))
        state.boxes.set(
          name as SimMailboxName,
          list.map((m) => this.toMessage(m)),
        );
    }
    for (const o of profile?.outbox ?? []) state.outbox.push(this.toSent(login, o));
    state.archive.inbox = (profile?.archive?.inbox ?? []).map((m) => this.toMessage(m));
    state.archive.outbox = (profile?.archive?.outbox ?? []).map((o) => this.toSent(login, o));
    this.mailboxes.set(login, state);
    return state;
  }

  private toSent(login: string, o: OutboxFixture): SentMessage {
    return {
      id: o.id,
      login,
      receivers: o.to.map((u) => this.staffByUser(u)?.accountId ?? String(u)),
      topic: o.topic,
      content: o.body,
      category: 'normal',
      sent: o.sent,
      // A receiver in the fixture's readBy read it when it arrived.
      readAt: Object.fromEntries((o.readBy ?? []).map((u) => [this.staffByUser(u)?.accountId ?? String(u), o.sent])),
    };
  }

  private toMessage(m: MessageFixture): SimMessage {
    const staff = m.from === 'system' ? undefined : this.staffByUser(m.from);
    const system = this.fixture.system;
    const [last = '', ...first] = staff ? staff.label.split(' ') : [];
    return {
      id: m.id,
      senderId: staff ? staff.accountId : system.senderId,
      senderFirstName: staff ? first.join(' ') : system.firstName,
      senderLastName: staff ? last : system.lastName,
      senderGroupId: staff ? (staff.groups.includes('headteachers') ? 2 : 3) : system.groupId,
      topic: m.topic,
      body: m.body,
      sent: m.sent,
      readDate: m.read ? m.sent : null,
      noReply: m.noReply ?? 0,
      attachments: m.attachments ?? [],
      withdrawn: m.withdrawn ?? false,
    };
  }
}
