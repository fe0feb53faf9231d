// The newest release in the project's release feed: GitHub's Atom document of its releases (util/home.ts), one
// <entry> per release or tag, each with a link to its page (`.../releases/tag/v0.2.0`). A release is a tag `v<x.y.z>`;
// a pre-release (`v0.3.0-rc.1`) or any other tag is no release a family is offered. Strict (interface 19.2): each part
// of a version a few digits (a 25-digit tag is no version), and the page only under the project's own repository
// (package.json's, util/home.ts) and of bounded length, so nothing the feed says grows a retained message.
import type { Release } from '../outputs/mqtt/states.js';

const ENTRY = /<entry\b[\s\S]*?<\/entry>/g;
const LINK = /<link\b[^>]*\bhref="([^"]*)"/;
/** A version's parts: at most six digits each, as no release of this project will outgrow. */
const TAG = /^v(\d{1,6})\.(\d{1,6})\.(\d{1,6})$/;
/** The longest release page kept: the repository's address, `/releases/tag/`, and a tag of three short parts. */
export const RELEASE_URL_MAX = 200;

/** The version a release page names, as three numbers, when the page is the repository's own and no longer than RELEASE_URL_MAX. */
export function releaseOf(href: string, repository: string): { parts: number[]; release: Release } | undefined {
  const prefix = `${repository}/releases/tag/`;
  if (href.length > RELEASE_URL_MAX || !href.startsWith(prefix) || !repository.startsWith('https://')) return undefined;
  const tag = TAG.exec(href.slice(prefix.length));
  if (!tag) return undefined;
  const parts = tag.slice(1, 4).map(Number);
  return { parts, release: { version: parts.join('.'), url: href } };
}

/** The release of the highest version the document names under `repository` (`https://github.com/<owner>/<name>`); undefined when it names none. */
export function newestRelease(atom: string, repository: string): Release | undefined {
  let newest: { parts: number[]; release: Release } | undefined;
  for (const [entry] of atom.matchAll(ENTRY)) {
    const found = releaseOf(unescapeXml(LINK.exec(entry)?.[1] ?? ''), repository);
    if (found === undefined) continue;
    const { parts } = found;
    if (newest === undefined || compareVersions(parts, newest.parts) > 0) newest = found;
  }
  return newest?.release;
}

function compareVersions(a: readonly number[], b: readonly number[]): number {
  const at = a.findIndex((n, i) => n !== b[i]);
  return at === -1 ? 0 : (a[at] ?? 0) - (b[at] ?? 0);
}

/** The five entities XML escapes an attribute's text with. */
function unescapeXml(text: string): string {
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => entities[name] ?? '');
}
