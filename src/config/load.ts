// Reads the config: a YAML file (or the add-on's options), ${ENV} secrets, password_file, and the
// MQTT URL override from the environment. Every problem is reported with its key path at once.
import { readFile } from 'node:fs/promises';
import { parseDocument, visit, type YAMLError } from 'yaml';
import { configSchema, type Config } from './schema.js';

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
  /** False for the add-on's options: what a parent types into the form is taken literally. */
  expandEnv?: boolean;
}

export async function loadConfigFile(path: string, options: LoadOptions = {}): Promise<Config> {
  const readText = options.readText ?? ((p: string) => readFile(p, 'utf8'));
  let text: string;
  try {
    text = await readText(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(path, [code === 'ENOENT' ? 'file not found' : `cannot read (${code ?? 'error'})`]);
  }
  // The parser's own messages quote the offending text, which may be a password: only the place
  // and the kind of problem are reported.
  const doc = parseDocument(text, { prettyErrors: true, logLevel: 'silent' });
  const trouble = [...doc.errors, ...doc.warnings];
  if (trouble.length > 0) {
    throw new ConfigError(path, trouble.slice(0, 5).map(describeYamlProblem));
  }
  let raw: unknown;
  try {
    raw = doc.toJS();
  } catch {
    // Only an alias (*name) without its anchor fails here; its message would quote the name.
    throw new ConfigError(path, [`not valid YAML${aliasLine(doc, text)}: a value starts with * (quote it)`]);
  }
  return buildConfig(raw, path, options);
}

/** Validates a config object (from YAML or the add-on's options) and resolves its secrets. */
export async function buildConfig(raw: unknown, source: string, options: LoadOptions = {}): Promise<Config> {
  const env = options.env ?? process.env;
  const readText = options.readText ?? ((p: string) => readFile(p, 'utf8'));
  if (raw === null || raw === undefined) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new ConfigError(source, ['the top level must be a mapping of keys']);

  const problems: string[] = [];
  const expanded = options.expandEnv === false ? raw : expandEnv(raw, [], env, problems);
  const parsed = configSchema.safeParse(expanded);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(describeIssue(issue));
  }
  if (problems.length > 0 || !parsed.success) throw new ConfigError(source, problems);

  const config = parsed.data;
  const override = env.DZIENNIK2MQTT_MQTT_URL;
  if (override) {
    if (!/^(mqtts?|wss?|tcp|ssl):\/\//.test(override)) {
      throw new ConfigError(source, ['DZIENNIK2MQTT_MQTT_URL: must start with mqtt:// or mqtts://']);
    }
    config.mqtt.url = override;
  }
  for (const [i, account] of config.accounts.entries()) {
    if (account.password_file === undefined) continue;
    try {
      account.password = (await readText(account.password_file)).replace(/\r?\n$/, '');
    } catch (error) {
      problems.push(`accounts[${i}].password_file: cannot read ${account.password_file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
      continue;
    }
    if (account.password === '') problems.push(`accounts[${i}].password_file: the file is empty`);
  }
  if (problems.length > 0) throw new ConfigError(source, problems);
  return config;
}

const YAML_HINTS: Record<string, string> = {
  BAD_ALIAS: 'a value starts with * (quote it)',
  BLOCK_AS_IMPLICIT_KEY: 'a value starts with | or > (quote it)',
  BAD_SCALAR_START: 'a value starts with a reserved character (quote it)',
  TAG_RESOLVE_FAILED: 'a value starts with ! (quote it)',
  UNEXPECTED_TOKEN: 'unexpected text (a value with : # * & ! | > % @ or ` may need quotes)',
  BAD_INDENT: 'wrong indentation',
};

/** " at line N" of the first alias in the document, or nothing. */
function aliasLine(doc: ReturnType<typeof parseDocument>, text: string): string {
  let offset: number | undefined;
  visit(doc, {
    Alias(_key, node) {
      offset = node.range?.[0];
      return visit.BREAK;
    },
  });
  return offset === undefined ? '' : ` at line ${text.slice(0, offset).split('\n').length}`;
}

function describeYamlProblem(error: YAMLError): string {
  const where = error.linePos ? ` at line ${error.linePos[0].line}, column ${error.linePos[0].col}` : '';
  const hint = YAML_HINTS[error.code] ?? `${error.code.toLowerCase().replace(/_/g, ' ')}; quoting values with special characters may help`;
  return `not valid YAML${where}: ${hint}`;
}

/** Replaces ${NAME} in every string with the environment variable; a missing one is a problem. */
function expandEnv(value: unknown, path: (string | number)[], env: NodeJS.ProcessEnv, problems: string[]): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, name: string) => {
      const found = env[name];
      if (found === undefined) {
        problems.push(`${formatPath(path)}: environment variable ${name} is not set`);
        return '';
      }
      return found;
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => expandEnv(v, [...path, i], env, problems));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandEnv(v, [...path, k], env, problems)]));
  }
  return value;
}

interface Issue {
  path: PropertyKey[];
  message: string;
  code: string;
  keys?: string[];
  input?: unknown;
}

function describeIssue(issue: Issue): string {
  const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
  if (issue.code === 'unrecognized_keys' && issue.keys) {
    return issue.keys.map((k) => `${formatPath([...path, k])}: unknown key`).join('\n  ');
  }
  let message = issue.message;
  if (issue.code === 'invalid_type' && /received undefined/.test(message)) message = 'required';
  else if (issue.code === 'invalid_union' && path.at(-1) === 'to') {
    message = 'must be class_tutor, {teacher: "Name Surname"} or {account_id: "..."}';
  } else message = message.replace(/^Invalid input: /, '');
  return `${formatPath(path) || '(top level)'}: ${message}`;
}

export function formatPath(path: (string | number)[]): string {
  return path.reduce<string>((out, p) => (typeof p === 'number' ? `${out}[${p}]` : out ? `${out}.${p}` : p), '');
}
