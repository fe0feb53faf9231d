// Vitest setup file (the first one, run in every test file): what the file cost, its imports and hooks
// included, put on the file's result for test/helpers/file-times-reporter.ts. Vitest reports a file's wall
// time only, and on this shared 2-core machine that is mostly how busy the machine was; its CPU is what
// a change to it moves. Counted here: the worker's own CPU while the file ran (a worker runs one file at
// a time) and its children's, the bins, python3 and Chromium a file starts: those still running by what
// /proc says each has used so far, those that ended by what the kernel added to the worker's own count
// when it reaped them (cutime and cstime, their own reaped children's included). The worker's Chromium,
// shared by the board files it runs, is so counted to the file that used it. Not counted: the shared
// Mosquitto.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll } from 'vitest';

declare module 'vitest' {
  interface TaskMeta {
    /** What the file cost: milliseconds of the worker's CPU, of its children's, and of the wall; the worker's process. */
    fileTimes?: { cpuMs: number; childrenCpuMs: number; wallMs: number; pid: number };
  }
}

/** Clock ticks a second, Linux's USER_HZ: the unit of /proc's CPU times. */
const TICKS_PER_SECOND = 100;

/** A process's CPU from /proc/<pid>/stat in clock ticks: its own (utime, stime) and its reaped children's (cutime, cstime). */
function ticksOf(pid: number | 'self'): { own: number; reaped: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command's name, which may hold spaces, start after its closing parenthesis:
  // state is the first of them (field 3), utime field 14, stime 15, cutime 16, cstime 17.
  const fields = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  return { own: fields[11]! + fields[12]!, reaped: fields[13]! + fields[14]! };
}

/** The processes a process started and that still run (each thread's list: a child belongs to the thread that forked it). */
function childrenOf(pid: number | 'self'): number[] {
  const found: number[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    if (text !== '') found.push(...text.split(' ').map(Number));
  }
  return found;
}

/** The CPU in milliseconds of every process the worker started, live or reaped, or 0 where /proc is not. */
function childrenCpuMs(): number {
  try {
    let ticks = ticksOf('self').reaped;
    for (const queue = childrenOf('self'); queue.length > 0; ) {
      const pid = queue.pop()!;
      try {
        const { own, reaped } = ticksOf(pid);
        ticks += own + reaped;
        queue.push(...childrenOf(pid));
      } catch {
        // Ended between the list and the look: the kernel counts it where it was reaped.
      }
    }
    return (ticks * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

// Taken when the setup file runs, before the test file's own imports, which are part of its cost.
const startCpu = process.cpuUsage();
const startChildren = childrenCpuMs();
const startWall = performance.now();

// Registered first, so it runs last, after the file's own afterAll hooks and the temporary folders' removal.
// Vitest reads a hook's first parameter as the fixtures it wants (a pattern, none here); the file is the second.
// eslint-disable-next-line no-empty-pattern -- no fixtures, and vitest asks for a pattern
afterAll(({}, file) => {
  const cpu = process.cpuUsage(startCpu);
  file.meta.fileTimes = {
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    childrenCpuMs: Math.round(childrenCpuMs() - startChildren),
    wallMs: Math.round(performance.now() - startWall),
    pid: process.pid,
  };
});
