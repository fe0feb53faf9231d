// The project's home: the repository address package.json's `repository` names, the one place it is written. Every
// other address follows from it: the app's repository (a repository of its own, as Home Assistant users know from
// zigbee2mqtt's `hassio-zigbee2mqtt`), the app's image on the host's registry, the release feed the bridge reads and a
// release's page. The docs, the blueprints and the app's files spell them out, kept so by src/release/addresses.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from './version.js';

/** The project's addresses, all made from its repository's. */
export interface Home {
  /** `https://github.com/<owner>/<name>`. */
  url: string;
  owner: string;
  name: string;
  /** The repository Home Assistant's app store reads: `https://github.com/<owner>/hassio-<name>`. */
  appRepository: string;
  /** The app's image, `{arch}` for the Supervisor to fill in (the registry wants the owner in lower case). */
  image: string;
  /** The releases as an Atom document (GitHub's release feed), which the bridge's update entity reads (app/release-check.ts). */
  releases: string;
}

/** The prefix of the app repository's name: what tells its address from the project's in a page. */
export const APP_REPOSITORY_PREFIX = 'hassio-';

const GITHUB = /^https:\/\/github\.com\/([A-Za-z0-9-]+)\/([A-Za-z0-9_.-]+)$/;

/**
 * The home of package.json's `repository` (npm's `{ type, url }` or a plain address; `git+` and `.git` as npm writes
 * them). Only a GitHub repository: the release workflows, the image's registry and the feed are GitHub's.
 */
export function homeOf(repository: unknown): Home {
  const written = typeof repository === 'string' ? repository : (repository as { url?: unknown } | undefined)?.url;
  const url = typeof written === 'string' ? written.replace(/^git\+/, '').replace(/\.git$/, '') : '';
  const match = GITHUB.exec(url);
  if (!match?.[1] || !match[2])
    throw new Error(`package.json's repository must be a GitHub repository (https://github.com/<owner>/<name>), not "${url}"`);
  const [, owner, name] = match;
  return {
    url,
    owner,
    name,
    appRepository: `https://github.com/${owner}/${APP_REPOSITORY_PREFIX}${name}`,
    image: `ghcr.io/${owner.toLowerCase()}/dziennik2mqtt-addon-{arch}`,
    releases: `${url}/releases.atom`,
  };
}

/** The home of the package.json in `root`. */
export function readHome(root: string): Home {
  return homeOf((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { repository?: unknown }).repository);
}

/** The running package's home. */
export const PROJECT_HOME: Home = readHome(PACKAGE_ROOT);
