// Reads the config: a YAML file (or the add-on's options), ${ENV} secrets, password_file, and the
// MQTT URL override from the environment. Every problem is reported with its key path at once.
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parseDocument, visit, type YAMLError } from 'yaml';
import type { z } from 'zod';
import { BROKER_URL, byRoad, configSchema, type Config } from './schema.js';
import { CONFIG_TEXT, type ConfigText } from './config-text.js';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from './language.js';
import { problemIn } from './problem-words.js';
import type { BrokerOrigin } from './broker-origin.js';

/** Bad config or usage: the CLI prints the message and exits 2. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly problems: string[];

  constructor(source: string, problems: string[]) {
    super(`${source}: ${problems.length === 1 ? problems[0] : `\n  ${problems.join('\n  ')}`}`);
    this.problems = problems;
  }
}

export interface LoadOptions {
  env?: NodeJS.ProcessEnv;
  readText?: (path: string) => Promise<string>;
  /**
   * The folder a relative data_dir or password_file is read from: the config file's own folder, so
   * that the same file started from elsewhere keeps its session and event memory. Unset: as written.
   */
  baseDir?: string;
  /** False for the add-on's options: what a parent types into the form is taken literally. */
  expandEnv?: boolean;
  /** Where `mqtt.url` came from when the environment does not set it: the config file unless said. */
  brokerFrom?: BrokerOrigin;
}

export async function loadConfigFile(path: string, options: LoadOptions = {}): Promise<Config> {
  const readText = options.readText ?? ((p: string) => readFile(p, 'utf8'));
  let text: string;
  try {
    text = await readText(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // No file, so no language chosen: the terminal's own (LANG), else Polish, the config's default.
    const say = CONFIG_TEXT[localeLanguage(options.env ?? process.env)];
    throw new ConfigError(path, [code === 'ENOENT' ? say.fileNotFound(path) : say.cannotRead(code ?? 'error')]);
  }
  // A file YAML cannot read still says which language its family chose.
  const say = CONFIG_TEXT[languageOf(/^language:\s*["']?(\w+)/m.exec(text)?.[1])];
  // The parser's own messages quote the offending text, which may be a password: only the place
  // and the kind of problem are reported.
  const doc = parseDocument(text, { prettyErrors: true, logLevel: 'silent' });
  const trouble = [...doc.errors, ...doc.warnings];
  const described = trouble.slice(0, 5).map((error) => describeYamlProblem(error, say));
  if (described.length > 0) throw new ConfigError(path, described);
  let raw: unknown;
  try {
    raw = doc.toJS();
  } catch {
    // Only an alias (*name) without its anchor fails here; its message would quote the name.
    throw new ConfigError(path, [say.notValidYaml(aliasLine(doc, text, say), say.yamlHints.alias)]);
  }
  return buildConfig(raw, path, { baseDir: dirname(resolve(path)), ...options });
}

/** Validates a config object (from YAML or the add-on's options) and resolves its secrets. */
export async function buildConfig(raw: unknown, source: string, options: LoadOptions = {}): Promise<Config> {
  const env = options.env ?? process.env;
  const readText = options.readText ?? ((p: string) => readFile(p, 'utf8'));
  if (raw === null || raw === undefined) raw = {};
  const language = languageOf(typeof raw === 'object' ? (raw as { language?: unknown }).language : undefined);
  const say = CONFIG_TEXT[language];
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new ConfigError(source, [say.topLevel]);

  const problems: string[] = [];
  const unset = new Set<string>();
  const expanded = options.expandEnv === false ? raw : expandEnv(raw, [], { env, problems, unset, say });
  const parsed = configSchema.safeParse(expanded);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
      // The missing variable is the problem; the empty text it left says nothing more.
      if (unset.has(formatPath(path))) continue;
      problems.push(describeIssue(issue, path, valueAt(expanded, path), say));
    }
  }
  if (problems.length > 0 || !parsed.success) throw refusalIn(language, source, problems);

  const read = parsed.data;
  const base = options.baseDir;
  const fromBase = (p: string): string => (base === undefined || isAbsolute(p) ? p : resolve(base, p));
  /** A file a key names, read; one that cannot be read is that key's problem. */
  const fileOf = (key: string, path: string): Promise<string | void> =>
    readText(path).catch((error: unknown) => void problems.push(`${key}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`));
  read.data_dir = fromBase(read.data_dir);
  for (const account of read.accounts) {
    if (account.password_file !== undefined) account.password_file = fromBase(account.password_file);
  }
  for (const key of ['ca', 'cert', 'key'] as const) {
    const file = read.mqtt[key];
    if (file === undefined) continue;
    read.mqtt[key] = fromBase(file);
    // Only checked here: the client reads the files when it is made (src/outputs/mqtt/client.ts, tlsOptions).
    const text = await fileOf(`mqtt.${key}`, read.mqtt[key]);
    if (text !== undefined && !text.includes('-----BEGIN ')) problems.push(`mqtt.${key}: ${read.mqtt[key]} is not a PEM file (no -----BEGIN line)`);
  }
  const override = env.DZIENNIK2MQTT_MQTT_URL;
  if (override) {
    if (!BROKER_URL.test(override)) {
      throw new ConfigError(source, [problemIn('DZIENNIK2MQTT_MQTT_URL: must start with mqtt:// or mqtts://', language)]);
    }
    read.mqtt.url = override;
  }
  const brokerFrom: BrokerOrigin = override ? 'env' : (options.brokerFrom ?? 'file');
  for (const [i, account] of read.accounts.entries()) {
    const text = account.password_file === undefined ? undefined : await fileOf(`accounts[${i}].password_file`, account.password_file);
    if (text === undefined) continue;
    account.password = text.replace(/\r?\n$/, '');
    if (account.password === '') problems.push(`accounts[${i}].password_file: the file is empty`);
  }
  const ha = read.homeassistant;
  if (ha?.token_file !== undefined) {
    ha.token_file = fromBase(ha.token_file);
    const token = await fileOf('homeassistant.token_file', ha.token_file);
    if (token?.trim() === '') problems.push('homeassistant.token_file: the file is empty');
    else if (token !== undefined) ha.token = token.trim();
  }
  if (problems.length > 0) throw refusalIn(language, source, problems);
  return { ...read, ...byRoad(read.accounts), brokerFrom };
}

/** The problems, each put into the language (problem-words.ts), as one refusal from `source`. */
export function refusalIn(language: Language, source: string, problems: readonly string[]): ConfigError {
  const said = problems.map((p) => problemIn(p, language));
  return new ConfigError(source, said);
}

/**
 * The language a config's refusals speak: the one the bridge will speak with it. A config naming
 * none gets Polish, the config's default; a value the bridge does not speak (`polski`, `de`) is itself
 * refused, and its family reads why in Polish too, the language of the schools the bridge is made for.
 */
export function languageOf(value: unknown): Language {
  return LANGUAGES.find((l) => l === value) ?? DEFAULT_LANGUAGE;
}

/** The language of the terminal's locale (`LC_ALL`, `LC_MESSAGES`, `LANG`) when the bridge speaks it; else Polish. */
export function localeLanguage(env: NodeJS.ProcessEnv): Language {
  return languageOf((env.LC_ALL || env.LC_MESSAGES || env.LANG || '').slice(0, 2).toLowerCase());
}

const YAML_HINTS: Record<string, keyof ConfigText['yamlHints']> = {
  BAD_ALIAS: 'alias',
  BLOCK_AS_IMPLICIT_KEY: 'block',
  BAD_SCALAR_START: 'reserved',
  TAG_RESOLVE_FAILED: 'tag',
  UNEXPECTED_TOKEN: 'unexpected',
  BAD_INDENT: 'indent',
};

/** " at line N" of the first alias in the document, or nothing. */
function aliasLine(doc: ReturnType<typeof parseDocument>, text: string, say: ConfigText): string {
  let offset: number | undefined;
  visit(doc, {
    Alias(_key, node) {
      offset = node.range?.[0];
      return visit.BREAK;
    },
  });
  return offset === undefined ? '' : say.atLine(text.slice(0, offset).split('\n').length);
}

function describeYamlProblem(error: YAMLError, say: ConfigText): string {
  const where = error.linePos ? say.at(error.linePos[0].line, error.linePos[0].col) : '';
  const known = YAML_HINTS[error.code];
  const hint = known ? say.yamlHints[known] : `${error.code.toLowerCase().replace(/_/g, ' ')}; ${say.yamlHints.other}`;
  return say.notValidYaml(where, hint);
}

/**
 * Replaces ${NAME} in every string with the environment variable; a missing one is a problem, and its
 * key path goes into `unset` so that the schema's complaint about the empty result is not added.
 * `$${NAME}` stands for the text ${NAME} itself.
 */
interface Expansion {
  env: NodeJS.ProcessEnv;
  problems: string[];
  unset: Set<string>;
  say: ConfigText;
}

function expandEnv(value: unknown, path: (string | number)[], x: Expansion): unknown {
  if (typeof value === 'string') {
    // `$${NAME}` is the escape: a password holding "${NAME}" as it stands.
    return value.replace(/\$(\$?)\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, escaped: string, name: string) => {
      if (escaped) return `\${${name}}`;
      const found = x.env[name];
      if (found === undefined) {
        x.problems.push(`${formatPath(path)}: ${x.say.envUnset(name)}`);
        x.unset.add(formatPath(path));
        return '';
      }
      return found;
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => expandEnv(v, [...path, i], x));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandEnv(v, [...path, k], x)]));
  }
  return value;
}

/** The raw value at a key path, to explain a wrong type in the user's terms. */
function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}

/** The keys whose value is a duration (poll:), which a bare number is not. */
const DURATION_KEYS = new Set<unknown>(['interval', 'fast_interval', 'school_interval']);

/**
 * The schema library's text in a parent's words. `value` is what the file holds at `path`; it is never
 * quoted back (it may be a password), only its kind.
 */
function describeIssue(issue: z.core.$ZodIssue, path: (string | number)[], value: unknown, say: ConfigText): string {
  const key = path.at(-1);
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((k) => `${formatPath([...path, k])}: ${say.unknownKey}`).join('\n  ');
  }
  let message = issue.message;
  const expected = issue.code === 'invalid_type' ? /expected (\w+)/.exec(message)?.[1] : undefined;
  if (issue.code === 'invalid_type' && /received undefined/.test(message)) message = say.required;
  // `password: #secret`: YAML read a comment, and the key holds null.
  else if (key === 'password' && value === null) message = say.passwordComment;
  else if (expected === 'string' && DURATION_KEYS.has(key) && typeof value === 'number') message = say.durationUnit;
  else if (expected === 'string' && (typeof value === 'number' || typeof value === 'boolean')) {
    // YAML reads 1234567, 0123 or true without quotes as a number or true/false (a leading 0 is lost).
    message = say.readAs(typeof value === 'number' ? 'number' : 'boolean');
  } else if (expected === 'boolean' && typeof value === 'string') {
    message = say.trueOrFalse;
  } else if (issue.code === 'invalid_union' && key === 'to') {
    message = 'must be class_tutor, {teacher: "Name Surname"} or {account_id: "..."}';
  } else message = message.replace(/^Invalid input: /, '');
  return `${formatPath(path) || '(top level)'}: ${message}`;
}

export function formatPath(path: (string | number)[]): string {
  return path.reduce<string>((out, p) => (typeof p === 'number' ? `${out}[${p}]` : out ? `${out}.${p}` : p), '');
}
