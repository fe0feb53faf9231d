// One home, one place (interface 18.3): the project's address stands in package.json's `repository` alone, and every
// blueprint's `source_url`, the install and import links, the app's `url` and image and the docs follow it. Here the
// repository as it is, and a copy whose package.json names another home.
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { addressFiles, addressProblems, writeAddresses } from '../../../src/release/addresses.js';
import { writeAppRepository } from '../../../src/release/app-repository.js';
import { readHome } from '../../../src/util/home.js';
import { loadBlueprint } from '../../helpers/blueprints.js';
import { tempDir } from '../../helpers/temp.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const BLUEPRINTS = 'blueprints/automation/dziennik2mqtt';
const MOVED = 'https://github.com/jan-kowalski/Szkola';

/** A copy of the files that spell the addresses, package.json and the app's folder, its package.json naming `repository`. */
async function copyWith(repository: unknown): Promise<string> {
  const copy = await tempDir();
  for (const file of [...addressFiles(REPO), 'package.json', 'hassio-addon']) await cp(join(REPO, file), join(copy, file), { recursive: true });
  const pkg = JSON.parse(await readFile(join(copy, 'package.json'), 'utf8')) as Record<string, unknown>;
  await writeFile(join(copy, 'package.json'), JSON.stringify({ ...pkg, repository }, null, 2));
  return copy;
}

/** Every my.home-assistant.io link's address parameter in `text`, decoded. */
function linkedAddresses(text: string, parameter: string): string[] {
  return [...text.matchAll(new RegExp(`[?&]${parameter}=([^)\\s&]+)`, 'g'))].map((m) => decodeURIComponent(m[1] as string));
}

describe("the project's addresses", () => {
  it("are package.json's repository's, in every file that spells them", () => {
    expect(addressProblems(REPO)).toEqual([]);
  });

  it('follow package.json: another repository there changes every source_url, link, the app’s url and image, and the app repository', async () => {
    const copy = await copyWith({ type: 'git', url: `git+${MOVED}.git` });
    expect(addressProblems(copy).length).toBeGreaterThan(10);
    expect(writeAddresses(copy).length).toBeGreaterThan(10);
    expect(addressProblems(copy)).toEqual([]);

    for (const file of addressFiles(copy).filter((f) => f.startsWith(BLUEPRINTS))) {
      expect(loadBlueprint(join(copy, file)).blueprint.source_url, file).toBe(`${MOVED}/blob/main/${file}`);
    }
    const automations = await readFile(join(copy, 'docs/automations.md'), 'utf8');
    const imported = linkedAddresses(automations, 'blueprint_url');
    expect(imported).toHaveLength(addressFiles(copy).filter((f) => f.startsWith(BLUEPRINTS)).length);
    for (const address of imported) expect(address).toMatch(new RegExp(`^${MOVED}/blob/main/${BLUEPRINTS}/[a-z_]+\\.yaml$`));

    const addon = parse(await readFile(join(copy, 'hassio-addon/config.yaml'), 'utf8')) as Record<string, unknown>;
    expect(addon.url).toBe(MOVED);
    expect(addon.image).toBe('ghcr.io/jan-kowalski/dziennik2mqtt-addon-{arch}');
    for (const page of ['README.md', 'hassio-addon/DOCS.md']) {
      const text = await readFile(join(copy, page), 'utf8');
      expect(linkedAddresses(text, 'repository_url'), page).toEqual(['https://github.com/jan-kowalski/hassio-Szkola']);
      expect(text, page).toContain('`https://github.com/jan-kowalski/hassio-Szkola`');
    }
    const repository = parse(await readFile(join(await writeTree(copy), 'repository.yaml'), 'utf8')) as Record<string, unknown>;
    expect(repository.url).toBe(MOVED);

    // Nothing names the old home any more, plainly or encoded.
    const old = readHome(REPO);
    for (const file of addressFiles(copy)) {
      const text = await readFile(join(copy, file), 'utf8');
      expect(text.includes(`github.com/${old.owner}/`) || text.includes(`github.com%2F${old.owner}%2F`), file).toBe(false);
    }
  });

  it('refuse a repository that is not on GitHub, where the workflows, the image and the feed are', async () => {
    const copy = await copyWith('https://gitlab.com/jan/szkola');
    expect(() => addressProblems(copy)).toThrow(/must be a GitHub repository/);
  });
});

async function writeTree(root: string): Promise<string> {
  const out = join(await tempDir(), 'tree');
  await writeAppRepository(root, out);
  return out;
}
