// The newer partial grades (spec 4.5) of the grades feature: the user's LID (Auth/TokenInfo), the
// child's (Auth/UserInfo/<lid>), then one POST of the first page. Each step is read once the one
// before it is known, in the same pass.
import { want, type Copies, type Want } from '../../engine/resource.js';
import { PARTIAL_GRADES, TOKEN_INFO, USER_INFO } from '../../engine/resources/grades.js';
import type { SourceContext } from '../../engine/source.js';

/** The day the log last said that only the first page was read (once a day). */
export interface FirstPageTold {
  day?: string;
}

/** The steps of the partial grades known so far: the LIDs, and the list once the child's LID is known. */
export function partialWants(copies: Copies): { chain: Want[]; list?: Want } {
  const userLid = copies.peek(TOKEN_INFO)?.UserIdentifier ?? undefined;
  const childLid = userLid === undefined ? undefined : (copies.peek(USER_INFO, userLid)?.IdentifierOfStudentAssignedWithUser ?? undefined);
  return {
    chain: [want(TOKEN_INFO), ...(userLid === undefined ? [] : [want(USER_INFO, userLid)])],
    ...(childLid === undefined ? {} : { list: want(PARTIAL_GRADES, childLid) }),
  };
}

/**
 * The partial grades as read. Only the first page is read (the spec does not show how the next is
 * asked for): `whole` says whether it held every grade (`pagination.total`), and the log says once a
 * day when it did not.
 */
export function partialGrades(ctx: SourceContext, told: FirstPageTold, list: Want | undefined) {
  const answer = list === undefined ? undefined : ctx.cache.get(PARTIAL_GRADES, list.key);
  if (answer === undefined) return undefined;
  const total = answer.pagination?.total;
  const whole = total === undefined || total <= answer.data.length;
  if (!whole && told.day !== ctx.today) {
    told.day = ctx.today;
    ctx.log.warn({ read: answer.data.length, total }, 'partial grades: only the first page was read; grades past it are not shown and fire no event');
  }
  return { data: answer.data, whole };
}
