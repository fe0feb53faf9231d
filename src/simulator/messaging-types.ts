// The shapes of the simulated messaging world: its fixture file, its messages, what was sent, and
// the next send's scripted answer.

export const MAILBOX_NAMES = ['inbox', 'notes', 'alerts', 'substitutions', 'absences', 'justifications', 'trash'] as const;
export type SimMailboxName = (typeof MAILBOX_NAMES)[number];

export interface StaffFixture {
  user?: number;
  accountId: string;
  userId?: string;
  label: string;
  groups: string[];
}

export interface MessageFixture {
  id: number;
  from: number | 'system';
  topic: string;
  body: string;
  sent: string;
  read: boolean;
  noReply?: 0 | 1;
  attachments?: { id: string; filename: string }[];
  /** The sender withdrew it: its full answer says isMessageWithdrawn true (the lists do not say). */
  withdrawn?: boolean;
}

export interface OutboxFixture {
  id: number;
  to: number[];
  topic: string;
  body: string;
  sent: string;
  readBy?: number[];
}

export interface MessagingFixture {
  previewBytes: number;
  defaultGroup: string;
  types: { id: string; name: string }[];
  staff: StaffFixture[];
  system: { senderId: string; firstName: string; lastName: string; groupId: number };
  profiles: Record<
    string,
    {
      missingMailboxes: string[];
      mailboxes: Record<string, MessageFixture[]>;
      outbox: OutboxFixture[];
      /** Past school years' messages (spec 2.10, 4.8; live-notes 40: they move to an archive folder): received, and sent. */
      archive?: { inbox?: MessageFixture[]; outbox?: OutboxFixture[] };
    }
  >;
}

/** A received message; `sent` may hold a fixture date token, expanded when served. */
export interface SimMessage {
  id: number;
  senderId: string;
  senderFirstName: string;
  senderLastName: string;
  senderGroupId: number;
  topic: string;
  /** The body as HTML. */
  body: string;
  sent: string;
  readDate: string | null;
  noReply: 0 | 1;
  attachments: { id: string; filename: string }[];
  withdrawn: boolean;
}

/** A message the account sent (POST /messages or /messages/reply), as the portal stored it. */
export interface SentMessage {
  id: number;
  login: string;
  receivers: string[];
  topic: string;
  /** The decoded content (HTML). */
  content: string;
  category: unknown;
  sent: string;
  /** Set for a reply. */
  originalMessageId?: number;
  /** Receivers (accountId) who opened it, with when ("YYYY-MM-DD HH:MM:SS", may hold a date token). */
  readAt?: Record<string, string>;
}

export interface NextSendAnswer {
  status: number;
  /** JSON body; default: an error body for 4xx/5xx, the usual answer for 2xx. */
  body?: unknown;
  /** Whether the message is stored as sent although the answer says otherwise (an unknown outcome). */
  deliver?: boolean;
}
