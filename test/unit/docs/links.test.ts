// Every relative link in README.md, CONTRIBUTING.md, the app's DOCS.md and docs/*.md resolves: the file is there and the #anchor is
// a heading of that page as GitHub spells anchors.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { anchors, brokenLinks, githubSlug } from '../../helpers/markdown-links.js';
import { tempDir } from '../../helpers/temp.js';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  'hassio-addon/DOCS.md',
  ...readdirSync(join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe("links in the README, CONTRIBUTING.md, the app's DOCS.md and docs/", () => {
  it('all resolve, files and anchors', () => {
    expect(PAGES.length).toBeGreaterThan(5);
    expect(brokenLinks(REPO, PAGES)).toEqual([]);
  });

  it('spells anchors as GitHub does', () => {
    expect(githubSlug('Troubleshooting (`problem.reason`)')).toBe('troubleshooting-problemreason');
    expect(githubSlug('The web server: board, calendar feeds, `/health`')).toBe('the-web-server-board-calendar-feeds-health');
    expect(githubSlug('First run: `check`')).toBe('first-run-check');
    expect(githubSlug('Zażółć gęślą jaźń')).toBe('zażółć-gęślą-jaźń');
    expect([...anchors('# Notes\n\n## Notes\n\n```\n# not a heading\n```\n')]).toEqual(['notes', 'notes-1']);
  });

  it('names a missing page, a missing anchor and a missing image, and ignores code and web addresses', async () => {
    const root = await tempDir();
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'docs', 'a.md'), '# A page\n\n## Two words\n');
    writeFileSync(
      join(root, 'README.md'),
      [
        '[ok](docs/a.md#two-words) [ok](#readme) [web](https://example.com/x.md) `[code](nowhere.md)`',
        '[gone](docs/b.md) [bad anchor](docs/a.md#two_words) ![picture](docs/images/board.png)',
        '```\n[in a block](nowhere.md)\n```',
        '# README',
      ].join('\n'),
    );
    expect(brokenLinks(root, ['README.md'])).toEqual([
      'README.md: docs/b.md: no file docs/b.md',
      'README.md: docs/a.md#two_words: docs/a.md has no heading with the anchor #two_words',
      'README.md: docs/images/board.png: no file docs/images/board.png',
    ]);
  });
});
