// The package version, read from the nearest package.json above this file: one folder up from the bundle's
// chunks (dist/main*.js), more from a file tsc leaves in a folder of dist/ (the bench and the simulator load those).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function packageVersion(from: string): string {
  const file = join(from, 'package.json');
  if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  if (dirname(from) === from) throw new Error('no package.json above the program');
  return packageVersion(dirname(from));
}

export const VERSION: string = packageVersion(dirname(fileURLToPath(import.meta.url)));
