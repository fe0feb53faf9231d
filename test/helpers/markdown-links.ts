// The relative links of Markdown pages, and whether each resolves: the file exists and, for a
// `#fragment`, the target page has a heading that GitHub gives that anchor.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** The anchor GitHub makes of a heading's text: lower case, punctuation dropped, each space a hyphen. */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link's or image's text stays, its target goes
    .replace(/<[^>]+>/g, '') // inline HTML
    .replace(/`/g, ''); // code spans keep their text
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Text outside fenced code blocks and code spans, where a `[x](y)` is not a link. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Every anchor a page offers: its headings' slugs, a repeated one numbered -1, -2 as GitHub does. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  const withoutFences = markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, '');
  for (const match of withoutFences.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = githubSlug(match[1] ?? '');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

/** The relative link targets of a page (inline links and images), outside code. */
export function relativeLinks(markdown: string): string[] {
  const targets = [...prose(markdown).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? '');
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

/** What does not resolve in the given pages (paths relative to root), one line each; empty when all do. */
export function brokenLinks(root: string, pages: readonly string[]): string[] {
  const problems: string[] = [];
  for (const page of pages) {
    const file = join(root, page);
    const markdown = readFileSync(file, 'utf8');
    for (const link of relativeLinks(markdown)) {
      const [path = '', fragment] = link.split('#', 2);
      const target = path === '' ? file : join(dirname(file), decodeURIComponent(path));
      if (!existsSync(target)) {
        problems.push(`${page}: ${link}: no file ${relative(root, target)}`);
        continue;
      }
      if (fragment === undefined || !target.endsWith('.md')) continue;
      if (!anchors(readFileSync(target, 'utf8')).has(decodeURIComponent(fragment))) {
        problems.push(`${page}: ${link}: ${relative(root, target)} has no heading with the anchor #${fragment}`);
      }
    }
  }
  return problems;
}
