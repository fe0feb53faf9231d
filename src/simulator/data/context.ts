// What a data builder gets for one gateway request: the account, the simulated day and time, the
// request's query and body, and expand() bound to today's date.
import type { SimAccount } from '../account.js';
import { expand } from '../expand.js';
import type { ExpandContext } from '../expand.js';

export interface DataContext extends ExpandContext {
  account: SimAccount;
  /** Warsaw wall-clock time of the simulator's now, HH:MM:SS. */
  clock: string;
  method: string;
  query: URLSearchParams;
  body: string;
  /** Path parameters of the matched route. */
  params: Record<string, string>;
}

export function expandIn<T = unknown>(ctx: DataContext, value: unknown): T {
  return expand<T>(value, ctx);
}

/** "YYYY-MM-DD HH:MM:SS" of the simulated now, to compare with AddDate-like fields. */
export function nowStamp(ctx: DataContext): string {
  return `${ctx.today} ${ctx.clock}`;
}

const ADDED_FIELDS = ['AddDate', 'CreationDate', 'addDate'];

/**
 * Drops records from a body's lists whose AddDate (or CreationDate) lies after now: a fixture can hold
 * something dated at the end of the semester, and it appears only once that moment has passed.
 */
export function hideFuture<T>(body: T, ctx: DataContext): T {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const now = nowStamp(ctx);
  const out: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const [key, value] of Object.entries(out)) {
    if (!Array.isArray(value)) continue;
    out[key] = value.filter((item: unknown) => {
      if (!item || typeof item !== 'object') return true;
      const record = item as Record<string, unknown>;
      return ADDED_FIELDS.every((f) => typeof record[f] !== 'string' || (record[f] as string) <= now);
    });
  }
  return out as T;
}
