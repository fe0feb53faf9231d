// The token as the running bridge sees it: a rotation (another process writing the file) counts from
// the next look; a file that is gone or broken leaves the last good token in force; the board's
// cookie is an HMAC of the token, changed by a rotation.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cookieFor, loadOrCreateToken, rotateToken, TOKEN_FILE } from '../../../../src/outputs/web/token.js';
import { LiveToken } from '../../../../src/outputs/web/token.js';
import { tempDir } from '../../../helpers/temp.js';

describe('the live token', () => {
  it('takes a rotated token at the next look and tells its listeners once', async () => {
    const dir = await tempDir();
    const { value } = await loadOrCreateToken(dir);
    const live = new LiveToken(dir, value);
    let changes = 0;
    live.onChange(() => changes++);
    expect(live.current()).toBe(value);
    const fresh = await rotateToken(dir);
    expect(fresh).not.toBe(value);
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(live.current()).toBe(fresh);
    expect(live.current()).toBe(fresh);
    expect(changes).toBe(1);
  });

  it('keeps the last good token when the file is removed, emptied or too short', async () => {
    const dir = await tempDir();
    const { value } = await loadOrCreateToken(dir);
    const live = new LiveToken(dir, value);
    await writeFile(join(dir, TOKEN_FILE), 'short\n');
    expect(live.current()).toBe(value);
    await writeFile(join(dir, TOKEN_FILE), '');
    expect(live.current()).toBe(value);
    await rm(join(dir, TOKEN_FILE));
    expect(live.current()).toBe(value);
  });
});

describe("the board's cookie", () => {
  it('is an HMAC of the token: not the token, the same for the same token, another after a rotation', () => {
    const token = 'Zq3mC8Jx0vL6bT2nR9pW4kY7hD1sF5gA_-abcdefgh';
    expect(cookieFor(token)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookieFor(token)).not.toContain(token);
    expect(cookieFor(token)).toBe(cookieFor(token));
    expect(cookieFor(`${token}x`)).not.toBe(cookieFor(token));
  });
});
