// Makes a release's files in OUT (src/release/release.ts): the images' build context, the app's repository, the
// blueprints and the notes, after checking that the tag, package.json, the app's config.yaml and the changelog name
// one version and that every address follows package.json's repository. The release workflow runs it on a tag and
// publishes what it made; `npm run release:dry-run` makes the same here (into release/) and publishes nothing.
// Usage: node scripts/release.mjs OUT [--tag v<version>] [--repository OWNER/NAME] [--dry-run]   (needs dist/ built)
// Under GitHub Actions it also writes `version`, `image` and `app_repository` to $GITHUB_OUTPUT for the jobs that follow.
import { appendFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { prepareRelease, ReleaseRefused } from '../dist/release/release.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const USAGE = 'usage: node scripts/release.mjs OUT [--tag v<version>] [--repository OWNER/NAME] [--dry-run]\n';
const args = process.argv.slice(2);
/** The value after `--name`, and the indexes it takes. */
const option = (name) => {
  const at = args.indexOf(name);
  return at === -1 ? { taken: [] } : { value: args[at + 1], taken: [at, at + 1] };
};
const tag = option('--tag');
const repository = option('--repository');
const taken = [...tag.taken, ...repository.taken];
const out = args.find((arg, i) => !arg.startsWith('--') && !taken.includes(i));
if (out === undefined || taken.some((i) => args[i] === undefined)) {
  process.stderr.write(USAGE);
  process.exit(2);
}
try {
  const release = await prepareRelease(root, resolve(out), { tag: tag.value, repository: repository.value, dryRun: args.includes('--dry-run') });
  process.stdout.write(
    `dziennik2mqtt ${release.version}, image ${release.image}-<arch>:${release.version}, app repository ${release.appRepository}, in ${out}:\n`,
  );
  for (const file of release.files) process.stdout.write(`  ${file}\n`);
  const outputs = `version=${release.version}\nimage=${release.image}\napp_repository=${release.appRepository}\n`;
  if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, outputs);
} catch (error) {
  if (!(error instanceof ReleaseRefused)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
