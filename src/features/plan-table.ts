// The schedule table of docs/polling.md, generated from the resources' declarations (as readme-tables.ts
// generates the entity table): the page cannot drift from what the bridge does, and a resource stands
// in it once however many features read it.
import { MOMENTS, type Age, type Freshness } from '../feature-kit/plan.js';
import type { Resource } from '../feature-kit/resource.js';
import { RESOURCES } from '../resources/index.js';

export const PLAN_PAGE = 'docs/polling.md';
const MARKERS = { start: '<!-- plan:start -->', end: '<!-- plan:end -->' } as const;
export const PLAN_WRITE_COMMAND = 'npm run build && node scripts/readme-tables.mjs --write';

const KNOBS: Record<string, string> = { news: '`school_interval`', normal: '`interval`', fast: '`fast_interval`' };

/** An age as a reader says it: a configured interval by its key, else minutes, hours or days. */
function age(value: Age): string {
  if (typeof value === 'string') return KNOBS[value] ?? value;
  if (value === Infinity) return 'never';
  if (value === 0) return 'every pass';
  const minutes = Math.round(value / 60_000);
  if (minutes % (24 * 60) === 0 || minutes >= 23 * 60) return `${Math.round(minutes / (24 * 60))} d`;
  if (minutes % 60 === 0) return `${minutes / 60} h`;
  if (minutes > 60 && (minutes + 5) % 60 === 0) return `${(minutes + 5) / 60} h`; // "hourly" a little under the hour
  if (minutes === 55) return '1 h';
  return `${minutes} min`;
}

/** One cell per moment. */
function ages(fresh: Freshness): string[] {
  return MOMENTS.map((m) => age(fresh[m]));
}

const ASKED = { read: 'reads it', 'read refused': 'reads it, refused or not', unvouched: 'trusts no signal', keep: '—' } as const;

function line(res: Resource): string {
  const vouch = res.vouch ? `${res.vouch.by}: then ${[...new Set(ages(res.vouch.fresh))].join(' / ')}` : '';
  const name = res.note ? `\`${res.name}\` (${res.note})` : `\`${res.name}\``;
  const host = res.notAtStart ? `${res.host}, not at a start` : res.host;
  const feed = (res.feed ?? []).map((type) => `\`${type}\``).join(', ');
  return `| ${[name.replace(/\|/g, '\\|'), host, ...ages(res.fresh), vouch, ASKED[res.whenAsked], feed].join(' | ')} |`;
}

function planTable(resources: readonly Resource[]): string {
  return [
    MARKERS.start,
    `<!-- generated from the resources' declarations (src/resources/) by \`${PLAN_WRITE_COMMAND}\`; edit the declarations, not this table -->`,
    `| resource | host | ${MOMENTS.join(' | ')} | vouched for by (age then) | a refresh | the change feed's name |`,
    `|---|---|${MOMENTS.map(() => '---').join('|')}|---|---|---|`,
    ...resources.map(line),
    MARKERS.end,
  ].join('\n');
}

function between(text: string): { from: number; to: number } | undefined {
  const from = text.indexOf(MARKERS.start);
  const end = text.indexOf(MARKERS.end, from);
  return from < 0 || end < 0 ? undefined : { from, to: end + MARKERS.end.length };
}

/** The page with its schedule table made anew. */
export function withPlanTable(page: string, resources: readonly Resource[] = RESOURCES): string {
  const at = between(page);
  if (!at) throw new Error(`${PLAN_PAGE} has no ${MARKERS.start} ... ${MARKERS.end} pair to write the table between`);
  return page.slice(0, at.from) + planTable(resources) + page.slice(at.to);
}

/** What is wrong with the page's schedule table (empty when it is what the declarations say). */
export function planTableProblems(page: string, resources: readonly Resource[] = RESOURCES): string[] {
  const at = between(page);
  if (!at) return [`${PLAN_PAGE} has no ${MARKERS.start} ... ${MARKERS.end} pair; add it where the table goes, then run: ${PLAN_WRITE_COMMAND}`];
  return page.slice(at.from, at.to) === planTable(resources)
    ? []
    : [`${PLAN_PAGE}'s schedule table is not what the declarations say; run: ${PLAN_WRITE_COMMAND}`];
}
