// The changelogs are read by the families who install a release (the app's one in Home Assistant's app store): each
// has a section of unreleased changes above its newest dated release, and no line of either speaks to the project's
// developers (a bench figure, a test file, an issue number, a source path). Figures live in the bench's output and
// docs/bench-figures.json, the rest in the commits.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../../', import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, ROOT), 'utf8');

/** The lines of a changelog that are written for a developer, each with why. */
function forDevelopers(text: string): string[] {
  const rules: [RegExp, string][] = [
    [/<!-- fig:/, 'a bench figure'],
    [/\b[\w-]+\.test\.ts\b/, 'a test file'],
    [/\bissues? \d+/i, 'an issue number'],
    [/\b(src|test|scripts)\/[\w./-]+/, 'a source path'],
    [/\b\d+(\.\d+)? ?(MB|ms)\b|\bRSS\b|\bCPU\b/, 'a measurement'],
  ];
  return text.split('\n').flatMap((line, i) => rules.filter(([rule]) => rule.test(line)).map(([, why]) => `${i + 1}: ${why}: ${line.trim()}`));
}

describe('the changelogs', () => {
  for (const [path, heading] of [
    ['CHANGELOG.md', /^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$/m],
    // No brackets: Home Assistant shows what changed since the installed version by looking for "# <version>".
    ['hassio-addon/CHANGELOG.md', /^## (\d+\.\d+\.\d+) - (\d{4}-\d{2}-\d{2})$/m],
  ] as const) {
    it(`${path}: unreleased changes above a dated release`, () => {
      const text = read(path);
      const unreleased = /^## \[?Unreleased\]?$/m.exec(text);
      const release = heading.exec(text);
      expect(unreleased, 'an Unreleased section').not.toBeNull();
      expect(release, 'a dated release').not.toBeNull();
      expect(unreleased!.index).toBeLessThan(release!.index);
      expect(Number.isNaN(Date.parse(release![2] ?? ''))).toBe(false);
    });

    it(`${path}: says nothing meant for the developers`, () => {
      expect(forDevelopers(read(path))).toEqual([]);
    });
  }

  it('tells a line for developers from one for a family', () => {
    expect(forDevelopers('- A new grade fires once.\n- The board shows the lucky number.')).toEqual([]);
    expect(
      forDevelopers(
        [
          '- RSS 16 runs at 81.5 MB (median 82.7)',
          '- held by test/faults/event-kill.test.ts',
          '- issue 91: the bundle',
          '- <!-- fig:requests_defaults -->1,161<!-- /fig --> requests',
        ].join('\n'),
      ).map((line) => line.split(':')[1]?.trim()),
    ).toEqual(['a measurement', 'a test file', 'a source path', 'an issue number', 'a bench figure']);
  });
});
