// `npm run demo`: starts the demo from the compiled code at once, and builds it first only when dist/
// is missing or older than the sources (a TypeScript build takes many times longer than the start).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Why the compiled code under root must be built again, or undefined when it is up to date. */
export function needsBuild(root) {
  const main = join(root, 'dist', 'main.js');
  let built;
  try {
    built = statSync(main).mtimeMs;
  } catch {
    return 'dist/main.js is missing';
  }
  const sources = [join(root, 'tsconfig.json'), join(root, 'tsconfig.build.json'), ...filesUnder(join(root, 'src'))];
  const newer = sources.find((file) => mtime(file) > built);
  return newer === undefined ? undefined : `${newer.slice(root.length + 1)} is newer than dist/`;
}

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

async function main() {
  const root = dirname(dirname(fileURLToPath(import.meta.url)));
  const why = needsBuild(root);
  if (why !== undefined) {
    process.stderr.write(`building once (${why})...\n`);
    const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  // The bridge's own entry point, as if started as `dziennik2mqtt demo ...`.
  const entry = join(root, 'dist', 'main.js');
  process.argv = [process.argv[0], entry, 'demo', ...process.argv.slice(2)];
  await import(pathToFileURL(entry).href);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
