// The package's root folder (where package.json is), found from a module's own file: the sources' root when
// run from src/, the built package's when run from dist/ (which sits in it); and the package version read
// from it: one folder up from the bundle's chunks (dist/main*.js), more from a file tsc leaves in a folder of
// dist/ (the bench and the simulator load those).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder of package.json at or above `from`. */
export function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** The running package's root folder. */
export const PACKAGE_ROOT = packageRoot(dirname(fileURLToPath(import.meta.url)));
export const VERSION: string = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
