// The store reads only the app (interface 18.3): the Supervisor's store scan (supervisor-store.ts, restated from its
// source) over the tree the release publishes as the app's repository finds one app and logs no warning; over the
// project's own tree, as families added it before, it refused config.example.yaml at every reload.
import { cp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { APP_FOLDER, writeAppRepository } from '../../../src/release/app-repository.js';
import { readHome } from '../../../src/util/home.js';
import { scanStoreRepository } from '../addon/supervisor-store.js';
import { tempDir } from '../../helpers/temp.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const home = readHome(REPO);
const readYaml = async (path: string): Promise<Record<string, unknown>> => parse(await readFile(path, 'utf8')) as Record<string, unknown>;

describe("the app's repository", () => {
  it('holds exactly one app, read by the store without a warning', async () => {
    const tree = join(await tempDir(), 'hassio-dziennik2mqtt');
    const files = await writeAppRepository(REPO, tree);
    const scan = scanStoreRepository(tree);
    expect(scan.warnings).toEqual([]);
    expect(scan.repository).toEqual({ name: 'dziennik2mqtt', url: home.url, maintainer: 'dziennik2mqtt maintainers' });
    expect([...scan.apps.keys()]).toEqual(['dziennik2mqtt']);
    // The app is hassio-addon/'s, as written, with the pages, pictures, translations and profile the store reads.
    expect(scan.apps.get('dziennik2mqtt')).toEqual(await readYaml(join(REPO, 'hassio-addon/config.yaml')));
    expect(files).toEqual(
      expect.arrayContaining(['repository.yaml', `${APP_FOLDER}/config.yaml`, `${APP_FOLDER}/translations`, `${APP_FOLDER}/apparmor.txt`]),
    );
    for (const page of ['DOCS.md', 'CHANGELOG.md', 'icon.png', 'logo.png', 'translations/pl.yaml']) {
      expect(await readFile(join(tree, APP_FOLDER, page)), page).toEqual(await readFile(join(REPO, 'hassio-addon', page)));
    }
  });

  it("is what the project's own tree was not: with config.example.yaml at its root the store warned at every reload", async () => {
    const made = join(await tempDir(), 'made');
    await writeAppRepository(REPO, made);
    const tree = await tempDir();
    await cp(join(made, 'repository.yaml'), join(tree, 'repository.yaml'));
    for (const file of ['config.example.yaml', 'hassio-addon']) await cp(join(REPO, file), join(tree, file), { recursive: true });
    const scan = scanStoreRepository(tree);
    expect(scan.warnings).toEqual([`Can't read ${join(tree, 'config.example.yaml')}: Invalid app config!`]);
    expect([...scan.apps.keys()]).toEqual(['dziennik2mqtt']);
  });

  it('is where the install steps send a family', async () => {
    for (const page of ['README.md', 'hassio-addon/DOCS.md']) {
      const text = await readFile(join(REPO, page), 'utf8');
      expect(text, page).toContain(`\`${home.appRepository}\``);
      expect(text, page).toContain(`repository_url=${encodeURIComponent(home.appRepository)}`);
    }
  });
});
