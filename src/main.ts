#!/usr/bin/env node
// Composition root: arguments -> config -> logger -> the command -> exit code. The only place that
// exits the process.
import type { CliArgs } from './cli.js';
import type { Config } from './config/schema.js';
import { withV8Flags } from './app/launch.js';
import { errorText } from './util/text.js';

// First the memory settings (launch.ts), so the code below is loaded only by the process that runs.
await withV8Flags();
(await import('./app/lean-runtime.js')).withLeanRuntime();
const { ConfigError, loadConfigFile } = await import('./config/load.js');
const { configPath, parseArgs, USAGE, useAddonOptions } = await import('./cli.js');
const { linkDownloads, loadAddonConfig, runningAsAddon } = await import('./config/addon.js');
const { App } = await import('./app/app.js');
const { createLogger } = await import('./util/log.js');
const { VERSION } = await import('./util/version.js');

async function main(argv: readonly string[]): Promise<number> {
  let args: CliArgs;
  try {
    args = parseArgs(argv);
  } catch (error) {
    return usageError(error);
  }
  if (args.help || args.version) {
    process.stdout.write(args.help ? USAGE : `${VERSION}\n`);
    return 0;
  }
  try {
    // The other commands are loaded only when asked for: `run` stays small (the demo brings a broker
    // and the simulator).
    switch (args.command) {
      case 'demo': {
        const { runDemo } = await import('./app/demo/demo.js');
        return await runDemo({ port: args.port, mqttUrl: args.mqttUrl, quirks: args.quirks, untilStopped: stopSignal() });
      }
      case 'check': {
        const { config } = await loadConfig(args, false);
        const { runCheck, refusedDataDir } = await import('./app/commands/check.js');
        const { checkLogger } = await import('./app/commands/check-log.js');
        // A folder `run` refuses gets nothing written into it, check's own log neither.
        if (await refusedDataDir(config, process.stdout)) return 1;
        return await runCheck({
          config,
          out: process.stdout,
          // Never among check's lines: the person reads check's words, the file keeps the log.
          log: await checkLogger(config.data_dir),
          showToken: args.showToken,
          ...(args.trace === undefined ? {} : { trace: args.trace }),
        });
      }
      case 'token': {
        const { config } = await loadConfig(args, false);
        const { runTokenRotation } = await import('./app/commands/token.js');
        return await runTokenRotation({ config, out: process.stdout });
      }
      case 'diagnostics': {
        const { config } = await loadConfig(args, false);
        const { runDiagnostics } = await import('./app/commands/diagnostics.js');
        return await runDiagnostics({ config, out: process.stdout });
      }
      case 'dashboard': {
        const { config, addon } = await loadConfig(args, false);
        const { runDashboard } = await import('./app/commands/dashboard.js');
        return await runDashboard({ config, out: process.stdout, err: process.stderr, lang: args.lang, boardUrl: args.boardUrl, addon });
      }
      case 'run':
        return await run(args);
    }
  } catch (error) {
    if (error instanceof ConfigError) return usageError(error);
    process.stderr.write(`dziennik2mqtt: ${describeFailure(error)}\n`);
    return 1;
  }
}

/** The config file, or inside the Home Assistant add-on its options (see useAddonOptions). */
async function loadConfig(args: CliArgs, needsBroker = true): Promise<{ config: Config; addon: boolean }> {
  const addon = useAddonOptions(args, process.env, await runningAsAddon(process.env));
  const config = addon ? await loadAddonConfig({ needsBroker }) : await loadConfigFile(configPath(args, process.env));
  return { config, addon };
}

async function run(args: CliArgs): Promise<number> {
  let loaded: { config: Config; addon: boolean };
  try {
    loaded = await loadConfig(args);
  } catch (error) {
    // Under the Supervisor a refused form keeps the app up to say so in Home Assistant (interface 13.2);
    // a config file's mistakes stay the command line's error (exit 2).
    const underSupervisor = Boolean(process.env.SUPERVISOR_TOKEN) && useAddonOptions(args, process.env, await runningAsAddon(process.env));
    if (!(error instanceof ConfigError) || !underSupervisor) throw error;
    const { waitWithRefusedOptions } = await import('./app/options-refused.js');
    const log = createLogger('info');
    const code = await waitWithRefusedOptions({ problems: error.problems, version: VERSION, log, env: process.env, stopped: stopSignal() });
    log.flush();
    return code;
  }
  const { config, addon } = loaded;
  if (addon) await linkDownloads(config);
  const log = createLogger(config.log_level, undefined, { format: config.log_format });
  const { trustedIngress } = await import('./outputs/web/request.js');
  const dashboardFile = args.dashboardFile === undefined ? undefined : { file: args.dashboardFile, addon };
  const app = new App({ config, version: VERSION, log, ingressAddress: trustedIngress(process.env), dashboardFile });
  const stopped = stopSignal();
  // start() waits for the broker however long it takes, so a stop may come first.
  const started = app.start().then(() => undefined);
  let early: string | undefined;
  try {
    early = await Promise.race([started, stopped]);
  } catch (error) {
    log.error({ err: errorText(error) }, 'could not start');
    await app.stop().catch(() => undefined);
    log.flush();
    return 1;
  }
  if (early !== undefined) {
    log.info({ signal: early }, 'stopping before the MQTT broker was reached');
    await app.stop();
    await started.catch(() => undefined);
    log.flush();
    return 0;
  }
  const end = await Promise.race([stopped, app.lost]);
  if (typeof end === 'string') log.info({ signal: end }, 'stopping');
  else log.error(end.why);
  await app.stop();
  log.info('stopped');
  log.flush();
  // Its client id taken: a restart would take it back and throw the other off, so this one waits idle.
  if (typeof end !== 'string' && end.idle) await stopped;
  return typeof end === 'string' || end.idle ? 0 : 1;
}

/** Resolves with the name of the first SIGTERM or SIGINT. */
function stopSignal(): Promise<string> {
  return new Promise((resolve) => {
    const once = (signal: string): void => {
      process.off('SIGTERM', once);
      process.off('SIGINT', once);
      resolve(signal);
    };
    process.on('SIGTERM', once);
    process.on('SIGINT', once);
  });
}

/** The kinds JavaScript raises for a mistake in the code itself, never for a failure the bridge expects. */
const BUG_KINDS = new Set(['TypeError', 'ReferenceError', 'RangeError', 'SyntaxError', 'AssertionError']);

/**
 * A failure by its message; a bug with its stack trace too, which names the functions (the bundle keeps
 * their names, scripts/bundle.mjs), so that a pasted report says where it happened.
 */
function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return BUG_KINDS.has(error.name) ? (error.stack ?? error.message) : error.message;
}

function usageError(error: unknown): number {
  process.stderr.write(`dziennik2mqtt: ${errorText(error)}\n`);
  if (error instanceof ConfigError && error.message.startsWith('usage')) process.stderr.write(`\n${USAGE}`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // Anything still holding the event loop (a socket in its close handshake) must not keep us alive.
    setTimeout(() => process.exit(code), 2_000).unref();
  },
  (error: unknown) => {
    process.stderr.write(`dziennik2mqtt: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
