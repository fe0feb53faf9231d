// The package version, read from the nearest package.json above this file: one folder up from the bundle's
// chunks (dist/main*.js), more from a file tsc leaves in a folder of dist/ (the bench and the simulator load those).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from './package-root.js';

const file = join(packageRoot(dirname(fileURLToPath(import.meta.url))), 'package.json');
export const VERSION: string = (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
