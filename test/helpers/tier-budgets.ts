// Each test folder's CPU against the budget docs/development.md gives it (The tests: the table of folders, files, CPU
// and budget): what the file-times reporter prints after a whole run, so that a round sees what it adds as it adds it.
// Printed, never a failure: machines differ twice over, and a round is held to its base run beside it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The folders a test file counts to: its tier's (`test/integration/`), and within the unit tier's the worlds'. */
export function foldersOf(file: string): string[] {
  const [top, tier, sub] = file.split(/[\\/]/);
  const folder = `${top}/${tier}/`;
  return tier === 'unit' && sub === 'worlds' ? [folder, `${folder}worlds/`] : [folder];
}

/**
 * The budgets of the guide's table, in seconds by folder: each row whose first cell opens with a folder in backticks
 * and whose last cell is a figure in seconds (`| \`test/unit/\` (...) | 238 | 131 s | 172 s | 190 s |`).
 */
export function budgetsIn(markdown: string): Map<string, number> {
  const budgets = new Map<string, number>();
  for (const line of markdown.split('\n')) {
    const row = /^\|\s*`(test\/[\w-]+\/)`[^|]*\|.*\|\s*(\d+(?:\.\d+)?) s\s*\|\s*$/.exec(line);
    if (row) budgets.set(row[1]!, Number(row[2]));
  }
  return budgets;
}

/** The guide's budgets, or none where the guide is not (a package without its docs). */
export function guideBudgets(root: string): Map<string, number> {
  try {
    return budgetsIn(readFileSync(join(root, 'docs', 'development.md'), 'utf8'));
  } catch {
    return new Map();
  }
}

/**
 * The lines that say each budgeted folder's CPU (files with their children's, in seconds) against its budget: a tier's
 * figure holds its sub-folders' (the unit tier's, the worlds'), said beside it. A folder with no file in the run is left out.
 */
export function budgetLines(rows: readonly { file: string; cpu: number }[], budgets: ReadonlyMap<string, number>): string[] {
  const cpu = new Map<string, number>();
  for (const { file, cpu: seconds } of rows) for (const folder of foldersOf(file)) cpu.set(folder, (cpu.get(folder) ?? 0) + seconds);
  const lines: string[] = [];
  for (const [folder, budget] of budgets) {
    const spent = cpu.get(folder);
    if (spent === undefined) continue;
    const within = [...cpu].filter(([sub]) => sub !== folder && sub.startsWith(folder));
    const parts = within.map(([sub, s]) => `, ${sub} ${s.toFixed(1)} s of it`).join('');
    const verdict = spent > budget ? `  OVER by ${(spent - budget).toFixed(1)} s` : '';
    lines.push(`   ${spent.toFixed(1).padStart(6)} s of ${budget} s  ${folder}${parts}${verdict}`);
  }
  return lines;
}
