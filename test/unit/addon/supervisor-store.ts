// The Supervisor's app store reading a repository a family added, restated from its source (supervisor/store/data.py:
// _read_git_repository, _find_app_configs and _read_apps_folder; store/validate.py's SCHEMA_REPOSITORY_CONFIG;
// utils/common.py's find_one_filetype and read_json_or_yaml_file; apps/validate.py's SCHEMA_APP_CONFIG, 2026.08) so
// that a test can run it over a tree: what it takes for the repository and its apps, and every warning it logs.
// An app is held to the rules of supervisor-rules.ts, as test/unit/addon/config-yaml.test.ts holds hassio-addon/ to them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join, resolve, sep } from 'node:path';
import { parse } from 'yaml';
import {
  ARCHES,
  BOOT,
  LEGACY_MAP_TYPES,
  MAP_TYPES,
  RE_DOCKER_IMAGE_BUILD,
  RE_SERVICE,
  RE_SLUG,
  RE_WATCHDOG,
  STARTUP,
  schemaShapeProblems,
} from './supervisor-rules.js';

/** FILE_SUFFIX_CONFIGURATION: the endings of a file the Supervisor reads as a config. */
const CONFIG_SUFFIXES = ['.yaml', '.yml', '.json'];

export interface StoreScan {
  /** repository.yaml as SCHEMA_REPOSITORY_CONFIG keeps it; undefined when the store took no repository. */
  repository: { name: string; url?: string; maintainer?: string } | undefined;
  /** The apps the store offers, by slug. */
  apps: Map<string, Record<string, unknown>>;
  /** The warnings it logs (as for an installed app of a custom repository, which logs its advisories as warnings). */
  warnings: string[];
}

/** What the store makes of the repository cloned at `path`. */
export function scanStoreRepository(path: string): StoreScan {
  const warnings: string[] = [];
  const repository = readRepository(path, warnings);
  const apps = new Map<string, Record<string, unknown>>();
  if (repository === undefined) return { repository, apps, warnings };
  for (const file of findAppConfigs(path)) {
    const config = readConfigFile(file);
    if (config === undefined) {
      warnings.push(`Can't read ${file} from repository`);
      continue;
    }
    const problems = appConfigProblems(config);
    if (problems.length > 0) {
      warnings.push(`Can't read ${file}: ${problems.join('; ')}`);
      continue;
    }
    warnings.push(...appAdvisories(config));
    apps.set(String(config.slug), config);
  }
  return { repository, apps, warnings };
}

/** _read_git_repository: the first `repository.*` of a config's ending anywhere in the tree, through its schema. */
function readRepository(path: string, warnings: string[]): StoreScan['repository'] {
  const file = walk(path).find((f) => basename(f, extname(f)) === 'repository' && CONFIG_SUFFIXES.includes(extname(f)));
  if (file === undefined) {
    warnings.push(`No repository information exists at ${path}`);
    return undefined;
  }
  const config = readConfigFile(file);
  if (config === undefined) {
    warnings.push(`Can't read repository information from ${file}`);
    return undefined;
  }
  const urlOk = config.url === undefined || (typeof config.url === 'string' && URL.canParse(config.url));
  if (typeof config.name !== 'string' || !urlOk || (config.maintainer !== undefined && typeof config.maintainer !== 'string')) {
    warnings.push(`Repository parse error ${file}`);
    return undefined;
  }
  return { name: config.name, url: config.url as string | undefined, maintainer: config.maintainer as string | undefined };
}

/**
 * _find_app_configs: `path.glob("**\/config.*")` of a config's ending, leaving out any whose path (the whole path,
 * from the root of the file system) has a part beginning with a dot or named `rootfs`.
 */
function findAppConfigs(path: string): string[] {
  return walk(path).filter((file) => {
    const parts = resolve(file).split(sep);
    return basename(file).startsWith('config.') && CONFIG_SUFFIXES.includes(extname(file)) && !parts.some((p) => p.startsWith('.') || p === 'rootfs');
  });
}

/** read_json_or_yaml_file: the file as JSON or YAML by its ending; undefined when it cannot be read as a mapping. */
function readConfigFile(file: string): Record<string, unknown> | undefined {
  try {
    const text = readFileSync(file, 'utf8');
    const value: unknown = extname(file) === '.json' ? JSON.parse(text) : parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** SCHEMA_APP_CONFIG's refusals (the migration's and the warning validator's name check first: "Invalid app config!"). */
export function appConfigProblems(config: Record<string, unknown>): string[] {
  if (!config.name) return ['Invalid app config!'];
  const problems: string[] = [];
  for (const key of ['name', 'version', 'slug', 'description'])
    if (typeof config[key] !== 'string') problems.push(`required key not provided @ data['${key}']`);
  if (typeof config.slug === 'string' && !RE_SLUG.test(config.slug)) problems.push("does not match regular expression @ data['slug']");
  if (!Array.isArray(config.arch) || config.arch.some((a) => !ARCHES.includes(a as string))) problems.push("not a valid value @ data['arch']");
  if (config.url !== undefined && !(typeof config.url === 'string' && URL.canParse(config.url))) problems.push("expected a URL @ data['url']");
  if (config.startup !== undefined && !STARTUP.includes(config.startup as string)) problems.push("not a valid value @ data['startup']");
  if (config.boot !== undefined && !BOOT.includes(config.boot as string)) problems.push("not a valid value @ data['boot']");
  if (config.image !== undefined && !RE_DOCKER_IMAGE_BUILD.test(String(config.image)))
    problems.push("does not match regular expression @ data['image']");
  if (config.watchdog !== undefined && !RE_WATCHDOG.test(String(config.watchdog)))
    problems.push("does not match regular expression @ data['watchdog']");
  const services = (config.services ?? []) as unknown[];
  if (!Array.isArray(services) || services.some((s) => !RE_SERVICE.test(String(s))))
    problems.push("does not match regular expression @ data['services']");
  const maps = (config.map ?? []) as { type?: unknown }[];
  const known = [...MAP_TYPES, ...Object.keys(LEGACY_MAP_TYPES)];
  if (!Array.isArray(maps) || maps.some((m) => !known.includes(String(m.type)))) problems.push("not a valid value @ data['map']");
  if (config.schema !== undefined && config.schema !== false) problems.push(...schemaShapeProblems(config.schema));
  return problems;
}

/** The warning validator's advisories for a config it takes: here, a folder named by its legacy map type. */
function appAdvisories(config: Record<string, unknown>): string[] {
  return ((config.map ?? []) as { type: string }[])
    .filter((m) => m.type in LEGACY_MAP_TYPES)
    .map((m) => `App '${String(config.name)}' uses legacy map type '${m.type}'; use '${LEGACY_MAP_TYPES[m.type]}' instead.`);
}

/** Every file below `path` (pathlib's glob walks into every folder, a dot folder too). */
function walk(path: string): string[] {
  return (readdirSync(path, { recursive: true, encoding: 'utf8' }) as string[])
    .map((name) => join(path, name))
    .filter((file) => statSync(file).isFile());
}
