// The package's root folder (where package.json is), found from a module's own file: the sources' root
// when run from src/, the built package's when run from dist/ (which sits in it).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The folder of package.json at or above `from`. */
export function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}
