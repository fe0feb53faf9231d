// A crash of the built bin names the code: an internal error (provoked by a preloaded module that makes
// reading the config file hand the YAML parser a number instead of the text, as a bug would) reaches the user with a stack trace whose frames name
// the bridge's own functions (the bundle keeps them), not only positions in a minified bundle.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO, ensureBuilt } from '../helpers/faults-process.js';
import { tempDir } from '../helpers/temp.js';

const MAIN = join(REPO, 'dist', 'main.js');

beforeAll(() => ensureBuilt(), 120_000);

/** A module that makes reading config.yaml give a number, which the YAML parser refuses with a TypeError. */
const PROVOKE = `
import fs from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
const readFile = fs.readFile;
fs.readFile = function (path, ...rest) {
  if (String(path).endsWith('config.yaml')) return Promise.resolve(42);
  return readFile.call(this, path, ...rest);
};
syncBuiltinESMExports();
`;

describe('a crash of the built bin', () => {
  it('prints a stack trace that names the real functions', async () => {
    const dir = await tempDir();
    const preload = join(dir, 'provoke.mjs');
    await writeFile(preload, PROVOKE);
    const config = join(dir, 'config.yaml');
    await writeFile(config, 'accounts: []\n');
    const result = await promisify(execFile)(process.execPath, [MAIN, 'dashboard', '--config', config], {
      cwd: REPO,
      env: { PATH: process.env.PATH, NODE_OPTIONS: `--import=${preload}` },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('TypeError: source is not a string');
    // The frames of the bridge in the bundle: the config loader and the command line, by their names.
    expect(result.stderr).toMatch(/at (async )?loadConfigFile \(file:\/\/.*\/dist\/main[.\w-]*\.js:\d+:\d+\)/);
    expect(result.stderr).toMatch(/at (async )?loadConfig \(file:\/\/.*\/dist\/main\.js:\d+:\d+\)/);
    expect(result.stderr).toMatch(/at (async )?main \(file:\/\/.*\/dist\/main\.js:\d+:\d+\)/);
  }, 60_000);
});
