// Vitest reporter: each test file's CPU and wall time, as test/helpers/file-times.ts measured them in its
// worker, written to test/artifacts/file-times.tsv (the costliest CPU first) after every run; a run of
// more than a handful of files also prints the ten costliest by CPU, the ten slowest by wall time, and each test
// folder's CPU against its budget in docs/development.md (test/helpers/tier-budgets.ts).
// Each test's own duration and outcome go to test/artifacts/test-times.tsv: scripts/test-times.mjs compares
// such tables of several runs. docs/development.md (The tests) says where to find them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { budgetLines, guideBudgets } from './tier-budgets.js';

/** Fewer files than this and the run was someone's few files at work: the table is written, not printed. */
const PRINTED_FROM = 20;
const SHOWN = 10;

interface FileTimes {
  file: string;
  project: string;
  /** The worker's CPU and its reaped children's, in seconds. */
  cpu: number;
  children: number;
  wall: number;
  /** The worker that ran it: how many files a worker ran, and in which order, for what one file leaves the next. */
  worker: number;
}

const seconds = (ms: number): number => Math.round(ms / 100) / 10;

export default class FileTimesReporter implements Reporter {
  private root = process.cwd();

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const rows: FileTimes[] = [];
    for (const module of testModules) {
      const times = module.meta().fileTimes;
      if (times === undefined) continue;
      rows.push({
        file: relative(this.root, module.moduleId),
        project: module.project.name,
        cpu: seconds(times.cpuMs + times.childrenCpuMs),
        children: seconds(times.childrenCpuMs),
        wall: seconds(times.wallMs),
        worker: times.pid,
      });
    }
    if (rows.length === 0) return;
    rows.sort((a, b) => b.cpu - a.cpu);
    const dir = join(this.root, 'test', 'artifacts');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'test-times.tsv'), this.testTimes(testModules));
    const lines = rows.map((r) => [r.file, r.project, r.cpu, r.children, r.wall, r.worker].join('\t'));
    writeFileSync(join(dir, 'file-times.tsv'), `file\tproject\tcpu_s\tchildren_cpu_s\twall_s\tworker\n${lines.join('\n')}\n`);
    if (rows.length < PRINTED_FROM) return;
    const total = rows.reduce((sum, r) => sum + r.cpu, 0);
    const workers = new Set(rows.map((r) => r.worker)).size;
    const out = [
      `\n CPU of the ${rows.length} test files: ${Math.round(total)} s in ${workers} workers (test/artifacts/file-times.tsv)`,
      ' Most CPU:',
    ];
    for (const r of rows.slice(0, SHOWN)) out.push(`   ${r.cpu.toFixed(1).padStart(6)} s (children ${r.children.toFixed(1)} s)  ${r.file}`);
    out.push(' Longest wall time:');
    for (const r of [...rows].sort((a, b) => b.wall - a.wall).slice(0, SHOWN)) out.push(`   ${r.wall.toFixed(1).padStart(6)} s  ${r.file}`);
    const budgets = budgetLines(rows, guideBudgets(this.root));
    if (budgets.length > 0) out.push(" CPU by folder, against docs/development.md's budgets (a round is held to its base beside it):", ...budgets);
    process.stdout.write(`${out.join('\n')}\n`);
  }

  /** Each test that ran: its file, its full name (tabs and line ends made spaces), seconds and outcome. */
  private testTimes(testModules: ReadonlyArray<TestModule>): string {
    const lines = ['file\ttest\twall_s\tstate'];
    for (const module of testModules) {
      const file = relative(this.root, module.moduleId);
      for (const test of module.children.allTests()) {
        const duration = test.diagnostic()?.duration;
        if (duration === undefined) continue;
        lines.push([file, test.fullName.replace(/\s+/g, ' '), (duration / 1000).toFixed(2), test.result().state].join('\t'));
      }
    }
    return `${lines.join('\n')}\n`;
  }
}
