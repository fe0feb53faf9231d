// The newer partial grades (spec 4.5) of the grades feature: the child's LID through Auth/TokenInfo and
// Auth/UserInfo, then one POST of the first page. Read at their row's age (rows.partial).
import { partialGradesResponse } from '../portal/schemas/partial.js';
import { tokenInfoResponse, userInfoResponse } from '../portal/schemas/identity.js';
import type { SourceContext } from '../feature-kit/source.js';
import type { PlanRow } from '../feature-kit/plan.js';

/** The day the log last said that only the first page was read (once a day). */
export interface FirstPageTold {
  day?: string;
}

/**
 * The newer partial grades (spec 4.5): the child's LID first, then one POST, hourly. Only the first
 * page is read (the spec does not show how the next is asked for): `whole` says whether it held
 * every grade (`pagination.total`), and the log says once a day when it did not.
 */
export async function readPartialGrades(ctx: SourceContext, told: FirstPageTold, rows: Record<'tokenInfo' | 'userInfo' | 'partial', PlanRow>) {
  const token = await ctx.cache.get({ endpoint: 'Auth/TokenInfo', schema: tokenInfoResponse, row: rows.tokenInfo, staleOnError: true });
  const userLid = token?.UserIdentifier;
  if (!userLid) return undefined;
  const info = await ctx.cache.get({
    endpoint: `Auth/UserInfo/${encodeURIComponent(userLid)}`,
    schema: userInfoResponse,
    row: rows.userInfo,
    staleOnError: true,
  });
  const childLid = info?.IdentifierOfStudentAssignedWithUser;
  if (!childLid) return undefined;
  const endpoint = `Auth/DescriptiveGradingSystem/PartialGrades/Student/${encodeURIComponent(childLid)}`;
  const answer = await ctx.cache.get({ endpoint, schema: partialGradesResponse, row: rows.partial, list: (r) => r.data, post: {} });
  if (answer === undefined) return undefined;
  const total = answer.pagination?.total;
  const whole = total === undefined || total <= answer.data.length;
  if (!whole && told.day !== ctx.today) {
    told.day = ctx.today;
    ctx.log.warn({ read: answer.data.length, total }, 'partial grades: only the first page was read; grades past it are not shown and fire no event');
  }
  return { data: answer.data, whole };
}
