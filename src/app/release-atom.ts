// The newest release in the project's release feed: GitHub's Atom document of its releases (util/home.ts), one
// <entry> per release or tag, each with a link to its page (`.../releases/tag/v0.2.0`). A release is a tag `v<x.y.z>`;
// a pre-release (`v0.3.0-rc.1`) or any other tag is no release a family is offered.
import type { Release } from '../outputs/mqtt/states.js';

const ENTRY = /<entry\b[\s\S]*?<\/entry>/g;
const LINK = /<link\b[^>]*\bhref="([^"]*)"/;
const TAG = /\/releases\/tag\/v(\d+)\.(\d+)\.(\d+)$/;

/** The release of the highest version the document names, with its page; undefined when it names none. */
export function newestRelease(atom: string): Release | undefined {
  let newest: { parts: number[]; release: Release } | undefined;
  for (const [entry] of atom.matchAll(ENTRY)) {
    const href = unescapeXml(LINK.exec(entry)?.[1] ?? '');
    const tag = TAG.exec(href);
    if (!tag || !href.startsWith('https://')) continue;
    const parts = tag.slice(1, 4).map(Number);
    if (newest === undefined || compareVersions(parts, newest.parts) > 0) newest = { parts, release: { version: parts.join('.'), url: href } };
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
