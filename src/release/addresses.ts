// The project's addresses as the pages and files spell them, made from package.json's `repository` alone
// (util/home.ts): `npm run addresses` writes them, and test/unit/release/addresses.test.ts fails while one differs.
// In the files below, every GitHub repository address is the project's (`https://github.com/<owner>/<name>` with
// what follows it: a file's page, `.git`, `#readme`) or, when its name begins `hassio-`, the app's repository; the
// same written as a link's encoded parameter (my.home-assistant.io's import and add-repository links); and the app's
// image `ghcr.io/<owner>/dziennik2mqtt-addon`. So the pages name no other project's repository by its address.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { APP_REPOSITORY_PREFIX, readHome, type Home } from '../util/home.js';

/** The files that spell the addresses out, as paths relative to the repository's root. */
export function addressFiles(root: string): string[] {
  const under = (folder: string, ending: string): string[] =>
    (readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' }) as string[])
      .filter((name) => name.endsWith(ending))
      .map((name) => relative(root, join(root, folder, name)));
  return [
    'README.md',
    'CHANGELOG.md',
    'CONTRIBUTING.md',
    'Dockerfile',
    'hassio-addon/config.yaml',
    ...under('docs', '.md'),
    ...under('hassio-addon', '.md'),
    ...under('blueprints', '.yaml'),
  ].sort();
}

const PLAIN = /https:\/\/github\.com\/([A-Za-z0-9-]+)\/([A-Za-z0-9_.-]+)/g;
const ENCODED = /https%3A%2F%2Fgithub\.com%2F([A-Za-z0-9-]+)%2F([A-Za-z0-9_.-]+)/gi;
const IMAGE = /ghcr\.io\/[a-z0-9-]+\/dziennik2mqtt-addon/g;

/** `text` with every address of the project, its app repository and its image as `home` makes them. */
export function withAddresses(text: string, home: Home): string {
  const repository = (name: string): string => (name.startsWith(APP_REPOSITORY_PREFIX) ? home.appRepository : home.url);
  return text
    .replace(PLAIN, (_, _owner: string, name: string) => repository(name) + nameTail(name))
    .replace(ENCODED, (_, _owner: string, name: string) => encodeURIComponent(repository(name)) + nameTail(name))
    .replace(IMAGE, home.image.replace(/-\{arch\}$/, ''));
}

/** What the pattern took after a repository's name that is not part of it: `.git`, a sentence's full stop. */
function nameTail(name: string): string {
  return /(\.git)?\.*$/.exec(name)?.[0] ?? '';
}

/** Each file whose addresses differ from what package.json's `repository` makes, with the first line that does. */
export function addressProblems(root: string): string[] {
  const home = readHome(root);
  return addressFiles(root).flatMap((file) => {
    const text = readFileSync(join(root, file), 'utf8');
    const lines = text.split('\n');
    const wanted = withAddresses(text, home).split('\n');
    const at = lines.findIndex((line, i) => line !== wanted[i]);
    return at === -1 ? [] : [`${file}:${at + 1}: ${lines[at]?.trim()} (package.json's repository makes it: ${wanted[at]?.trim()})`];
  });
}

/** Writes the addresses package.json's `repository` makes into every file; returns the files changed. */
export function writeAddresses(root: string): string[] {
  const home = readHome(root);
  return addressFiles(root).filter((file) => {
    const path = join(root, file);
    const text = readFileSync(path, 'utf8');
    const written = withAddresses(text, home);
    if (written !== text) writeFileSync(path, written);
    return written !== text;
  });
}
