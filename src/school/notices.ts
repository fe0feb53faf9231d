// Announcements: how many are unread, which is newest, and one event per new announcement.
import type { EntityState, EventPayload } from '../ha/state.js';
import type { Notice } from '../portal/schemas/notices.js';

const NEWEST_IN_ATTRIBUTES = 5;
const CONTENT_LIMIT = 4000;

function noticeDate(n: Notice): string {
  return (n.CreationDate ?? n.StartDate ?? '').slice(0, 19);
}

/** Newest first, by creation (then start) date; ties by id so the order is stable. */
export function sortNotices(notices: readonly Notice[]): Notice[] {
  return [...notices].sort((a, b) => noticeDate(b).localeCompare(noticeDate(a)) || b.Id.localeCompare(a.Id));
}

export function noticeEntities(notices: readonly Notice[]): { unread_notices: EntityState; newest_notice: EntityState } {
  const sorted = sortNotices(notices);
  const unread = sorted.filter((n) => !n.WasRead);
  const newest = sorted[0];
  return {
    unread_notices: {
      state: String(unread.length),
      attributes: {
        notices: unread.slice(0, NEWEST_IN_ATTRIBUTES).map((n) => ({ id: n.Id, subject: n.Subject, date: noticeDate(n).slice(0, 10) })),
      },
    },
    newest_notice: newest
      ? {
          state: truncate(newest.Subject, 255) || '(no subject)',
          attributes: {
            id: newest.Id,
            content: truncate(newest.Content, CONTENT_LIMIT),
            created: newest.CreationDate ?? null,
            start_date: newest.StartDate ?? null,
            end_date: newest.EndDate ?? null,
            read: newest.WasRead,
          },
        }
      : { state: null, attributes: {} },
  };
}

export function noticeEvents(notices: readonly Notice[]): { id: string; payload: EventPayload }[] {
  return sortNotices(notices).map((n) => ({
    id: n.Id,
    payload: {
      event_type: 'notice',
      id: n.Id,
      subject: n.Subject,
      date: noticeDate(n).slice(0, 10),
      content: truncate(n.Content, 500),
    },
  }));
}

function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}
