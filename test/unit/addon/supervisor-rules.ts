// The Supervisor's rules for an app's (add-on's) config.yaml and its options, restated from its source
// (supervisor/apps/validate.py, app.py and options.py, 2026.08) so that the tests can hold our files to them.

/** A schema element: str, password, int(min,max), match(REGEX), list(a|b), ... with an optional `?`. */
export const RE_SCHEMA_ELEMENT = new RegExp(
  '^(?:' +
    '|bool' +
    '|email' +
    '|url' +
    '|port' +
    '|device(?:\\((?<filter>subsystem=[a-z]+)\\))?' +
    '|str(?:\\((?<s_min>\\d+)?,(?<s_max>\\d+)?\\))?' +
    '|password(?:\\((?<p_min>\\d+)?,(?<p_max>\\d+)?\\))?' +
    '|int(?:\\((?<i_min>\\d+)?,(?<i_max>\\d+)?\\))?' +
    '|float(?:\\((?<f_min>[\\d.]+)?,(?<f_max>[\\d.]+)?\\))?' +
    '|match\\((?<match>.*)\\)' +
    '|list\\((?<list>.+)\\)' +
    ')\\??$',
);

export const ARCHES = ['armhf', 'armv7', 'aarch64', 'amd64', 'i386'];
export const RE_SERVICE = /^(mqtt|mysql):(provide|want|need)$/;
export const RE_SLUG = /^[-_.A-Za-z0-9]+$/;
/** `image:` (validate.py's RE_DOCKER_IMAGE_BUILD): registry/owner/name, {arch} allowed, no tag. */
export const RE_DOCKER_IMAGE_BUILD = /^([a-zA-Z\-.:\d{}]+\/)*?([-\w{}]+)\/([-\w{}]+)(:[.\-\w{}]+)?$/;
export const MAP_TYPES = ['data', 'config', 'ssl', 'local_apps', 'backup', 'share', 'media', 'homeassistant_config', 'all_app_configs', 'app_config'];
/** The map types the Supervisor still accepts from before 2026.07.1, each with the warning's new name. */
export const LEGACY_MAP_TYPES: Record<string, string> = { addons: 'local_apps', all_addon_configs: 'all_app_configs', addon_config: 'app_config' };
/** `watchdog:` (validate.py): a URL on the app's own [HOST], at a fixed or [PORT:n] port. */
export const RE_WATCHDOG = /^(?:https?|\[PROTO:\w+\]|tcp):\/\/\[HOST\]:(\[PORT:\d+\]|\d+).*$/;

/**
 * Python's PurePath.match, as the Supervisor applies a `backup_exclude` pattern to a file's full path:
 * a relative pattern matches the end of the path part by part, each part a glob (`*`, `?`, `[...]`).
 */
export function purePathMatch(path: string, pattern: string): boolean {
  const parts = path.split('/').filter(Boolean);
  const globs = pattern.split('/').filter(Boolean);
  if (pattern.startsWith('/') ? globs.length !== parts.length : globs.length > parts.length) return false;
  const tail = parts.slice(parts.length - globs.length);
  return globs.every((glob, i) => globToRegExp(glob).test(tail[i] ?? ''));
}

function globToRegExp(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|\\]/g, '\\$&')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]');
  return new RegExp(`^${body}$`);
}
export const STARTUP = ['initialize', 'system', 'services', 'application', 'once'];
export const BOOT = ['auto', 'manual', 'manual_only'];

/** Problems with the shape of `schema` (a list holds exactly one element, never a list directly). */
export function schemaShapeProblems(schema: unknown, path = 'schema'): string[] {
  if (typeof schema === 'string') return RE_SCHEMA_ELEMENT.test(schema) ? [] : [`${path}: unknown type "${schema}"`];
  if (Array.isArray(schema)) {
    if (schema.length !== 1) return [`${path}: a list holds exactly one element type`];
    if (Array.isArray(schema[0])) return [`${path}: a list may not directly contain a list`];
    return schemaShapeProblems(schema[0], `${path}[0]`);
  }
  if (schema && typeof schema === 'object') {
    return Object.entries(schema).flatMap(([k, v]) => schemaShapeProblems(v, `${path}.${k}`));
  }
  return [`${path}: not a type, list or mapping`];
}

export function isOptional(element: unknown): boolean {
  const leaf = Array.isArray(element) ? element[0] : element;
  return typeof leaf === 'string' && leaf.endsWith('?');
}

/** What the Supervisor would refuse in `options` (unknown keys, which it only drops, count too). */
export function optionProblems(schema: Record<string, unknown>, options: Record<string, unknown>, path = 'options'): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(options)) {
    if (!(key in schema)) problems.push(`${path}.${key}: not in the schema`);
    else problems.push(...elementProblems(schema[key], value, `${path}.${key}`));
  }
  for (const key of Object.keys(schema)) {
    if (!(key in options) && !isOptional(schema[key])) problems.push(`${path}.${key}: missing`);
  }
  return problems;
}

function elementProblems(type: unknown, value: unknown, path: string): string[] {
  if (Array.isArray(type)) {
    if (!Array.isArray(value)) return [`${path}: not a list`];
    return value.flatMap((v, i) => elementProblems(type[0], v, `${path}[${i}]`));
  }
  if (type && typeof type === 'object') {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return [`${path}: not a mapping`];
    return optionProblems(type as Record<string, unknown>, value as Record<string, unknown>, path);
  }
  return singleProblems(String(type), value, path);
}

function singleProblems(type: string, value: unknown, path: string): string[] {
  if (value === null || value === undefined) return [`${path}: required`];
  const m = RE_SCHEMA_ELEMENT.exec(type);
  if (!m?.groups) return [`${path}: unknown type ${type}`];
  const g = m.groups;
  const inRange = (n: number, min?: string, max?: string): boolean =>
    (min === undefined || n >= Number(min)) && (max === undefined || n <= Number(max));
  if (type.startsWith('str') || type.startsWith('password')) {
    if (typeof value !== 'string' && typeof value !== 'number') return [`${path}: not a string`];
    // The Supervisor checks a range on str/password with voluptuous' Range, which compares the text
    // itself with the number: a TypeError, so with any bound every value is refused ("invalid value
    // or type (must have a partial ordering)"). A length is not a usable rule.
    const bounded = [g.s_min, g.s_max, g.p_min, g.p_max].some((b) => b !== undefined);
    return bounded && typeof value === 'string' ? [`${path}: must have a partial ordering`] : [];
  }
  if (type.startsWith('int')) {
    return Number.isInteger(Number(value)) && inRange(Number(value), g.i_min, g.i_max) ? [] : [`${path}: not an int in range`];
  }
  if (type.startsWith('float')) return Number.isFinite(Number(value)) ? [] : [`${path}: not a number`];
  if (type.startsWith('bool')) return typeof value === 'boolean' ? [] : [`${path}: not a boolean`];
  if (type.startsWith('match')) {
    // Python's re.match: anchored at the start only.
    return new RegExp(g.match as string).exec(String(value))?.index === 0 ? [] : [`${path}: does not match ${g.match}`];
  }
  if (type.startsWith('list')) return (g.list as string).split('|').includes(String(value)) ? [] : [`${path}: not one of ${g.list}`];
  return [];
}
