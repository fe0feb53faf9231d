// The app's page (DOCS.md) tells what to do for every `problem` reason the code can publish, a child's
// and the bridge's own: a reason added in the code without a row there fails here. README names the
// app's sidebar panel as the app does (its panel_title).
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { problemReasons } from '../../../src/i18n/problem-advice.js';

const root = new URL('../../../', import.meta.url);
const docs = await readFile(new URL('hassio-addon/DOCS.md', root), 'utf8');

describe("the app's DOCS.md", () => {
  it('has a row for every problem reason', () => {
    const section = docs.slice(docs.indexOf('## When something is wrong'));
    const rows = section.split('\n').filter((l) => l.startsWith('| `'));
    expect(problemReasons().length).toBeGreaterThanOrEqual(10);
    for (const reason of problemReasons())
      expect(
        rows.some((row) => row.split('|')[1]!.includes(`\`${reason}\``)),
        reason,
      ).toBe(true);
  });

  it('names the sidebar panel as the app does, and README too', async () => {
    const { panel_title: title } = parse(await readFile(new URL('hassio-addon/config.yaml', root), 'utf8')) as { panel_title: string };
    expect(docs).toContain(`panel in the sidebar (**${title}**)`);
    const readme = await readFile(new URL('README.md', root), 'utf8');
    expect(readme).toContain(`**${title}** panel in the sidebar`);
  });
});
