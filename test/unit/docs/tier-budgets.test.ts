// The budgets a whole run prints each test folder's CPU against (test/helpers/tier-budgets.ts) are the guide's own
// table: every folder whose files run has one, and the figures add up as file-times.tsv's cpu_s column holds them
// (a file's CPU with its children's already in it: adding children_cpu_s again once counted the children twice).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { budgetLines, foldersOf, guideBudgets } from '../../helpers/tier-budgets.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

describe("the test folders' budgets", () => {
  it('are in the guide for every folder whose files run, the unit tier with the worlds in it', () => {
    const budgets = guideBudgets(ROOT);
    const running = readdirSync(join(ROOT, 'test'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !['helpers', 'types', 'artifacts'].includes(entry.name))
      .map((entry) => `test/${entry.name}/`);
    expect([...budgets.keys()].sort()).toEqual(running.sort());
    for (const budget of budgets.values()) expect(budget).toBeGreaterThan(0);
  });

  it("count each file to its tier, the worlds within the unit tier's figure and said beside it", () => {
    expect(foldersOf('test/unit/worlds/worlds.test.ts')).toEqual(['test/unit/', 'test/unit/worlds/']);
    expect(foldersOf('test/unit/rules/grades.test.ts')).toEqual(['test/unit/']);
    expect(foldersOf('test/e2e/board.test.ts')).toEqual(['test/e2e/']);
    const rows = [
      { file: 'test/unit/worlds/worlds.test.ts', cpu: 50 },
      { file: 'test/unit/rules/grades.test.ts', cpu: 10.25 },
      { file: 'test/integration/app.test.ts', cpu: 30 },
      { file: 'test/integration/mcp.test.ts', cpu: 15 },
    ];
    const budgets = new Map([
      ['test/unit/', 100],
      ['test/integration/', 40],
      ['test/e2e/', 20],
    ]);
    expect(budgetLines(rows, budgets)).toEqual([
      '     60.3 s of 100 s  test/unit/, test/unit/worlds/ 50.0 s of it',
      '     45.0 s of 40 s  test/integration/  OVER by 5.0 s',
    ]);
  });
});
