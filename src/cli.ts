// The command line: which command, which options. Each command resolves to an exit code; only
// main.ts exits.
import { ConfigError } from './config/load.js';
import { DASHBOARD_LANGS, type DashboardLang } from './outputs/homeassistant/dashboard.js';

export type Command = 'run' | 'demo' | 'check' | 'dashboard' | 'token' | 'diagnostics';

export interface CliArgs {
  command: Command;
  config?: string;
  port?: number;
  mqttUrl?: string;
  /** Read the Home Assistant add-on's options instead of a config file. */
  addon: boolean;
  /** dashboard: the language of its labels. */
  lang?: DashboardLang;
  /** dashboard: where its link to the family board goes. */
  boardUrl?: string;
  /** run: keep the dashboard in this file (written at start and when the children it names change). */
  dashboardFile?: string;
  /** demo: what real schools answer, turned on by name (checked by the demo). */
  quirks?: string;
  /** check: print the web server's addresses with the access token. */
  showToken: boolean;
  /** check: write the transcript of each login and first reads to this file. */
  trace?: string;
  /** token: make a new access token. */
  rotate: boolean;
  help: boolean;
  version: boolean;
}

export const USAGE = `Usage: dziennik2mqtt [command] [options]

Commands:
  run        the bridge (default)
  demo       the bridge against the built-in simulated portal and an embedded MQTT broker
  check      validate the config and log every account in once
  dashboard  print a Lovelace dashboard for a wall tablet
  token      with --rotate: a new access token for the web server (old addresses and board cookies
             stop working, in a running bridge too) and the new addresses
  diagnostics  print a redacted JSON to attach to a bug report (dziennik2mqtt diagnostics > file.json):
             the config without secrets, each child's requests, logins, reads and problems as the
             running (or the last) bridge saved them, the data folder's files; no child's data

Options:
  --config FILE    config file (default: $DZIENNIK2MQTT_CONFIG, then ./config.yaml)
  --port N         demo: port of the embedded MQTT broker (default 1883)
  --mqtt-url URL   demo: use this broker instead of the embedded one
  --quirks LIST    demo: play what real schools answer: all, or some of no-lucky, module-off,
                   school-complex, moved-lesson, school-averages, bootstrap-via-auth,
                   login-2026, password-leak
  --addon          read the Home Assistant add-on's options (/data/options.json); chosen by
                   itself when SUPERVISOR_TOKEN is set, that file exists and no config is named
  --lang pl|en|uk  dashboard: the language of its labels (default: the config's language)
  --board-url URL  dashboard: where its link to the family board goes (default: the add-on's panel,
                   else http://<this machine>:<http.port>/)
  --dashboard-file FILE
                   run: write what \`dashboard\` prints to FILE at start, and again whenever the
                   children it can name change (a child's name learned at its first pass); the
                   log says where
  --show-token     check: also print the board's and the feeds' addresses with the access token
  --trace FILE     check: write each login's requests to FILE for a bug report (paths, statuses,
                   cookie names, body shapes; never a password, cookie value, code or child data)
  --rotate         token: make the new token (required: the command changes what others use)
  --help, --version
`;

const COMMANDS: readonly Command[] = ['run', 'demo', 'check', 'dashboard', 'token', 'diagnostics'];

/** The options that take a value as they are, by flag: the field each sets. */
const VALUE_FLAGS = new Map<string, 'config' | 'mqttUrl' | 'quirks' | 'dashboardFile' | 'trace'>([
  ['--config', 'config'],
  ['-c', 'config'],
  ['--mqtt-url', 'mqttUrl'],
  ['--quirks', 'quirks'],
  ['--dashboard-file', 'dashboardFile'],
  ['--trace', 'trace'],
]);

/** The switches, by flag: the field each turns on. */
const SWITCHES = new Map<string, 'addon' | 'showToken' | 'rotate' | 'help' | 'version'>([
  ['--addon', 'addon'],
  ['--show-token', 'showToken'],
  ['--rotate', 'rotate'],
  ['--help', 'help'],
  ['-h', 'help'],
  ['--version', 'version'],
  ['-v', 'version'],
]);

/** The options only one command takes, and what the refusal says. */
const ONLY_WITH: readonly (readonly ['showToken' | 'trace' | 'rotate' | 'dashboardFile', Command, string])[] = [
  ['showToken', 'check', '--show-token goes with check'],
  ['trace', 'check', '--trace goes with check'],
  ['rotate', 'token', '--rotate goes with token'],
  ['dashboardFile', 'run', '--dashboard-file goes with run (`dashboard` prints it)'],
];

export function parseArgs(argv: readonly string[]): CliArgs {
  const args: CliArgs = { command: 'run', addon: false, help: false, version: false, showToken: false, rotate: false };
  const rest = [...argv];
  if (rest[0] !== undefined && !rest[0].startsWith('-')) {
    const command = rest.shift() as string;
    if (!COMMANDS.includes(command as Command)) throw new ConfigError('usage', [`unknown command "${command}" (${COMMANDS.join(', ')})`]);
    args.command = command as Command;
  }
  while (rest.length > 0) {
    const flag = rest.shift() as string;
    const [name, inline] = flag.includes('=') ? (flag.split(/=(.*)/s, 2) as [string, string]) : [flag, undefined];
    const value = (): string => {
      const v = inline ?? rest.shift();
      if (v === undefined || v === '') throw new ConfigError('usage', [`${name} needs a value`]);
      return v;
    };
    const field = VALUE_FLAGS.get(name);
    const on = SWITCHES.get(name);
    if (field !== undefined) args[field] = value();
    else if (on !== undefined) args[on] = true;
    else if (name === '--port') {
      const port = Number(value());
      if (!Number.isInteger(port) || port < 1 || port > 65535) throw new ConfigError('usage', ['--port must be a number from 1 to 65535']);
      args.port = port;
    } else if (name === '--lang') {
      const lang = value();
      if (!DASHBOARD_LANGS.includes(lang as DashboardLang)) throw new ConfigError('usage', [`--lang must be one of ${DASHBOARD_LANGS.join(', ')}`]);
      args.lang = lang as DashboardLang;
    } else if (name === '--board-url') {
      const url = value();
      if (!/^(https?:\/\/|\/)\S+$/.test(url))
        throw new ConfigError('usage', ['--board-url must be an http(s):// address or a Home Assistant path like /hassio/ingress/...']);
      args.boardUrl = url;
    } else throw new ConfigError('usage', [`unknown option "${name}"`]);
  }
  if (args.addon && args.config !== undefined) throw new ConfigError('usage', ['give --config or --addon, not both']);
  if (args.command === 'token' && !args.rotate && !args.help)
    throw new ConfigError('usage', ['token needs --rotate (to see the addresses with the current token: check --show-token)']);
  for (const [key, command, said] of ONLY_WITH) {
    if (args[key] !== undefined && args[key] !== false && args.command !== command) throw new ConfigError('usage', [said]);
  }
  return args;
}

/** The config file to read: --config, then $DZIENNIK2MQTT_CONFIG, then ./config.yaml. */
export function configPath(args: CliArgs, env: NodeJS.ProcessEnv): string {
  return args.config ?? env.DZIENNIK2MQTT_CONFIG ?? './config.yaml';
}

/**
 * Whether to read the add-on's options: --addon, or, when no config is named at all, running inside
 * the add-on (`inAddon`: SUPERVISOR_TOKEN set and /data/options.json present).
 */
export function useAddonOptions(args: CliArgs, env: NodeJS.ProcessEnv, inAddon: boolean): boolean {
  if (args.addon) return true;
  return args.config === undefined && env.DZIENNIK2MQTT_CONFIG === undefined && inAddon;
}
