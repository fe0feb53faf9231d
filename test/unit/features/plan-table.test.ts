// docs/polling.md's schedule table against the fetch plan: it must be what the features' rows say, and
// a row changed without rewriting the page is caught, naming the command that rewrites it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PLAN_PAGE, PLAN_WRITE_COMMAND, planTableProblems, withPlanTable } from '../../../src/features/plan-table.js';
import { FEATURES } from '../../../src/features/index.js';
import { feature } from '../../../src/features/feature.js';
import { always } from '../../../src/feature-kit/plan.js';

const PAGE = readFileSync(new URL(`../../../${PLAN_PAGE}`, import.meta.url), 'utf8');

/** The features with the grades read every 2 minutes at every moment, as a careless change would make it. */
const changed = FEATURES.map((f) =>
  f.name === 'grades' ? feature({ ...f, plan: (f.plan ?? []).map((row) => (row.resource === 'Grades' ? { ...row, fresh: always(120_000) } : row)) }) : f,
);

describe("docs/polling.md's schedule", () => {
  it('is the fetch plan as the features declare it', () => {
    expect(planTableProblems(PAGE)).toEqual([]);
  });

  it('fails for a row changed without the page, naming the command that rewrites it', () => {
    expect(planTableProblems(PAGE, changed)).toEqual([`${PLAN_PAGE}'s schedule table is not what the fetch plan says; run: ${PLAN_WRITE_COMMAND}`]);
  });

  it('rewrites only the table: the changed row appears, the prose stays', () => {
    const written = withPlanTable(PAGE, changed);
    expect(written).toContain('| `Grades` | normal | 2 min | 2 min | 2 min | 2 min | 2 min | 2 min | 2 min |  | reads it |');
    const outside = (text: string): string => text.replace(/<!-- plan:start -->[\s\S]*<!-- plan:end -->/, '');
    expect(outside(written)).toBe(outside(PAGE));
  });
});
