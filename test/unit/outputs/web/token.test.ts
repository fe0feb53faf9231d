// The access token: made once (32 random bytes), kept private in data_dir and reused; a broken file is
// replaced; compared in constant time; the URLs a person opens carry it only when asked to.
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calendarFeedKey, loadOrCreateToken, tokenMatches, webBaseUrl, webUrls, TOKEN_FILE } from '../../../../src/outputs/web/token.js';
import { tempDir } from '../../../helpers/temp.js';

describe('the access token', () => {
  it('is made at the first start (43 base64url characters, file 0600) and reused after', async () => {
    const dir = await tempDir();
    const first = await loadOrCreateToken(join(dir, 'data'));
    expect(first.created).toBe(true);
    expect(first.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const file = join(dir, 'data', TOKEN_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim()).toBe(first.value);
    const second = await loadOrCreateToken(join(dir, 'data'));
    expect(second).toEqual({ value: first.value, created: false });
  });

  it('differs between installations', async () => {
    const a = await loadOrCreateToken(await tempDir());
    const b = await loadOrCreateToken(await tempDir());
    expect(a.value).not.toBe(b.value);
  });

  it('replaces an empty or short file with a new token, and keeps a long hand-written one', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, TOKEN_FILE), '\n');
    const made = await loadOrCreateToken(dir);
    expect(made.created).toBe(true);
    await writeFile(join(dir, TOKEN_FILE), 'short\n');
    expect((await loadOrCreateToken(dir)).created).toBe(true);
    await writeFile(join(dir, TOKEN_FILE), 'our-own-family-token-2026\n');
    expect(await loadOrCreateToken(dir)).toEqual({ value: 'our-own-family-token-2026', created: false });
  });

  it('matches only itself', () => {
    const token = 'abcdefghijklmnopqrstuvwxyz012345';
    expect(tokenMatches(token, token)).toBe(true);
    expect(tokenMatches(token.toUpperCase(), token)).toBe(false);
    expect(tokenMatches(token.slice(0, 10), token)).toBe(false);
    expect(tokenMatches(`${token} `, token)).toBe(false);
    expect(tokenMatches('', token)).toBe(false);
    expect(tokenMatches(undefined, token)).toBe(false);
  });

  it('builds the board and every calendar feed URL, with the token only when given', () => {
    const withToken = webUrls('http://192.168.1.5:8099', ['ania', 'bartek'], 'T0K');
    expect(withToken.board).toBe('http://192.168.1.5:8099/?token=T0K');
    // Each calendar feed with a key of its own: never the token, a different one per child and calendar feed.
    expect(withToken.calendarFeeds[1]?.urls).toEqual([
      `http://192.168.1.5:8099/calendar/bartek/lessons.ics?key=${calendarFeedKey('T0K', 'bartek', 'lessons')}`,
      `http://192.168.1.5:8099/calendar/bartek/agenda.ics?key=${calendarFeedKey('T0K', 'bartek', 'agenda')}`,
      `http://192.168.1.5:8099/calendar/bartek/free-days.ics?key=${calendarFeedKey('T0K', 'bartek', 'free-days')}`,
    ]);
    const keys = withToken.calendarFeeds.flatMap((f) => f.urls.map((u) => u.split('?key=')[1]));
    expect(new Set(keys).size).toBe(6);
    for (const key of keys) expect(key).toMatch(/^[\w-]{43}$/);
    expect(keys.some((k) => k?.includes('T0K'))).toBe(false);
    // A new token, new keys.
    expect(calendarFeedKey('T0K2', 'bartek', 'lessons')).not.toBe(calendarFeedKey('T0K', 'bartek', 'lessons'));
    expect(webUrls('http://h:1', ['ania']).calendarFeeds[0]?.urls[0]).toBe('http://h:1/calendar/ania/lessons.ics');
  });
});

describe('the base URL printed for a person', () => {
  it('is the bound address, else this machine’s own; in a container a placeholder, not the container’s address', () => {
    expect(webBaseUrl('127.0.0.1', 8099, false)).toBe('http://127.0.0.1:8099');
    expect(webBaseUrl('::1', 8099, false)).toBe('http://[::1]:8099');
    expect(webBaseUrl('0.0.0.0', 8123, false)).toMatch(/^http:\/\/\d+\.\d+\.\d+\.\d+:8123$/);
    expect(webBaseUrl('0.0.0.0', 8099, true)).toBe('http://<this-machine>:8099');
    expect(webBaseUrl('192.168.1.5', 8099, true)).toBe('http://192.168.1.5:8099');
  });
});
