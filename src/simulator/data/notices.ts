// SchoolNotices and the one write of the data gateway, marking a notice read. WasRead is per account
// (each account holds its own copy of the school's notices).
import { answers } from '../answers.js';
import type { DataResult } from '../answers.js';
import { expandIn, hideFuture } from './context.js';
import type { DataContext } from './context.js';

function visibleNotices(ctx: DataContext): Record<string, unknown>[] {
  const list = ctx.account.notices.map((n) => ({
    Id: n.Id,
    StartDate: n.StartDate,
    EndDate: n.EndDate,
    Subject: n.Subject,
    Content: n.Content,
    AddedBy: n.AddedBy ?? '@Users/162014',
    CreationDate: n.CreationDate,
    WasRead: n.WasRead,
  }));
  return hideFuture({ SchoolNotices: expandIn<Record<string, unknown>[]>(ctx, list) }, ctx).SchoolNotices;
}

export function schoolNotices(ctx: DataContext): DataResult {
  const list = visibleNotices(ctx);
  if (ctx.params.id === undefined) return answers.ok({ SchoolNotices: list });
  const one = list.find((n) => n.Id === ctx.params.id);
  return one ? answers.ok({ SchoolNotice: one }) : answers.notFound();
}

/** Unread: 200 and read from now on. Already read: 400 [212]. Unknown (or not yet visible): 404. */
export function markAsRead(ctx: DataContext): DataResult {
  const visible = new Set(visibleNotices(ctx).map((n) => n.Id));
  const notice = ctx.account.notices.find((n) => n.Id === ctx.params.id);
  if (!notice || !visible.has(notice.Id)) return answers.notFound();
  if (notice.WasRead) return answers.invalidRequest();
  notice.WasRead = true;
  return answers.ok({ Status: 'Ok' });
}
