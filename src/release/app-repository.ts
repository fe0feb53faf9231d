// The repository Home Assistant's app store reads, made from hassio-addon/ into a tree of its own: repository.yaml at
// its root and the app in the folder `dziennik2mqtt/`, nothing else. The store takes every `config.*` below a
// repository's root for an app (the Supervisor's store/data.py), so it cannot read the project's own repository,
// whose config.example.yaml it would refuse at every reload; the release workflow publishes this tree to the app's
// repository (util/home.ts, `hassio-<name>`), as zigbee2mqtt publishes its app from `hassio-zigbee2mqtt`.
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readHome } from '../util/home.js';

/** The folder of the app inside the tree. */
export const APP_FOLDER = 'dziennik2mqtt';

/**
 * What the store and the Supervisor read of hassio-addon/: the config, the pages the store shows, the pictures, the
 * form's translations and the AppArmor profile it loads at install. run.sh is the image's (the Dockerfile copies it).
 */
export const APP_FILES = ['config.yaml', 'DOCS.md', 'README.md', 'CHANGELOG.md', 'icon.png', 'logo.png', 'apparmor.txt', 'translations'];

/** Writes the tree into `out` (emptied first) from the project at `root`; returns its files, relative to `out`. */
export async function writeAppRepository(root: string, out: string): Promise<string[]> {
  const home = readHome(root);
  await rm(out, { recursive: true, force: true });
  await mkdir(join(out, APP_FOLDER), { recursive: true });
  const repository = [
    '# The dziennik2mqtt app for the Home Assistant app store: Settings > Apps > App store, the three dots,',
    `# Repositories, add ${home.appRepository}. Made from ${home.url} (hassio-addon/) by its release workflow.`,
    'name: dziennik2mqtt',
    `url: ${home.url}`,
    'maintainer: dziennik2mqtt maintainers',
    '',
  ];
  await writeFile(join(out, 'repository.yaml'), repository.join('\n'));
  const readme = [
    '# dziennik2mqtt for Home Assistant',
    '',
    `The Home Assistant app of [dziennik2mqtt](${home.url}): in Home Assistant, **Settings > Apps > App store**, the three`,
    `dots, **Repositories**, add \`${home.appRepository}\`, then install **dziennik2mqtt**.`,
    '',
    `Every file here is made by the release workflow from the project's \`hassio-addon/\`: change them there (${home.url}).`,
    '',
  ];
  await writeFile(join(out, 'README.md'), readme.join('\n'));
  for (const file of APP_FILES) await cp(join(root, 'hassio-addon', file), join(out, APP_FOLDER, file), { recursive: true });
  return ['repository.yaml', 'README.md', ...APP_FILES.map((file) => `${APP_FOLDER}/${file}`)];
}
