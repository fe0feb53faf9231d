// Every YAML text the project gives Home Assistant reads the same under Home Assistant's loader (PyYAML, YAML 1.1,
// with its `!input` and `!secret` tags: test/helpers/ha-yaml.py) as under the project's own reading (the `yaml`
// package's YAML 1.2, which the tests and the bridge use): interface 18.1. Under YAML 1.1 a bare `on`, `off`, `yes`
// or `no` is a boolean, `15:00:00` a number and `2026-11-18` a date: a blueprint's `on:` key became `true`, and every
// achievement lost its "dnia" in Home Assistant while the tests, reading YAML 1.2, passed. Read: the blueprints, the
// app's config.yaml and translations, the app repository's repository.yaml (as the release makes it), the dashboard the bridge writes (each
// language, every entity) and the YAML snippets of the docs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { pythonHas } from '../../helpers/python.js';
import { parseAllDocuments, type ScalarTag } from 'yaml';
import { dashboardYaml } from '../../../src/outputs/homeassistant/dashboard.js';
import { ENTITIES } from '../../../src/features/index.js';
import { LANGUAGES } from '../../../src/config/language.js';
import { writeAppRepository } from '../../../src/release/app-repository.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const HELPER = join(ROOT, 'test/helpers/ha-yaml.py');
const scratch = mkdtempSync(join(tmpdir(), 'd2m-yaml-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Home Assistant's tags as the project's reading keeps them: `{"!input": "name"}`, as the helper writes them. */
const TAGS: ScalarTag[] = ['!input', '!secret', '!include', '!env_var'].map((tag) => ({ tag, resolve: (value: string) => ({ [tag]: value }) }));

/** The project's own reading (YAML 1.2), each document as JSON has it. */
function ownReading(text: string): unknown[] {
  return parseAllDocuments(text, { customTags: TAGS }).map((doc) => JSON.parse(JSON.stringify(doc.toJS())) as unknown);
}

/** Home Assistant's reading of each file, as JSON (one python3 for all). */
function homeAssistantReading(files: readonly string[]): Record<string, unknown[]> {
  return JSON.parse(execFileSync('python3', [HELPER, ...files], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })) as Record<string, unknown[]>;
}

const inFolder = (folder: string, ext: RegExp): string[] =>
  readdirSync(join(ROOT, folder))
    .filter((f) => ext.test(f))
    .sort()
    .map((f) => join(ROOT, folder, f));

/** Each ```yaml block of the docs a family copies into Home Assistant, as a file of its own. */
function docSnippets(): string[] {
  const pages = [...inFolder('docs', /\.md$/), join(ROOT, 'README.md'), join(ROOT, 'hassio-addon/DOCS.md')];
  return pages.flatMap((page) =>
    [...readFileSync(page, 'utf8').matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((block, i) => {
      const file = join(scratch, `${relative(ROOT, page).replace(/[/.]/g, '_')}-${i + 1}.yaml`);
      writeFileSync(file, block[1] ?? '');
      return file;
    }),
  );
}

/** The dashboard the bridge writes, in each language, for a school child and a kindergarten child with every entity. */
function dashboards(): string[] {
  return LANGUAGES.map((language) => {
    const file = join(scratch, `dashboard-${language}.yaml`);
    const children = [
      { id: 'ania', name: 'Ania Kowalska', entities: ENTITIES },
      { id: 'zofia', name: 'Zofia Kowalska', entities: ENTITIES, preschool: true },
    ];
    writeFileSync(file, dashboardYaml(children, language, { boardUrl: 'http://192.168.1.5:8099/', statistics: true }));
    return file;
  });
}

/** The app's repository as the release makes it (src/release/app-repository.ts): its repository.yaml is the store's. */
const appRepository = join(scratch, 'app-repository');
await writeAppRepository(ROOT, appRepository);

const SHIPPED = [
  ...inFolder('blueprints/automation/dziennik2mqtt', /\.yaml$/),
  join(ROOT, 'hassio-addon/config.yaml'),
  ...inFolder('hassio-addon/translations', /\.yaml$/),
  join(appRepository, 'repository.yaml'),
];

describe.skipIf(!pythonHas('yaml') && !process.env.CI)('YAML read as Home Assistant reads it', () => {
  const files = [...SHIPPED, ...dashboards(), ...docSnippets()];
  const read = pythonHas('yaml') ? homeAssistantReading(files) : {};

  it.each(files.map((f) => [relative(ROOT, f).startsWith('..') ? relative(scratch, f) : relative(ROOT, f), f]))(
    '%s reads the same under YAML 1.1 as under YAML 1.2',
    (_name, file) => {
      expect(read[file]).toEqual(ownReading(readFileSync(file, 'utf8')));
    },
  );

  it('tells a text that YAML 1.1 reads otherwise (the check can fail)', () => {
    const file = join(scratch, 'planted.yaml');
    writeFileSync(file, 'words:\n  on: dnia\n  at: 15:00:00\n  day: 2026-11-18\n  answer: yes\n');
    const [ha] = homeAssistantReading([file])[file] ?? [];
    expect(ha).toEqual({ words: { '!bool:True': 'dnia', at: 54000, day: { '!date': '2026-11-18' }, answer: true } });
    expect(ha).not.toEqual(ownReading(readFileSync(file, 'utf8'))[0]);
  });
});
