// What a Node holds before our code: bare, and with the six named packages imported, under the same V8
// flags as the bin. The floor the bin's RSS is measured against.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { V8_FLAGS } from '../app/launch.js';

/** After the program says it is ready: lazy work at start (compiling, the first collections) settles. */
const SETTLE_MS = 1_500;

/** The named packages (the design card's), imported whole as a program that uses them would. */
const IMPORT_PACKAGES = "import 'mqtt'; import 'undici'; import 'tough-cookie'; import 'zod'; import 'pino'; import 'yaml';";

export interface NodeFloor {
  bareMB: number;
  packagesMB: number;
}

/** `root` is a checkout with node_modules: the packages are imported from there. */
export async function nodeFloor(execPath: string, root: string): Promise<NodeFloor> {
  return {
    bareMB: await idleRss(execPath, root, READY),
    packagesMB: await idleRss(execPath, root, `${IMPORT_PACKAGES} ${READY}`),
  };
}

/** Static imports have all run when the module body does. */
const READY = "process.stdout.write('ready\\n'); setInterval(() => {}, 1000);";

async function idleRss(execPath: string, cwd: string, program: string): Promise<number> {
  const child = spawn(execPath, [...V8_FLAGS, '--input-type=module', '-e', program], { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    await new Promise((resolve, reject) => {
      child.stdout.once('data', resolve);
      child.once('exit', (code) => reject(new Error(`node exited ${code} before it was ready`)));
    });
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0) / 1024;
  } finally {
    child.kill('SIGKILL');
  }
}
