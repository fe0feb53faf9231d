// docs/polling.md's schedule table against the declarations: it must be what the resources say, each
// once, and a declaration changed without rewriting the page is caught, naming the command that rewrites it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PLAN_PAGE, planTableProblems, withPlanTable } from '../../../src/features/plan-table.js';
import { WRITE_COMMAND } from '../../../src/features/readme-tables.js';
import { RESOURCES } from '../../../src/features/resources.js';
import { GRADES } from '../../../src/engine/resources/grades.js';
import { always } from '../../../src/engine/schedule.js';

const PAGE = readFileSync(new URL(`../../../${PLAN_PAGE}`, import.meta.url), 'utf8');

/** The grades read every 2 minutes at every moment, as a careless change would make it. */
const changed = RESOURCES.map((r) => (r === GRADES ? { ...r, fresh: always(120_000) } : r));

describe("docs/reading.md's schedule", () => {
  it('is the schedule as the resources declare it', () => {
    expect(planTableProblems(PAGE)).toEqual([]);
  });

  it('fails for a row changed without the page, naming the command that rewrites it', () => {
    expect(planTableProblems(PAGE, changed)).toEqual([`${PLAN_PAGE}'s schedule table is not what the declarations say; run: ${WRITE_COMMAND}`]);
  });

  it('rewrites only the table: the changed row appears, the prose stays', () => {
    const written = withPlanTable(PAGE, changed);
    expect(written).toContain('| `Grades` | register | 2 min | 2 min | 2 min |  | reads it | `Grades` |');
    const outside = (text: string): string => text.replace(/<!-- plan:start -->[\s\S]*<!-- plan:end -->/, '');
    expect(outside(written)).toBe(outside(PAGE));
  });
});
