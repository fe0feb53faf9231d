// The school year's statistics output (src/outputs/homeassistant/statistics/) writes what the features give it:
// each feature computes its figures day by day by its sensor's rule and publishes them as a series on the bus
// (src/engine/series.ts). The output imports no school rule (rules/) and no feature (features/), and no string of
// its code names a feature, so a new statistic is a feature's series, never an edit here.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileEdges } from '../../helpers/import-graph.js';
import { FEATURES } from '../../../src/features/index.js';

const SRC = join(import.meta.dirname, '..', '..', '..', 'src');
const OUTPUT = 'outputs/homeassistant/statistics/';

/** The string literals of a file's code, comments left out. */
function strings(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  return [...code.matchAll(/'([^'\n]*)'|"([^"\n]*)"|`([^`]*)`/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

describe("the school year's statistics output", () => {
  const imports = fileEdges(SRC)
    .filter((e) => e.from.startsWith(OUTPUT))
    .map((e) => `${e.from} -> ${e.to}`);

  it('imports no school rule and no feature', () => {
    expect(imports.filter((pair) => /-> (rules|features)\//.test(pair))).toEqual([]);
  });

  it('names no feature in its code', () => {
    const names = FEATURES.map((f) => f.name);
    const named = readdirSync(join(SRC, OUTPUT)).flatMap((file) =>
      strings(readFileSync(join(SRC, OUTPUT, file), 'utf8')).flatMap((s) =>
        names.filter((name) => new RegExp(`(^|[^a-z_-])${name}($|[^a-z_-])`, 'i').test(s)).map((name) => `${file}: '${s}' names ${name}`),
      ),
    );
    expect(named).toEqual([]);
  });

  it("sees the output's files and their imports (the checks above are not vacuous)", () => {
    expect(imports).toEqual(expect.arrayContaining([`${OUTPUT}statistics.ts -> ${OUTPUT}year.ts`, `${OUTPUT}year.ts -> bus/bus.ts`]));
    expect(strings("const a = 'grades'; // 'attendance'\nconst b = `x ${'y'}`;")).toContain('grades');
    expect(FEATURES.map((f) => f.name)).toEqual(expect.arrayContaining(['grades', 'attendance']));
  });
});
