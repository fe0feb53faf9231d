// Endpoints with a little logic beyond serving fixture data: the newer partial grades (a POST keyed by
// the child's LID) and homework attachment descriptors.
import { answers } from '../answers.js';
import type { DataResult } from '../answers.js';
import { expandIn, hideFuture } from './context.js';
import { hidePast } from '../year.js';
import type { DataContext } from './context.js';

/**
 * The first page, newest first (the account's partialPageLimit items, 100 unless a test says less):
 * the spec does not show how paging continues, so no other page is served; `total` counts them all.
 */
export function partialGrades(ctx: DataContext): DataResult {
  if (ctx.params.lid !== ctx.account.childLid) return answers.forbidden('Account not have access to resource');
  const items = hidePast(
    hideFuture({ data: expandIn<{ addDate?: unknown }[]>(ctx, ctx.account.data.partialGrades) }, ctx),
    ctx.account.year.since(ctx.today),
  ).data;
  const added = (item: { addDate?: unknown }): string => (typeof item.addDate === 'string' ? item.addDate : '');
  const newestFirst = [...items].sort((a, b) => added(b).localeCompare(added(a)));
  const limit = ctx.account.partialPageLimit;
  return answers.ok({ data: newestFirst.slice(0, limit), pagination: { limit, page: 1, total: items.length } });
}

interface HomeworkFile {
  Id: number | string;
  Name: string;
}

/** HomeWorkAssignments/Attachment/<homework id>-<file id>; the file id alone is a 400. */
export function homeworkAttachment(ctx: DataContext): DataResult {
  const m = /^(\d+)-(\d+)$/.exec(ctx.params.id ?? '');
  if (!m) return answers.badRequest('Invalid request params');
  const body = expandIn<{ HomeWorkAssignments?: { Id: number; HomeworkAssigmentFiles?: HomeworkFile[] }[] }>(
    ctx,
    ctx.account.resources.get('HomeWorkAssignments') ?? {},
  );
  const homework = body.HomeWorkAssignments?.find((h) => String(h.Id) === m[1]);
  const file = homework?.HomeworkAssigmentFiles?.find((f) => String(f.Id) === m[2]);
  if (!file) return answers.notFound();
  return answers.ok({ Id: file.Id, Name: file.Name, DownloadUrl: `${ctx.base}/homework/downloadFile/${file.Id}` });
}
