// The release feed read strictly (interface 19.2): a version is three parts of a few digits, and a release's page
// stands only under the project's own repository and is short; anything else in the feed is no release offered.
import { describe, expect, it } from 'vitest';
import { newestRelease, RELEASE_URL_MAX } from '../../../src/app/release-atom.js';

const REPO = 'https://github.com/dziennik2mqtt/dziennik2mqtt';
const feed = (...hrefs: string[]) => `<feed>${hrefs.map((href) => `<entry><link rel="alternate" href="${href}"/></entry>`).join('')}</feed>`;
const tag = (version: string) => `${REPO}/releases/tag/v${version}`;

describe('the newest release in the feed', () => {
  it('is the highest version of a few digits a part, never one made of a long tag', () => {
    expect(newestRelease(feed(tag('0.2.0'), tag('0.10.1'), tag('0.3.0-rc.1')), REPO)).toEqual({ version: '0.10.1', url: tag('0.10.1') });
    // Not "1.1111111111111111e+24.0.0", nor "Infinity.0.0".
    expect(newestRelease(feed(tag(`1.${'1'.repeat(25)}.0`), tag('0.2.0')), REPO)?.version).toBe('0.2.0');
    expect(newestRelease(feed(tag(`${'9'.repeat(10_000)}.0.0`)), REPO)).toBeUndefined();
    expect(newestRelease(feed(tag('1234567.0.0')), REPO)).toBeUndefined();
  });

  it('stands only under the project’s repository, at a bounded length', () => {
    for (const href of [
      'https://example.com/dziennik2mqtt/dziennik2mqtt/releases/tag/v9.0.0',
      `${REPO}-fork/releases/tag/v9.0.0`,
      `http://github.com/dziennik2mqtt/dziennik2mqtt/releases/tag/v9.0.0`,
      `${REPO}/releases/tag/v9.0.0?${'x'.repeat(RELEASE_URL_MAX)}`,
      `${REPO}/../other/releases/tag/v9.0.0`,
    ])
      expect(newestRelease(feed(href, tag('0.2.0')), REPO), href).toEqual({ version: '0.2.0', url: tag('0.2.0') });
  });
});
