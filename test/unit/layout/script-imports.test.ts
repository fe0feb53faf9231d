// The scripts in scripts/ import the built bridge from dist/, which the typecheck never sees: a module moved to
// another room leaves a script's import pointing at nothing until someone runs it (scripts/dashboard-preview.mjs
// failed so for a round). Each `../dist/<path>.js` a script imports is a module of src/ (`<path>.ts`), built there.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = join(import.meta.dirname, '..', '..', '..');
const SCRIPTS = join(REPO, 'scripts');

/** The `../dist/...js` modules a script imports, statically or with import(). */
function distImports(text: string): string[] {
  return [...text.matchAll(/(?:from\s+|import\(\s*)['"]\.\.\/dist\/([^'"]+)\.js['"]/g)].map((m) => m[1]!);
}

describe('the scripts', () => {
  const scripts = readdirSync(SCRIPTS).filter((name) => name.endsWith('.mjs'));

  it('import from dist/ only modules src/ has', () => {
    const missing = scripts.flatMap((name) =>
      distImports(readFileSync(join(SCRIPTS, name), 'utf8'))
        .filter((path) => !existsSync(join(REPO, 'src', `${path}.ts`)))
        .map((path) => `${name}: ../dist/${path}.js`),
    );
    expect(missing).toEqual([]);
  });

  it('are read (the check above is not vacuous)', () => {
    const imports = scripts.flatMap((name) => distImports(readFileSync(join(SCRIPTS, name), 'utf8')));
    expect(imports).toEqual(expect.arrayContaining(['outputs/homeassistant/dashboard', 'app/commands/dashboard', 'simulator/index']));
  });
});
