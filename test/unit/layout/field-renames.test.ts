// Every field a feature's board, dashboard or Assist's `ask` part reads is held by the typecheck: renamed where it is
// declared (in a copy, in memory), the typecheck fails where the part reads it. The fields are found by the compiler
// (test/helpers/field-renames.ts), not listed by hand; a read through an `in` narrowing or a structural parameter with
// an optional field would survive its field's rename, and the part would stop telling it in silence (the forecast
// once did so in Assist's answers). So no field a part reads is declared optional (`field?:`; nullable where unknown,
// a flag a boolean), and no part's code narrows with `in`: found in the same walk, the one program built once.
// The words of src/i18n are checked by their own type (feature-text.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { tsFiles } from '../../helpers/import-graph.js';
import { FieldRenames, whereOf, type Field } from '../../helpers/field-renames.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const SRC = join(ROOT, 'src');
/** A part: a value typed as one, or a function that takes a board part's argument. */
/** A part's type: a board's, a dashboard's, Assist's. */
const PART = /\b(BoardPart|DashboardPart|AskPart)\b/;
const isPart = (type: string): boolean => PART.test(type);

const config = ts.getParsedCommandLineOfConfigFile(
  join(ROOT, 'tsconfig.json'),
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
);
const options: ts.CompilerOptions = { ...config?.options, noEmit: true, sourceMap: false };
const product = tsFiles(SRC).filter((file) => !file.includes(`${join('outputs', 'web', 'browser')}`));
/**
 * The program's roots: the features' files, and through their imports every file a part's types come from (the
 * features' own `declare module` entries of the engine's source among them). A file no feature imports could bear on
 * a part only by a `declare module` or `declare global` of its own, and none outside the features has one: parsing
 * the rest cost 2.7 s of the file's CPU (903 files -> 538), the fields found and each round's findings the same (334
 * fields; 193, 76, 59 and 6 proven).
 */
const features = product.filter((file) => file.includes(join(SRC, 'features')));
const parts = features.filter(
  (file) => !/screens[\\/](parts|ask)\.ts$|features[\\/]feature\.ts$/.test(file) && PART.test(readFileSync(file, 'utf8')),
);
const own = (file: string): boolean => file.startsWith(SRC) && !file.startsWith(join(SRC, 'i18n'));

describe("the fields the features' parts read", () => {
  it('each fail the typecheck where a part reads them once renamed where they are declared', () => {
    const renames = new FieldRenames(features, options, own);
    const fields = renames.fieldsReadIn(parts, isPart);
    // Soft: the renames' list below is worth seeing beside this one.
    expect.soft(loose(renames, fields)).toEqual([]);
    const silent = renames.silent(fields).map((f) => {
      const reads = f.reads.map((r) => whereOf(SRC, r.file, r.start, '', renames.program).trim());
      return `${whereOf(SRC, f.declarations[0]!.file, f.declarations[0]!.start, f.name, renames.program)}, read at ${reads.join(', ')}`;
    });
    expect(silent).toEqual([]);
    // Not vacuous: the parts are found, and the fields they read, the grades' forecast among them.
    expect(parts.length).toBeGreaterThan(25);
    expect(fields.length).toBeGreaterThan(200);
    expect(fields.map((f) => f.name)).toContain('forecast');
  }, 300_000);

  it('finds a read through an `in` narrowing silent, and a typed read not; and the narrowing, and an optional field', () => {
    const files = new Map([
      [
        '/v/view.ts',
        'export interface Figures { subject: string; forecast: string | null; trend?: string }\nexport type Part = () => string[];\nexport const figures = (): Figures[] => [];',
      ],
      [
        '/v/part.ts',
        [
          "import { figures, type Part } from './view.js';",
          "export const told: Part = () => figures().map((s) => ('forecast' in s ? `${s.subject}: ${s.forecast}` : s.subject));",
          'export const typed: Part = () => figures().map(({ subject, forecast }) => `${subject}: ${forecast}`);',
          'export const trend: Part = () => figures().map((s) => s.trend ?? s.subject);',
        ].join('\n'),
      ],
    ]);
    const renames = new FieldRenames(['/v/view.ts', '/v/part.ts'], { ...options, types: [] }, (file) => file.startsWith('/v/'), files);
    const fields = renames.fieldsReadIn(['/v/part.ts'], (type) => type === 'Part');
    expect(fields.map((f) => `${f.name} ${f.reads.length}`).sort()).toEqual(['forecast 2', 'subject 3', 'trend 1']);
    // The typed read of the forecast fails its rename, the narrowed one does not: the field is silent.
    expect(renames.silent(fields).map((f) => f.name)).toEqual(['forecast']);
    // The optional trend, and the narrowing itself, each named where it is.
    expect(loose(renames, fields, '/v')).toEqual([
      'view.ts:1 trend declared optional, read at part.ts:4',
      "part.ts:2 narrows with `in`: 'forecast' in s",
    ]);
  });
});

/** The fields `fields` declared optional and the parts' `in` narrowings, each where it is, for a person. */
function loose(renames: FieldRenames, fields: readonly Field[], root = SRC): string[] {
  const where = (file: string, start: number, name = ''): string => whereOf(root, file, start, name, renames.program).trim();
  return [
    ...fields.flatMap((f) =>
      f.declarations
        .filter((d) => d.optional)
        .map(
          (d) =>
            `${where(d.file, d.start, f.name)} declared optional, read at ${[...new Set(f.reads.map((r) => where(r.file, r.start)))].join(', ')}`,
        ),
    ),
    ...renames.narrowings.map(
      (n) => `${where(n.file, n.start)} narrows with \`in\`: ${renames.program.getSourceFile(n.file)?.text.slice(n.start, n.end)}`,
    ),
  ];
}
