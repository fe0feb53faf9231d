// The V8 settings (the heap's sizes, the compilers) belong to the program, not to whoever starts it: when `run` or `demo` starts
// without them, the bin starts itself again with them, before anything heavy is loaded.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/**
 * A small young generation, a capped old one and one V8 worker thread keep a months-long bridge
 * small (see `npm run bench`). They must be given at start: V8 sizes its heap when it starts.
 * The bridge spends its CPU in native code (parsing JSON, TLS, undici's WebAssembly parser), so it
 * runs its own JavaScript in V8's interpreter alone: without Sparkplug, Maglev and TurboFan (for
 * JavaScript and WebAssembly) and with V8 sizing for memory, three children hold 12-15 MB less on
 * Node 26 and 5-8 MB less on Node 20, whose compilers would touch more of the node binary and
 * keep their code; a pass costs about 10% more CPU, well inside its budget.
 */
export const V8_FLAGS: readonly string[] = [
  '--max-semi-space-size=1',
  '--max-old-space-size=64',
  '--v8-pool-size=1',
  '--no-opt',
  '--no-maglev',
  '--no-sparkplug',
  '--liftoff-only',
  '--optimize-for-size',
];

/** Set in the relaunched process, so that it never relaunches again. */
const RELAUNCHED_ENV = 'DZIENNIK2MQTT_RELAUNCHED';

/** Commands that live long enough for the settings to matter; the others are not worth a restart. */
const LONG_RUNNING = new Set(['run', 'demo']);

/** Signals a supervisor or a terminal sends to stop; the relaunched bridge handles them itself. */
const FORWARDED: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];

export interface LaunchContext {
  /** The arguments after the script. */
  argv: readonly string[];
  execArgv: readonly string[];
  env: NodeJS.ProcessEnv;
  execPath: string;
  /** The script node runs (process.argv[1]). */
  script: string;
}

/** The V8 flags this process was not started with; a flag the user set (here or in NODE_OPTIONS) wins. */
export function missingV8Flags(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const given = new Set([...execArgv, ...(nodeOptions ?? '').split(/\s+/)].map(flagName));
  return V8_FLAGS.filter((flag) => !given.has(flagName(flag)));
}

/** The node arguments of the relaunch, or undefined when this process is the one to run the command. */
export function relaunchArgs(context: LaunchContext): string[] | undefined {
  if (context.env[RELAUNCHED_ENV] !== undefined) return undefined;
  const command = context.argv[0] === undefined || context.argv[0].startsWith('-') ? 'run' : context.argv[0];
  if (!LONG_RUNNING.has(command) || context.argv.some((a) => a === '--help' || a === '--version')) return undefined;
  const missing = missingV8Flags(context.execArgv, context.env.NODE_OPTIONS);
  if (missing.length === 0) return undefined;
  return [...missing, ...context.execArgv, context.script, ...context.argv];
}

/**
 * Resolves when this process is the one to run the command. Otherwise it becomes the relaunched one:
 * replaced in place where Node can (process.execve, Node 22.15+: same pid, nothing left over), else a
 * child process with the terminal, the signals forwarded and its exit code passed on; it never
 * resolves then.
 */
export async function withV8Flags(context: LaunchContext = currentProcess()): Promise<void> {
  if (context.env[RELAUNCHED_ENV] !== undefined) followLauncher();
  const args = relaunchArgs(context);
  if (args === undefined) return;
  const env = { ...context.env, [RELAUNCHED_ENV]: '1' };
  const execve = (process as { execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never }).execve;
  if (typeof execve === 'function' && process.platform !== 'win32') {
    execve(context.execPath, [context.execPath, ...args], env);
  }
  // Its own process group: a Ctrl-C in the terminal reaches this process only, which passes it on
  // once (the bridge stops cleanly on the first signal and hard on a second).
  // The IPC channel only tells the bridge that this process is gone (see followLauncher).
  const child = spawn(context.execPath, args, { stdio: ['inherit', 'inherit', 'inherit', 'ipc'], env, detached: process.platform !== 'win32' });
  for (const signal of FORWARDED) process.on(signal, () => child.kill(signal));
  const code = await new Promise<number>((resolve) => {
    child.once('error', (error) => {
      process.stderr.write(`dziennik2mqtt: could not start node again with its V8 settings: ${error.message}\n`);
      resolve(1);
    });
    child.once('exit', (exitCode, signal) => resolve(exitCode ?? 128 + (signal ? constants.signals[signal] : 0)));
  });
  process.exit(code);
}

/**
 * The relaunched bridge under a launcher goes when the launcher goes (a SIGKILL, which cannot be
 * passed on), at once and without cleaning up, as one process would.
 */
function followLauncher(): void {
  if (!process.channel) return;
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGKILL'));
}

function currentProcess(): LaunchContext {
  return {
    argv: process.argv.slice(2),
    execArgv: process.execArgv,
    env: process.env,
    execPath: process.execPath,
    script: process.argv[1] ?? '',
  };
}

/**
 * `--max_old_space_size=64` and `--max-old-space-size 64` both name max-old-space-size, and `--opt`
 * names the same setting as `--no-opt`, so a user's `--maglev` wins over ours.
 */
function flagName(arg: string): string {
  return (arg.split('=')[0] ?? '').replace(/_/g, '-').replace(/^--no-/, '--');
}
