// The schedule table of docs/polling.md, generated from the fetch plan's rows as the features declare
// them (as readme-tables.ts generates the entity table): the page cannot drift from what the bridge does.
import { MOMENTS, type Age, type Freshness, type PlanRow } from '../feature-kit/plan.js';
import type { Feature } from './feature.js';
import { FEATURES } from './index.js';
import { IDENTITY_ROW } from '../feature-kit/identity.js';
import { LOOKUP_ROWS } from '../feature-kit/lookups.js';

export const PLAN_PAGE = 'docs/polling.md';
const MARKERS = { start: '<!-- plan:start -->', end: '<!-- plan:end -->' } as const;
export const PLAN_WRITE_COMMAND = 'npm run build && node scripts/readme-tables.mjs --write';

const KNOBS: Record<string, string> = { news: '`school_interval`', normal: '`interval`', fast: '`fast_interval`' };

/** An age as a reader says it: a configured interval by its key, else minutes, hours or days. */
function age(value: Age): string {
  if (typeof value === 'string') return KNOBS[value] ?? value;
  if (value === Infinity) return 'never';
  if (value === 0) return 'every poll';
  const minutes = Math.round(value / 60_000);
  if (minutes % (24 * 60) === 0 || minutes >= 23 * 60) return `${Math.round(minutes / (24 * 60))} d`;
  if (minutes % 60 === 0) return `${minutes / 60} h`;
  if (minutes > 60 && (minutes + 5) % 60 === 0) return `${(minutes + 5) / 60} h`; // "hourly" a little under the hour
  if (minutes === 55) return '1 h';
  return `${minutes} min`;
}

/** One cell per moment, or one for all when they are the same. */
function ages(fresh: Freshness): string[] {
  return MOMENTS.map((m) => age(fresh[m]));
}

const REFRESH = { read: 'reads it', unvouched: 'trusts no signal', keep: '—' } as const;

function line(row: PlanRow, tier: string): string {
  const vouch = row.vouch ? `${row.vouch.by}: then ${[...new Set(ages(row.vouch.fresh))].join(' / ')}` : '';
  const name = row.note ? `\`${row.resource}\` (${row.note})` : `\`${row.resource}\``;
  return `| ${[name.replace(/\|/g, '\\|'), tier, ...ages(row.fresh), vouch, REFRESH[row.refresh]].join(' | ')} |`;
}

function planTable(features: readonly Feature[]): string {
  // A feature that waits for the second cycle says so beside its tier (a start's requests are the dearest).
  const lines = [
    ...features.flatMap((f) => (f.plan ?? []).map((row) => line(row, row.notAtStart ? `${f.tier ?? ''}, not at a start` : (f.tier ?? '')))),
    // The bridge's own rows, beside the features': who the child is, and the lookups every feature shares.
    line(IDENTITY_ROW, 'every pass'),
    line(LOOKUP_ROWS.usual, 'both'),
    line(LOOKUP_ROWS.onMiss, 'both'),
  ];
  return [
    MARKERS.start,
    `<!-- generated from the features' fetch plan rows by \`${PLAN_WRITE_COMMAND}\`; edit the rows, not this table -->`,
    `| resource | tier | ${MOMENTS.join(' | ')} | vouched for by (age then) | a refresh |`,
    `|---|---|${MOMENTS.map(() => '---').join('|')}|---|---|`,
    ...lines,
    MARKERS.end,
  ].join('\n');
}

function between(text: string): { from: number; to: number } | undefined {
  const from = text.indexOf(MARKERS.start);
  const end = text.indexOf(MARKERS.end, from);
  return from < 0 || end < 0 ? undefined : { from, to: end + MARKERS.end.length };
}

/** The page with its schedule table made anew. */
export function withPlanTable(page: string, features: readonly Feature[] = FEATURES): string {
  const at = between(page);
  if (!at) throw new Error(`${PLAN_PAGE} has no ${MARKERS.start} ... ${MARKERS.end} pair to write the table between`);
  return page.slice(0, at.from) + planTable(features) + page.slice(at.to);
}

/** What is wrong with the page's schedule table (empty when it is what the rows say). */
export function planTableProblems(page: string, features: readonly Feature[] = FEATURES): string[] {
  const at = between(page);
  if (!at) return [`${PLAN_PAGE} has no ${MARKERS.start} ... ${MARKERS.end} pair; add it where the table goes, then run: ${PLAN_WRITE_COMMAND}`];
  return page.slice(at.from, at.to) === planTable(features) ? [] : [`${PLAN_PAGE}'s schedule table is not what the fetch plan says; run: ${PLAN_WRITE_COMMAND}`];
}
