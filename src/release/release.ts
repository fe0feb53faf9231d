// What a release publishes, made in one folder before anything is published (scripts/release.mjs; the release
// workflow runs it on a tag `v<version>`, and `npm run release:dry-run` runs it here):
//   image/           the images' build context, exactly what .dockerignore lets Docker see, with the Dockerfile
//   app-repository/  the repository Home Assistant's store reads (app-repository.ts)
//   blueprints/      the blueprints, attached to the release
//   notes.md         the release's notes: the changelog's section of the version
// It refuses a release whose tag, package.json, the app's config.yaml and the changelog do not name one version, or
// whose addresses do not follow package.json's repository (addresses.ts).
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { readHome } from '../util/home.js';
import { addressProblems } from './addresses.js';
import { writeAppRepository } from './app-repository.js';

export const BLUEPRINT_FOLDER = 'blueprints/automation/dziennik2mqtt';

export interface ReleaseOptions {
  /** The tag pushed (`v0.2.0`); the dry run takes `v<package.json's version>`. */
  tag?: string;
  /** A dry run takes the changelog's [Unreleased] section when the version has none yet. */
  dryRun?: boolean;
  /** The repository the workflow runs in (`owner/name`): it must be package.json's, whose addresses the release spells. */
  repository?: string;
}

export interface PreparedRelease {
  version: string;
  /** The image's name without the arch (`ghcr.io/<owner>/dziennik2mqtt-addon`); `-<arch>` follows it. */
  image: string;
  /** The app's repository as `owner/name`, where the app-repository tree is pushed. */
  appRepository: string;
  /** Every file made, relative to the output folder. */
  files: string[];
}

/** Refused: what disagrees, one line each. */
export class ReleaseRefused extends Error {
  override readonly name = 'ReleaseRefused';

  constructor(readonly problems: readonly string[]) {
    super(`the release is refused:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
}

/** Makes the release's files in `out` (emptied first) from the project at `root`. */
export async function prepareRelease(root: string, out: string, options: ReleaseOptions = {}): Promise<PreparedRelease> {
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
  const version = pkg.version;
  const tag = options.tag ?? `v${version}`;
  const addon = parse(await readFile(join(root, 'hassio-addon/config.yaml'), 'utf8')) as { version?: string };
  const changelog = await readFile(join(root, 'CHANGELOG.md'), 'utf8');
  const home = readHome(root);
  const named = `${home.owner}/${home.name}`;
  const notes = changelogSection(changelog, version) ?? (options.dryRun ? changelogSection(changelog, 'Unreleased') : undefined);
  const problems = [
    ...(tag === `v${version}` ? [] : [`the tag is ${tag}, package.json's version ${version}`]),
    ...(addon.version === version ? [] : [`hassio-addon/config.yaml's version is ${String(addon.version)}, package.json's ${version}`]),
    ...(notes === undefined ? [`CHANGELOG.md has no section "## [${version}]"`] : []),
    ...(options.repository === undefined || options.repository.toLowerCase() === named.toLowerCase()
      ? []
      : [`this is ${options.repository}, package.json's repository ${named}: its addresses would point elsewhere`]),
    ...addressProblems(root),
  ];
  if (problems.length > 0) throw new ReleaseRefused(problems);

  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const image = await copyBuildContext(root, join(out, 'image'));
  const app = await writeAppRepository(root, join(out, 'app-repository'));
  const blueprints = (await readdir(join(root, BLUEPRINT_FOLDER))).filter((name) => name.endsWith('.yaml')).sort();
  for (const name of blueprints) await cp(join(root, BLUEPRINT_FOLDER, name), join(out, 'blueprints', name));
  await writeFile(join(out, 'notes.md'), notes ?? '');
  return {
    version,
    image: home.image.replace(/-\{arch\}$/, ''),
    appRepository: new URL(home.appRepository).pathname.slice(1),
    files: [...image.map((f) => `image/${f}`), ...app.map((f) => `app-repository/${f}`), ...blueprints.map((f) => `blueprints/${f}`), 'notes.md'],
  };
}

/** The lines under `## [<name>]` (or `## <name>`) up to the next version's heading, trimmed; undefined when there is none. */
export function changelogSection(changelog: string, name: string): string | undefined {
  const lines = changelog.split('\n');
  const heading = new RegExp(`^## \\[?${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\]?( |$)`);
  const start = lines.findIndex((line) => heading.test(line));
  if (start === -1) return undefined;
  const end = lines.findIndex((line, i) => i > start && line.startsWith('## '));
  return `${lines
    .slice(start + 1, end === -1 ? undefined : end)
    .join('\n')
    .trim()}\n`;
}

/**
 * Copies what .dockerignore lets into the build context, with the Dockerfile and .dockerignore themselves; returns the
 * paths copied. It reads the form this project's .dockerignore has (`*`, then each path let in as `!path`) and refuses
 * any other, rather than guess at Docker's rules.
 */
export async function copyBuildContext(root: string, out: string): Promise<string[]> {
  const patterns = (await readFile(join(root, '.dockerignore'), 'utf8'))
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const [first, ...rest] = patterns;
  const unread = rest.filter((p) => !/^![\w./-]+$/.test(p) || p.includes('..'));
  if (first !== '*' || unread.length > 0)
    throw new Error(`.dockerignore: only "*" and then "!path" lines are read here, not ${unread.join(', ') || first}`);
  const paths = ['Dockerfile', '.dockerignore', ...rest.map((p) => p.slice(1))];
  for (const path of paths) await cp(join(root, path), join(out, path), { recursive: true });
  return paths;
}
