// Announcements: which are unread, which is newest, and one event per new announcement.
import type { Notice } from '../portal/schemas/notices.js';
import { portalTime } from './portal-values.js';
import { textCompare } from './order.js';
import type { NewsItem } from './news.js';

/** Longest announcement text an event carries. */
const EVENT_CONTENT_LIMIT = 500;

function noticeDate(n: Notice): string {
  return (n.CreationDate ?? n.StartDate ?? '').slice(0, 19);
}

/** Newest first, by creation (then start) date; ties by id so the order is stable. */
function sortNotices(notices: readonly Notice[]): Notice[] {
  return [...notices].sort((a, b) => textCompare(noticeDate(b), noticeDate(a)) || textCompare(b.Id, a.Id));
}

/** One announcement as a parent reads it. */
export type NoticeSummary = ReturnType<typeof summary>;

function summary(n: Notice) {
  return {
    id: n.Id,
    subject: n.Subject,
    content: n.Content,
    /** The day it was created (or starts), YYYY-MM-DD; empty when the portal gave neither. */
    day: noticeDate(n).slice(0, 10),
    created: portalTime(n.CreationDate) ?? null,
    startDate: n.StartDate ?? null,
    endDate: n.EndDate ?? null,
    read: n.WasRead,
  };
}

/** Every announcement, newest first, as a parent reads it. */
export function noticeSummaries(notices: readonly Notice[]): NoticeSummary[] {
  return sortNotices(notices).map(summary);
}

/** The unread announcements (`unread`), newest first, and the newest of all. */
export type NoticesView = ReturnType<typeof noticesView>;

export function noticesView(notices: readonly Notice[]) {
  const sorted = noticeSummaries(notices);
  return { unread: sorted.filter((n) => !n.read), newest: sorted[0] ?? null };
}

/** What a `notice` event carries: the notice's id, subject, day and its text cut short. */
export type NoticePayload = { id: Notice['Id']; subject: Notice['Subject']; date: string; content: string };

/** One `notice` event candidate per announcement; the seen memory decides which ones fire. */
export function noticeEvents(notices: readonly Notice[]): NewsItem<NoticePayload>[] {
  return sortNotices(notices).map((n) => ({
    id: n.Id,
    payload: { id: n.Id, subject: n.Subject, date: noticeDate(n).slice(0, 10), content: cut(n.Content, EVENT_CONTENT_LIMIT) },
  }));
}

/** A text cut to a length, with an ellipsis. */
export function cut(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}
